// FAQ questions as anchor text: each question a FAQ page asks is credited to the content page that answers it, and a
// question worded like it reaches that page, not only the FAQ.
import t from 'tap';
import { askedQuestions } from '../../server/ask/asked.ts';
import { buildSub } from '../../server/ask/sub-index.ts';
import type { Lang } from '../../server/ask/text.ts';
import { corpusIndex } from './server.ts';

const index = await corpusIndex();
const path = (u: string) => u.replace(/^https:\/\/(www\.)?siglata\.com/, '');

t.test('every FAQ question goes to one content page of its language, never to a FAQ page or the home page', async (t) => {
  for (const lang of ['en', 'pt'] as const) {
    const asked = askedQuestions(buildSub(lang, index.pages));
    const credited = [...asked.values()].flat();
    const questions = index.pages.filter((p) => p.lang === lang).flatMap((p) => p.questions.map((q) => q.question));
    t.ok(questions.length >= 10, `${lang}: ${questions.length} questions`);
    t.same(credited.sort(), questions.sort(), `${lang}: each question once`);
    for (const page of asked.keys()) {
      t.equal(page.lang, lang);
      t.notOk(['FAQPage', 'WebPage'].includes(page.type), `${page.url} is a content page`);
    }
  }
  const to = (lang: Lang, question: string) => {
    for (const [page, list] of askedQuestions(buildSub(lang, index.pages))) if (list.includes(question)) return path(page.url);
  };
  t.equal(to('en', 'Can I get back a file I deleted?'), '/docs/en/trash');
  t.equal(to('en', 'Why do I get MCP_ACCESS_REVOKED?'), '/docs/en/mcp-access');
  t.equal(to('pt', 'Quanto tempo dura um convite?'), '/docs/pt/convites');
  t.equal(to('pt', 'Consigo recuperar um arquivo que apaguei?'), '/docs/pt/lixeira');
});

t.test('a question asked like the FAQ asks it reaches the page that answers it', async (t) => {
  const top = (text: string, lang: Lang) => index.search({ text, lang, maxResults: 5 }).hits.map((h) => path(h.page.url));
  t.equal(top('quanto tempo dura um convite', 'pt')[0], '/docs/pt/convites');
  t.equal(top('quais agentes funcionam com a siglata', 'pt')[0], '/docs/pt/clientes-mcp');
  t.ok(top('how big can a file be', 'en').slice(0, 2).includes('/docs/en/uploads'), top('how big can a file be', 'en').join(' '));
});

t.test('the credited questions are never cited: citations stay verbatim sentences of the page', async (t) => {
  const hit = index.search({ text: 'quanto tempo dura um convite', lang: 'pt', maxResults: 1 }).hits[0];
  const text = hit.page.blocks.join('\n');
  for (const c of hit.citations) t.ok(text.includes(c), c);
  t.notOk(hit.citations.includes('Quanto tempo dura um convite?'));
});
