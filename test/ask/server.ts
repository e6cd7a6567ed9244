// A bare Koa app serving only /ask (request context, error handler, askCors, the ask routes) on 127.0.0.1:0, so the
// /ask tests need no database. `setIndex` swaps the corpus at run time (null or empty → 503).
import Koa from 'koa';
import Router from '@koa/router';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { createLogger } from '../../server/logger.ts';
import { requestContext } from '../../server/middleware/request-context.ts';
import { errorHandler } from '../../server/middleware/error-handler.ts';
import { askCors, askRoutes } from '../../server/routes/ask.ts';
import { methodNotAllowed } from '../../server/middleware/method-not-allowed.ts';
import { loadAskIndex } from '../../server/ask/load.ts';
import type { AskIndex } from '../../server/ask/index.ts';

export interface AskServer {
  url: string;
  port: number;
  index: AskIndex;
  setIndex(index: AskIndex | null): void;
  close(): Promise<void>;
}

let shared: Promise<AskIndex> | undefined;
/** The real corpus, loaded once per test process. */
export function corpusIndex(): Promise<AskIndex> {
  shared ??= loadAskIndex().then((index) => {
    if (!index) throw new Error('fixtures/site did not load');
    return index;
  });
  return shared;
}

export function askApp(current: () => AskIndex | null): Koa {
  const logger = createLogger('silent');
  const app = new Koa();
  app.silent = true;
  const router = new Router();
  const routes = askRoutes({ logger }, current);
  for (const route of routes) {
    router.register(route.path, [route.method], Array.isArray(route.handle) ? route.handle : [route.handle], { name: route.operationId });
  }
  app.use(requestContext(logger));
  app.use(errorHandler(logger));
  app.use(askCors());
  app.use(router.routes());
  app.use(methodNotAllowed(routes));
  return app;
}

export async function startAskServer(index?: AskIndex | null): Promise<AskServer> {
  const loaded = await corpusIndex();
  let current: AskIndex | null = index === undefined ? loaded : index;
  const server: Server = askApp(() => current).listen(0, '127.0.0.1');
  await new Promise<void>((resolve) => server.once('listening', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    index: loaded,
    setIndex(next) {
      current = next;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** POST /ask with a JSON (or raw) body; returns status, headers, raw text and parsed JSON when it is JSON. */
export async function ask(base: string, body: unknown, options: { headers?: Record<string, string>; raw?: string | Buffer } = {}) {
  const { request } = await import('undici');
  const res = await request(`${base}/ask`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...options.headers },
    body: options.raw ?? JSON.stringify(body),
  });
  const text = await res.body.text();
  let json: any;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: res.statusCode, headers: res.headers, text, json };
}

/** The JSON object of the single `data:` event of an SSE body (throws unless there is exactly one). */
export function sseData(text: string): any {
  const lines = text.split('\n').filter((l) => l.startsWith('data:'));
  if (lines.length !== 1) throw new Error(`expected one data line, got ${lines.length}`);
  return JSON.parse(lines[0].slice(5).trim());
}
