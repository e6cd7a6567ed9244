// A question gets no results (`results: []` in the Answer shape) only when none of its topic words is known to the
// pages in any form; a question sharing a word with a page gets that page, scored by how much of the question it
// answers, since an empty answer to a question the site does answer is the worst answer there is. In process on the
// query sets and on variants of the class, and over HTTP in both encodings.
import t from 'tap';
import * as v from 'valibot';
import { fileURLToPath } from 'node:url';
import { loadQueries } from '../../server/ask/relevance.ts';
import { AskAnswerSchema } from '../../server/ask/schema.ts';
import type { Lang } from '../../server/ask/text.ts';
import { ask, corpusIndex, sseData, startAskServer } from './server.ts';

const index = await corpusIndex();
const hits = (text: string, lang: Lang | null = null) => index.search({ text, lang, maxResults: 5 }).hits;
const fixture = (name: string) => fileURLToPath(new URL(`../../fixtures/site/${name}`, import.meta.url));
const dev = await loadQueries(fixture('dev-queries.json'));

// Questions about something no page mentions in any word; none of them is in a query set.
const OFF_TOPIC: Array<[string, Lang | null]> = [
  ['annual subscription discount', null],
  ['weather forecast', 'en'],
  ['cheap flights to lisbon', null],
  ['bitcoin price', 'en'],
  ['pagamento com cartao', 'pt'],
  ['melhor pizzaria de curitiba', 'pt'],
  ['horoscopo de hoje', null],
];

t.test('a question none of whose words any page knows gets no results', async (t) => {
  for (const [text, lang] of OFF_TOPIC)
    t.same(
      hits(text, lang).map((h) => h.page.url),
      [],
      text,
    );
});

t.test('a question sharing a word with a page gets that page, scored at most for the share of the question it covers', async (t) => {
  // "pricing", "dark", "escuro", "slack" are words no page uses; the other word is a page's. The page is shown (a weak
  // answer still shows the page), and its score is at most half of what the known word alone earns.
  const cases: Array<[string, string, Lang]> = [
    ['pricing plans', 'plans', 'en'],
    ['dark mode', 'mode', 'en'],
    ['modo escuro', 'modo', 'pt'],
    ['slack integration', 'integration', 'en'],
    ['quanto custa o plano', 'plano', 'pt'],
  ];
  for (const [text, known, lang] of cases) {
    const found = index.search({ text, lang, maxResults: 5 });
    const alone = hits(known, lang)[0];
    t.ok(found.hits.length > 0, `${text}: answered`);
    t.ok(found.words.unknown.length > 0, `${text}: ${found.words.unknown.join(', ')} unknown`);
    t.ok(found.hits[0].score <= Math.ceil(alone.score / 2), `${text}: ${found.hits[0].score} vs ${known}: ${alone.score}`);
  }
});

t.test('a weak match is shown rather than left out, however low its score', async (t) => {
  // One known word of four ("keeps"): the pages that use it, below the noise floor of a full match, are still the answer.
  const found = index.search({ text: 'my cat keeps sneezing at night', lang: 'en', maxResults: 5 });
  t.ok(found.hits.length > 0, 'answered');
  t.ok(
    found.hits.every((h) => h.score < 15),
    found.hits.map((h) => h.score).join(' '),
  );
});

t.test('an unknown word that tells how or when, or that a synonym covers, does not empty the answer', async (t) => {
  // Two topic words, one of them unknown: the known one answers, and an unknown circumstance does not lower the score.
  const cases: Array<[string, Lang | null, string]> = [
    ['deleted accidentally', 'en', '/docs/en/trash'],
    ['apagado acidentalmente', 'pt', '/docs/pt/lixeira'],
    ['logged out suddenly', 'en', '/docs/en/sessions'],
    ['removido de repente', 'pt', '/docs/pt/membros'],
    // "key" is a word no page uses; the synonym table maps "api key" to the pages' "access token".
    ['api key', 'en', '/docs/en/'],
  ];
  for (const [text, lang, url] of cases)
    t.ok(
      hits(text, lang).some((h) => h.page.url.includes(url)),
      text,
    );
});

