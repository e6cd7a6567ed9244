// Benchmark for POST /ask: queries per second and p50/p99 latency over real HTTP (JSON and SSE), beside the same queries
// answered by a bare in-process index lookup (the floor: what HTTP, validation and JSON cost on top), plus recall@5 and
// nDCG@5 of fixtures/site/queries.json. Run: node_modules/.bin/node --no-node-snapshot bench/ask.ts
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
import { evaluate, loadQueries, type RelevanceQuery } from '../server/ask/relevance.ts';

const REQUESTS = Number(process.env.ASK_BENCH_REQUESTS ?? 4000);
const CONCURRENCY = Number(process.env.ASK_BENCH_CONCURRENCY ?? 16);

interface Row { path: string; requests: number; concurrency: number; qps: number; p50: number; p99: number }

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

function row(path: string, concurrency: number, latencies: number[], elapsedMs: number): Row {
  const sorted = [...latencies].sort((a, b) => a - b);
  return { path, requests: latencies.length, concurrency, qps: latencies.length / (elapsedMs / 1000), p50: percentile(sorted, 50), p99: percentile(sorted, 99) };
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

async function overHttp(origin: string, texts: string[], n: number, streaming: boolean): Promise<Row> {
  const pool = new Pool(origin, { connections: CONCURRENCY, pipelining: 1 });
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
  await Promise.all(Array.from({ length: CONCURRENCY }, async () => {
    while (next < n) {
      const i = next++;
      const t0 = performance.now();
      await once(i);
      latencies.push(performance.now() - t0);
    }
  }));
  const elapsed = performance.now() - start;
  await pool.close();
  return row(`HTTP POST /ask (${streaming ? 'SSE' : 'JSON'})`, CONCURRENCY, latencies, elapsed);
}

function startServer(index: AskIndex): Promise<{ origin: string; close: () => Promise<void> }> {
  const logger = createLogger('silent');
  const app = new Koa();
  app.silent = true;
  const router = new Router();
  for (const route of askRoutes({ logger }, index)) router.register(route.path, [route.method], Array.isArray(route.handle) ? route.handle : [route.handle]);
  app.use(requestContext(logger)).use(errorHandler(logger)).use(askCors()).use(router.routes()).use(router.allowedMethods({ throw: true }));
  const server = app.listen(0, '127.0.0.1');
  return new Promise((resolve) => server.once('listening', () => resolve({
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((done) => { server.closeAllConnections(); server.close(() => done()); }),
  })));
}

const f = (x: number, digits = 2) => x.toFixed(digits);

export async function main(): Promise<{ rows: Row[]; recall: number; ndcg: number; queries: number }> {
  const index = await loadAskIndex();
  if (!index) throw new Error('fixtures/site did not load');
  const queries: RelevanceQuery[] = await loadQueries(fileURLToPath(new URL('../fixtures/site/queries.json', import.meta.url)));
  const texts = queries.map((q) => q.text);
  const server = await startServer(index);
  const rows: Row[] = [];
  try {
    rows.push(inProcess(index, texts, REQUESTS));
    rows.push(await overHttp(server.origin, texts, REQUESTS, false));
    rows.push(await overHttp(server.origin, texts, REQUESTS, true));
  } finally {
    await server.close();
  }
  const report = await evaluate(queries, (q) => index.search({ text: q.text, maxResults: 5 }).hits.map((h) => h.page.url));

  console.log(`## POST /ask (${index.size} pages, ${queries.length} distinct queries cycled, Node ${process.version})\n`);
  console.log('| path | requests | concurrency | queries/s | p50 ms | p99 ms |');
  console.log('|---|---:|---:|---:|---:|---:|');
  for (const r of rows) console.log(`| ${r.path} | ${r.requests} | ${r.concurrency} | ${f(r.qps, 0)} | ${f(r.p50, 3)} | ${f(r.p99, 3)} |`);
  console.log('\n| relevance (fixtures/site/queries.json, no accept-language) | queries | recall@5 | nDCG@5 | target |');
  console.log('|---|---:|---:|---:|---|');
  console.log(`| in-process = HTTP ranking | ${queries.length} | ${f(report.recall, 3)} | ${f(report.ndcg, 3)} | recall@5 ≥ 0.9, nDCG@5 ≥ 0.8 |`);
  return { rows, recall: report.recall, ndcg: report.ndcg, queries: queries.length };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await main();
