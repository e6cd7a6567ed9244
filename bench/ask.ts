// Benchmark for POST /ask: queries per second and p50/p99 latency over real HTTP (JSON and SSE), beside the same queries
// answered by a bare in-process index lookup (the floor: what HTTP, validation and JSON cost on top), plus recall@5 and
// relevance per query kind on fixtures/site/dev-queries.json (both halves), fixtures/site/holdout-queries.json (held out
// from tuning), fixtures/site/holdout2-queries.json (a second one, by another hand), fixtures/site/holdout3-queries.json
// (a third, by an outsider who read only the pages) and fixtures/site/queries.json, ours beside MiniSearch (default, and
// fuzzy+prefix) on the same pages.
// Run: npm run bench -- ask; ASK_BENCH_FAILURES=1 also lists each dev-set query we answer below perfect, with what we
// answered, so failures can be read one by one.
import Koa from 'koa';
import Router from '@koa/router';
import { Pool } from 'undici';
import type { AddressInfo } from 'node:net';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { createLogger } from '../server/logger.ts';
import { requestContext } from '../server/middleware/request-context.ts';
import { errorHandler } from '../server/middleware/error-handler.ts';
import { askCors, askRoutes } from '../server/routes/ask.ts';
import { loadAskIndex } from '../server/ask/load.ts';
import type { AskIndex } from '../server/ask/index.ts';
import { evaluate, loadQueries, type Ranked, type RelevanceQuery, type RelevanceReport } from '../server/ask/relevance.ts';
import { langOf } from '../server/ask/text.ts';
import { miniSearchRankers } from './lib/ask-minisearch.ts';

const REQUESTS = Number(process.env.ASK_BENCH_REQUESTS ?? 4000);
const FAILURES = process.env.ASK_BENCH_FAILURES === '1';
const CONCURRENCY = Number(process.env.ASK_BENCH_CONCURRENCY ?? 16);

interface Row {
  path: string;
  requests: number;
  concurrency: number;
  qps: number;
  p50: number;
  p99: number;
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

function row(path: string, concurrency: number, latencies: number[], elapsedMs: number): Row {
  const sorted = [...latencies].sort((a, b) => a - b);
  return {
    path,
    requests: latencies.length,
    concurrency,
    qps: latencies.length / (elapsedMs / 1000),
    p50: percentile(sorted, 50),
    p99: percentile(sorted, 99),
  };
}

function inProcess(index: AskIndex, texts: string[], n: number): Row {
  for (let i = 0; i < 2000; i++) index.search({ text: texts[i % texts.length] }); // warm-up
  const latencies: number[] = [];
  const start = performance.now();
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    index.search({ text: texts[i % texts.length] });
    latencies.push(performance.now() - t0);
  }
  return row('in-process index.search (floor)', 1, latencies, performance.now() - start);
}

async function overHttp(origin: string, texts: string[], n: number, streaming: boolean, concurrency: number): Promise<Row> {
  const pool = new Pool(origin, { connections: concurrency, pipelining: 1 });
  const once = async (i: number) => {
    const res = await pool.request({
      path: '/ask',
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: { text: texts[i % texts.length] }, prefer: { streaming } }),
    });
    await res.body.text();
    if (res.statusCode !== 200) throw new Error(`status ${res.statusCode}`);
  };
  for (let i = 0; i < 500; i++) await once(i); // warm-up
  const latencies: number[] = [];
  let next = 0;
  const start = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < n) {
        const i = next++;
        const t0 = performance.now();
        await once(i);
        latencies.push(performance.now() - t0);
      }
    }),
  );
  const elapsed = performance.now() - start;
  await pool.close();
  return row(`HTTP POST /ask (${streaming ? 'SSE' : 'JSON'})`, concurrency, latencies, elapsed);
}

function startServer(index: AskIndex): Promise<{ origin: string; close: () => Promise<void> }> {
  const logger = createLogger('silent');
  const app = new Koa();
  app.silent = true;
  const router = new Router();
  for (const route of askRoutes({ logger }, index)) router.register(route.path, [route.method], Array.isArray(route.handle) ? route.handle : [route.handle]);
  app
    .use(requestContext(logger))
    .use(errorHandler(logger))
    .use(askCors())
    .use(router.routes())
    .use(router.allowedMethods({ throw: true }));
  const server = app.listen(0, '127.0.0.1');
  return new Promise((resolve) =>
    server.once('listening', () =>
      resolve({
        origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
        close: () =>
          new Promise<void>((done) => {
            server.closeAllConnections();
            server.close(() => done());
          }),
      }),
    ),
  );
}

const f = (x: number, digits = 2) => x.toFixed(digits);

/** Our ranking of one query, as the route would answer it (accept-language when the query states one). */
export function oursRanker(index: AskIndex) {
  return (q: RelevanceQuery, k = 5): Ranked => {
    const hits = index.search({ text: q.text, maxResults: k, lang: langOf(q.acceptLanguage) }).hits;
    return { urls: hits.map((h) => h.page.url), langs: hits.map((h) => h.page.inLanguage) };
  };
}