t.test('a word naming the documentation beside a topic neither empties the answer nor draws it away', async (t) => {
  // "docs", "guia", "tutorial" are no page's topic: left in, "api docs" had half its words unknown and no answer.
  const cases: Array<[string, Lang | null, string]> = [
    ['api docs', 'en', '/docs/en/api-overview'],
    ['trash documentation', null, '/docs/en/trash'],
    ['upload guide', null, '/docs/en/uploads'],
    ['sessions reference page', 'en', '/docs/en/sessions'],
    ['documentacao da lixeira', 'pt', '/docs/pt/lixeira'],
    ['guia de envios', null, '/docs/pt/envios'],
    ['tutorial de convites', 'pt', '/docs/pt/convites'],
    // The last word is still completed while typed when a word naming the docs comes first.
    ['docs about spreadsh', 'en', '/docs/en/spreadsheets'],
    ['guia de planil', 'pt', '/docs/pt/planilhas'],
  ];
  for (const [text, lang, url] of cases)
    t.ok(
      hits(text, lang)[0]?.page.url.endsWith(url),
      `${text}: ${hits(text, lang)
        .map((h) => h.page.url)
        .join(' ')}`,
    );
});

t.test('a question of function words alone gets no results', async (t) => {
  for (const text of ['what to do', 'who can', 'o que fazer', 'quem pode', 'how do i']) t.same(hits(text), [], text);
});

t.test('a long question told in everyday words keeps its answer', async (t) => {
  const situations: Array<[string, Lang, string]> = [
    ['coworker quit yesterday, remove him from the organization', 'en', '/docs/en/members'],
    ['estagiario foi demitido, remover da organizacao', 'pt', '/docs/pt/membros'],
  ];
  for (const [text, lang, url] of situations)
    t.ok(
      hits(text, lang).some((h) => h.page.url.endsWith(url)),
      text,
    );
});

t.test('no answerable question of any query set is left empty; the unanswerable ones answered score low', async (t) => {
  for (const name of ['dev-queries.json', 'holdout-queries.json', 'holdout2-queries.json', 'holdout3-queries.json', 'queries.json']) {
    const set = await loadQueries(fixture(name));
    const lost = set.filter((q) => q.relevant.length > 0 && hits(q.text).length === 0).map((q) => q.text);
    t.same(lost, [], `${name}: answerable questions left empty`);
  }
  // Honest scores: the best score given to an unanswerable question is, in the middle, below that of an answerable one.
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  const top = (q: (typeof dev)[number]) => hits(q.text)[0]?.score ?? 0;
  const unanswerable = median(dev.filter((q) => q.relevant.length === 0).map(top));
  const answerable = median(dev.filter((q) => q.relevant.length > 0).map(top));
  t.ok(unanswerable < answerable / 2, `median top score: unanswerable ${unanswerable}, answerable ${answerable}`);
});

t.test('a question keeps its answer when the unknown words are the minority or mere fillers', async (t) => {
  const cases: Array<[string, Lang, string]> = [
    ['how do I restore a deleted file please', 'en', '/docs/en/trash'],
    ['machine readable description of the whole api', 'en', '/docs/en/api-overview'],
    ['um funcionario saiu da empresa, como tiro o acesso dele', 'pt', '/docs/pt/membros'],
    ['deu erro de rate limit', 'pt', '/docs/pt/limites-de-requisicoes'],
    ['qota', 'en', '/docs/en/storage-quota'],
    // "cadê" (where is) is a question word, not a topic the pages lack.
    ['cadê a lixeira', 'pt', '/docs/pt/lixeira'],
    ['cade o trash', 'pt', '/docs/pt/lixeira'],
  ];
  for (const [text, lang, url] of cases)
    t.ok(
      hits(text, lang).some((h) => h.page.url.endsWith(url)),
      text,
    );
});

t.test('over HTTP, no answer is an Answer with results: [] (JSON and SSE)', async (t) => {
  const srv = await startAskServer();
  t.teardown(() => srv.close());
  const json = await ask(srv.url, { query: { text: 'weather forecast' }, prefer: { streaming: false, 'accept-language': 'en-US' } });
  t.equal(json.status, 200);
  t.ok(v.is(AskAnswerSchema, json.json), 'Answer shape');
  t.same(json.json.results, []);
  t.equal(json.json._meta.total_results, 0);
  const sse = await ask(srv.url, { query: { text: 'horoscopo de hoje' } });
  t.equal(sse.status, 200);
  const body = sseData(sse.text);
  t.equal(body._meta.response_type, 'Answer');
  t.same(body.results, []);
});
