// Relevance of /ask over fixtures/site/queries.json: recall@5 ≥ 0.9 and nDCG@5 ≥ 0.8, queries sent without
// accept-language (the engine guesses the language), both in process and over HTTP.
import t from 'tap';
import { fileURLToPath } from 'node:url';
import { evaluate, loadQueries } from '../../server/ask/relevance.ts';
import { ask, corpusIndex, startAskServer } from './server.ts';

const queries = await loadQueries(fileURLToPath(new URL('../../fixtures/site/queries.json', import.meta.url)));
const index = await corpusIndex();

t.test('the relevance set is broad', async (t) => {
  t.ok(queries.length >= 40, `${queries.length} queries`);
  for (const lang of ['pt-BR', 'en-US']) t.ok(queries.filter((q) => q.lang === lang).length >= 15, lang);
  for (const kind of ['direct', 'paraphrase', 'no-accents', 'typo'])
    t.ok(
      queries.some((q) => q.kind === kind),
      kind,
    );
  const known = new Set(index.pages.map((p) => p.url));
  for (const q of queries) for (const u of q.relevant) t.ok(known.has(u), `${q.id}: ${u} is in the corpus`);
});

t.test('in process: recall@5 ≥ 0.9 and nDCG@5 ≥ 0.8', async (t) => {
  const report = await evaluate(queries, (q) => index.search({ text: q.text, maxResults: 5 }).hits.map((h) => h.page.url));
  t.comment(`recall@5 ${report.recall.toFixed(3)}, nDCG@5 ${report.ndcg.toFixed(3)}`);
  for (const s of report.queries.filter((s) => s.ndcg < 0.5)) t.comment(`weak: ${s.id} "${s.text}" → ${s.top.join(' ')}`);
  t.ok(report.recall >= 0.9, `recall@5 ${report.recall}`);
  t.ok(report.ndcg >= 0.8, `nDCG@5 ${report.ndcg}`);
});

t.test('over HTTP the same ranking comes back', async (t) => {
  const srv = await startAskServer();
  t.teardown(() => srv.close());
  const report = await evaluate(queries, async (q) => {
    const res = await ask(srv.url, { query: { text: q.text, max_results: 5 }, prefer: { streaming: false } });
    return res.json.results.map((r: { url: string }) => r.url);
  });
  t.ok(report.recall >= 0.9 && report.ndcg >= 0.8, `recall@5 ${report.recall.toFixed(3)}, nDCG@5 ${report.ndcg.toFixed(3)}`);
});
