// The home page (schema.org WebPage) names every topic in a line each: it stays the answer to a question about the
// product or its own words, and no longer outranks the page that treats a combination of topics it only mentions.
import t from 'tap';
import type { Lang } from '../../server/ask/text.ts';
import { corpusIndex } from './server.ts';

const index = await corpusIndex();
const top = (text: string, lang: Lang) =>
  index.search({ text, lang, maxResults: 5 }).hits.map((h) => h.page.url.replace(/^https:\/\/(www\.)?siglata\.com/, ''));

t.test('a question combining topics gets the page that treats them, not the overview that lists them', async (t) => {
  t.equal(top('equipe sem espaco de armazenamento', 'pt')[0], '/docs/pt/cota-de-armazenamento');
  t.equal(top('agents of my team cannot connect', 'en')[0], '/docs/en/mcp-clients');
  t.not(top('team got too big for the storage, what now', 'en')[0], '/en/');
});

t.test('the overview still answers for the product and its own words', async (t) => {
  t.equal(top('work space', 'en')[0], '/en/');
  t.equal(top('workspace for teams and agents', 'en')[0], '/en/');
});

t.test('a question naming only the site gets its overview first, though every page mentions the site', async (t) => {
  t.same([...new Set(index.pages.map((p) => p.siteName))], ['Siglata'], 'the WebSite each page is part of');
  t.equal(top('o que é a Siglata?', 'pt')[0], '/pt/');
  t.equal(top('what is siglata', 'en')[0], '/en/');
  t.equal(top('what does siglata do', 'en')[0], '/en/');
  // With a topic beside it, the site's name is just the site's name.
  t.equal(top('conectar o claude na siglata', 'pt')[0], '/docs/pt/clientes-mcp');
});
