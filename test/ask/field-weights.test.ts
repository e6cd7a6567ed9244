// Field weights: one word a page's title shares with the question must not beat the page whose body answers it, and
// long pages that answer many questions are not buried by length normalization.
import t from 'tap';
import { corpusIndex } from './server.ts';
import type { Lang } from '../../server/ask/text.ts';

const index = await corpusIndex();
const top = (text: string, lang: Lang) => index.search({ text, lang, maxResults: 5 }).hits.map((h) => h.page.url.replace(/^https:\/\/(www\.)?siglata\.com/, ''));

t.test('a shared title word does not beat the body that answers', async (t) => {
  // "The execute tool: running scripts in the sandbox" shares "sandbox"; the security page explains sandbox security.
  for (const text of ['sandbox security', 'sandbx secutiry']) t.equal(top(text, 'en')[0], '/docs/en/security', text);
  t.equal(top('seguranca do sandbox', 'pt')[0], '/docs/pt/seguranca');
});

t.test('the long pages that answer in their body reach the top five', async (t) => {
  const cases: Array<[string, Lang, string]> = [
    ['tornar alguem administrador', 'pt', '/docs/pt/membros'],
    ['problema para entrar', 'pt', '/docs/pt/sessoes'],
  ];
  for (const [text, lang, url] of cases) t.ok(top(text, lang).includes(url), `${text}: ${top(text, lang).join(' ')}`);
});
