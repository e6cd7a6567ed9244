// Question phrases: a page's keywords may name the kind of question it answers in function words alone ("who can do
// what", "quem pode fazer o quê", "what to do"). Those phrases are indexed, so "who can ..." reaches the roles page
// beside the page of the act; function words alone still get no answer.
import t from 'tap';
import { buildAskIndex } from '../../server/ask/index.ts';
import { pageFromJson } from '../../server/ask/corpus.ts';
import { docTerms } from '../../server/ask/sub-index.ts';
import { corpusIndex } from './server.ts';

const index = await corpusIndex();
const top = (text: string, lang: 'pt' | 'en', n = 3) =>
  index.search({ text, lang, maxResults: n }).hits.map((h) => h.page.url.replace(/^https:\/\/(www\.)?siglata\.com/, ''));

t.test('function-word phrases of the keywords field are index terms; of other text they are not', async (t) => {
  t.ok(docTerms('who can do what', 'en', true).includes('who can'));
  t.notOk(docTerms('who can do what', 'en').includes('who can'));
  t.ok(docTerms('quem pode fazer o quê', 'pt', true).includes('quem pode'));
  // A one-letter function word (article, conjunction, pronoun by turns) anchors no phrase: "o que" is every "what".
  t.notOk(docTerms('quem pode fazer o quê', 'pt', true).includes('o que'));
});

t.test('a generic "what is" question is not drawn to the pages whose phrases contain "o que"', async (t) => {
  for (const [text, url] of [
    ['o que é um escopo', '/docs/pt/escopos'],
    ['o que é o oauth', '/docs/pt/oauth'],
    ['o que é uma sessão', '/docs/pt/sessoes'],
    ['o que é o acesso mcp', '/docs/pt/acesso-mcp'],
  ]) {
    t.equal(top(text, 'pt', 1)[0], url, text);
  }
});

t.test('"who can" questions reach the roles page, in both languages', async (t) => {
  t.ok(top('who can invite people', 'en').includes('/docs/en/roles'), 'who can invite people');
  t.ok(top('quem pode convidar', 'pt').includes('/docs/pt/papeis'), 'quem pode convidar');
  t.ok(top('who can change the mcp access', 'en').includes('/docs/en/roles'), 'who can change the mcp access');
});

t.test('the kind of question counts in what a page must cover, as a topic word does', async (t) => {
  // The roles page matches only "who can" here; the pages of the act match the rest.
  t.ok(top('who can add new people', 'en').includes('/docs/en/roles'), 'who can add new people');
  t.ok(top('who can delete files', 'en', 5).includes('/docs/en/roles'), 'who can delete files');
  t.ok(top('quem pode revogar o acesso mcp', 'pt', 5).includes('/docs/pt/papeis'), 'quem pode revogar o acesso mcp');
});

t.test("a question phrase in a page's keywords raises that page's score; a page without it covers less of the question", async (t) => {
  const page = (slug: string, keywords: string, body: string) =>
    pageFromJson(
      {
        jsonld: {
          '@context': 'https://schema.org',
          '@type': 'TechArticle',
          url: `https://siglata.com/docs/en/${slug}`,
          headline: slug,
          description: `About ${slug}.`,
          inLanguage: 'en-US',
          keywords,
        },
        body: [body],
      },
      `${slug}.json`,
    );
  const small = buildAskIndex([
    page('uploads', 'upload, parts', 'An upload sends a file in parts.'),
    page('help', 'help, what to do', 'Start from the error code of the upload.'),
    page('sessions', 'session, cookie', 'A session lasts seven days.'),
    page('trash', 'trash, restore', 'A trashed file can be restored.'),
  ]);
  const score = (text: string, slug: string) => small.search({ text, lang: 'en' }).hits.find((h) => h.page.url.endsWith(`/${slug}`))?.score ?? 0;
  t.ok(score('what to do about an upload', 'help') > score('about an upload', 'help'), 'help gains');
  t.ok(score('what to do about an upload', 'uploads') < score('about an upload', 'uploads'), 'uploads covers less');
});

t.test('function words alone get no answer', async (t) => {
  for (const text of ['what to do', 'who can', 'o que fazer', 'quem pode']) t.same(index.search({ text }).hits, [], text);
});