function printRelevance(title: string, reports: Array<[string, RelevanceReport]>): void {
  console.log(`\n| ${title} | engine | n | recall@5 | nDCG@5 | unanswerable empty | answers lost | same-language-first violations |`);
  console.log('|---|---|---:|---:|---:|---:|---:|---:|');
  const kinds = reports[0][1].byKind.map((k) => k.kind);
  for (const kind of [...kinds, 'all']) {
    for (const [engine, report] of reports) {
      const r = kind === 'all' ? report : report.byKind.find((k) => k.kind === kind)!;
      const n = r.answerable + r.unanswerable;
      const rel = r.answerable ? `${f(r.recall, 3)} | ${f(r.ndcg, 3)}` : '– | –';
      const un = r.unanswerable ? `${r.unansweredRight}/${r.unanswerable}` : '–';
      console.log(`| ${kind} | ${engine} | ${n} | ${rel} | ${un} | ${r.lostAnswers} | ${r.langViolations}/${r.stated} |`);
    }
  }
}

/** Ours and the peers on one query set. */
export async function compare(index: AskIndex, queries: readonly RelevanceQuery[]): Promise<Array<[string, RelevanceReport]>> {
  const ours = oursRanker(index);
  const reports: Array<[string, RelevanceReport]> = [['ours', await evaluate(queries, (q) => ours(q))]];
  for (const [name, rank] of Object.entries(miniSearchRankers(index.pages))) reports.push([name, await evaluate(queries, (q) => rank(q.text, 5))]);
  return reports;
}

const short = (url: string) => url.replace(/^https:\/\/(www\.)?siglata\.com\/(docs\/)?/, '');

/** Each query answered below perfect (nDCG@5 under 1, or an unanswerable one answered), with the pages we gave. */
function printFailures(title: string, queries: readonly RelevanceQuery[], report: RelevanceReport): void {
  console.log(`\n${title}: queries answered below perfect (ours)\n`);
  report.queries.forEach((s, i) => {
    const q = queries[i];
    if (q.relevant.length ? s.ndcg >= 0.999 : s.empty) return;
    console.log(`- ${q.id} [${q.kind}] "${q.text}"${q.acceptLanguage ? ` (${q.acceptLanguage})` : ''} nDCG ${f(s.ndcg)}`);
    console.log(`  wanted: ${q.relevant.map(short).join(' ') || '(no answer)'}; got: ${s.top.map(short).join(' ') || '(no answer)'}`);
  });
}

const fixture = (name: string) => fileURLToPath(new URL(`../fixtures/site/${name}`, import.meta.url));

export async function main(): Promise<{ rows: Row[]; recall: number; ndcg: number; queries: number }> {
  const index = await loadAskIndex();
  if (!index) throw new Error('fixtures/site/ did not load');
  const queries: RelevanceQuery[] = await loadQueries(fixture('queries.json'));
  const dev: RelevanceQuery[] = await loadQueries(fixture('dev-queries.json'));
  const texts = [...queries, ...dev].map((q) => q.text);
  const server = await startServer(index);
  const rows: Row[] = [];
  try {
    rows.push(inProcess(index, texts, REQUESTS));
    // One client at a time (the latency a person typing sees), then CONCURRENCY at once (the server's throughput).
    for (const concurrency of [1, CONCURRENCY]) {
      rows.push(await overHttp(server.origin, texts, REQUESTS, false, concurrency));
      rows.push(await overHttp(server.origin, texts, REQUESTS, true, concurrency));
    }
  } finally {
    await server.close();
  }
  const floor = await compare(index, queries);

  console.log(`## POST /ask (${index.size} pages, ${texts.length} distinct queries cycled, Node ${process.version})\n`);
  console.log('| path | requests | concurrency | queries/s | p50 ms | p99 ms |');
  console.log('|---|---:|---:|---:|---:|---:|');
  for (const r of rows) console.log(`| ${r.path} | ${r.requests} | ${r.concurrency} | ${f(r.qps, 0)} | ${f(r.p50, 3)} | ${f(r.p99, 3)} |`);
  console.log(
    '\nTarget: HTTP p50 ≤ 2 ms (one client at a time; the loaded rows show throughput). Relevance targets (held out): no answer lost (an answerable question left empty), nDCG@5 ≥ 0.88, recall@5 ≥ 0.95, unanswerable ones empty where no page knows their words, no language violation.',
  );
  for (const split of ['tune', 'check']) {
    const half = dev.filter((q) => q.split === split);
    const reports = await compare(index, half);
    printRelevance(`dev set, ${split} half`, reports);
    if (FAILURES) printFailures(`dev set, ${split} half`, half, reports[0][1]);
  }
  printRelevance('dev set, both halves', await compare(index, dev));
  printRelevance('held-out set (holdout-queries.json, never tuned on)', await compare(index, await loadQueries(fixture('holdout-queries.json'))));
  printRelevance(
    'second held-out set (holdout2-queries.json, written by another hand)',
    await compare(index, await loadQueries(fixture('holdout2-queries.json'))),
  );
  printRelevance(
    'third held-out set (holdout3-queries.json, an outsider, pages only)',
    await compare(index, await loadQueries(fixture('holdout3-queries.json'))),
  );
  printRelevance('regression floor (queries.json)', floor);
  return { rows, recall: floor[0][1].recall, ndcg: floor[0][1].ndcg, queries: queries.length };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await main();
