// Field weights: one word a page's title shares with the question must not beat the page whose body answers it, and
// long pages that answer many questions are not buried by length normalization.
import t from 'tap';
import { corpusIndex } from './server.ts';
import type { Lang } from '../../server/ask/text.ts';

const index = await corpusIndex();
const top = (text: string, lang: Lang) =>
  index.search({ text, lang, maxResults: 5 }).hits.map((h) => h.page.url.replace(/^https:\/\/(www\.)?siglata\.com/, ''));

t.test('a shared title word does not beat the body that answers', async (t) => {
  // "The execute tool: running scripts in the sandbox" shares "sandbox"; the security page explains sandbox security.
  for (const text of ['sandbox security', 'sandbx secutiry']) t.equal(top(text, 'en')[0], '/docs/en/security', text);
  t.equal(top('seguranca do sandbox', 'pt')[0], '/docs/pt/seguranca');
});

t.test('the long pages that answer in their body reach the top five', async (t) => {
  const cases: Array<[string, Lang, string]> = [
    ['tornar alguem administrador', 'pt', '/docs/pt/membros'],
    ['problema para entrar', 'pt', '/docs/pt/solucao-de-problemas'],
  ];
  for (const [text, lang, url] of cases) t.ok(top(text, lang).includes(url), `${text}: ${top(text, lang).join(' ')}`);
});

t.test("a question that is a page's short name gets that page first, above the pages sharing one word of it", async (t) => {
  // "Limits at a glance" (/limits) and "Rate limits" (/rate-limits) both hold "limits"; the shorter-titled one won.
  const cases: Array<[string, Lang, string]> = [
    ['limits', 'en', '/docs/en/limits'],
    ['limites', 'pt', '/docs/pt/limites'],
    ['rate limits', 'en', '/docs/en/rate-limits'],
    ['limites de requisicoes', 'pt', '/docs/pt/limites-de-requisicoes'],
    ['storage quota', 'en', '/docs/en/storage-quota'],
    ['trash', 'en', '/docs/en/trash'],
  ];
  for (const [text, lang, url] of cases) t.equal(top(text, lang)[0], url, `${text}: ${top(text, lang).join(' ')}`);
  // Only in the question's language: "mcp acess" (a typo) spells the Portuguese name's stems, not the question's.
  t.equal(top('mcp acess', 'en')[0], '/docs/en/mcp-access');
});
