// Where /metrics is served: never publicly by accident. On the main port only with METRICS_TOKEN (a bearer secret,
// compared in constant time); on its own listener (METRICS_PORT, loopback by default) for a private scrape network.
import { createServer, type Server } from 'node:http';
import { timingSafeEqual, createHash } from 'node:crypto';
import type Koa from 'koa';
import type { Config } from '../config.ts';
import type { Metrics } from './metrics.ts';
import { ServiceError } from '../../runtime-api/index.ts';
import { metricsUnauthorized } from '../http/messages.ts';

const CONTENT_TYPE = 'text/plain; version=0.0.4; charset=utf-8';
const digest = (s: string) => createHash('sha256').update(s).digest();

function authorized(header: string | undefined, token: string | undefined): boolean {
  if (!token) return true;
  const given = /^Bearer\s+(\S+)$/i.exec(header ?? '')?.[1] ?? '';
  return timingSafeEqual(digest(given), digest(token));
}

/** Serves GET /metrics on the main app when a token is configured; placed before the rate limit and token parsing. */
export function metricsRoute(config: Config, metrics: Metrics): Koa.Middleware {
  return async (ctx, next) => {
    if (ctx.path !== '/metrics' || !config.metrics.token) return next();
    if (ctx.method !== 'GET') throw new ServiceError('method_not_allowed');
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
    if (req.method !== 'GET' || path !== '/metrics') {
      res.writeHead(404).end();
      return;
    }
    if (!authorized(req.headers.authorization, config.metrics.token)) {
      res.writeHead(401, { 'WWW-Authenticate': 'Bearer realm="metrics"' }).end();
      return;
    }
    try {
      const text = await metrics.text();
      res.writeHead(200, { 'Content-Type': CONTENT_TYPE }).end(text);
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
