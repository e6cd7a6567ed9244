// Where /metrics is served: never publicly by accident. On the main port only with METRICS_TOKEN (a bearer secret,
// compared in constant time), behind the rate limit like every response there (it carries the RateLimit headers);
// on its own listener (METRICS_PORT, loopback by default) for a private scrape network. Never cached; another method
// is 405 with Allow.
import { createServer, type Server } from 'node:http';
import { timingSafeEqual, createHash } from 'node:crypto';
import type Koa from 'koa';
import type { Config } from '../config.ts';
import type { Metrics } from './metrics.ts';
import { metricsUnauthorized, wrongMethod } from '../http/messages.ts';

const CONTENT_TYPE = 'text/plain; version=0.0.4; charset=utf-8';
const ALLOW = 'GET, HEAD';
const digest = (s: string) => createHash('sha256').update(s).digest();

function authorized(header: string | undefined, token: string | undefined): boolean {
  if (!token) return true;
  const given = /^Bearer\s+(\S+)$/i.exec(header ?? '')?.[1] ?? '';
  return timingSafeEqual(digest(given), digest(token));
}

/** Serves GET /metrics on the main app when a token is configured; placed after the rate limit, before token parsing. */
export function metricsRoute(config: Config, metrics: Metrics): Koa.Middleware {
  return async (ctx, next) => {
    if (ctx.path !== '/metrics' || !config.metrics.token) return next();
    ctx.set('Cache-Control', 'no-store');
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') throw wrongMethod(ALLOW, ctx.path);
    if (!authorized(ctx.get('authorization'), config.metrics.token)) {
      throw metricsUnauthorized();
    }
    ctx.set('Content-Type', CONTENT_TYPE);
    ctx.body = await metrics.text();
  };
}

/** The separate metrics listener (METRICS_PORT), or null when none is configured. */
export async function startMetricsServer(config: Config, metrics: Metrics): Promise<Server | null> {
  if (config.metrics.port === undefined) return null;
  const server = createServer(async (req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    res.setHeader('Cache-Control', 'no-store');
    if (path !== '/metrics') {
      res.writeHead(404).end();
      return;
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { Allow: ALLOW }).end();
      return;
    }
    if (!authorized(req.headers.authorization, config.metrics.token)) {
      res.writeHead(401, { 'WWW-Authenticate': 'Bearer realm="metrics"' }).end();
      return;
    }
    try {
      const text = await metrics.text();
      res.writeHead(200, { 'Content-Type': CONTENT_TYPE }).end(req.method === 'HEAD' ? undefined : text);
    } catch {
      res.writeHead(500).end();
    }
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.metrics.port, config.metrics.host, resolve);
  });
  return server;
}
