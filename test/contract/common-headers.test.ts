// The headers every answer carries, on every path the route table serves and /metrics, for every method: the
// spec's RateLimit-Limit, -Remaining, -Reset and -Policy (section 8: every response), a Cache-Control saying
// whether the answer may be stored, and on a 405 an Allow that lists exactly the methods the path serves (RFC 9110
// 15.5.6). Anonymous and with a token, since a credential changes which middleware answers.
import t from 'tap';
import { request } from 'undici';
import type { AddressInfo } from 'node:net';
import { startTestApp } from '../helpers/app.ts';
import { routeTable } from '../../server/app.ts';
import { startMetricsServer } from '../../server/ops/metrics-endpoint.ts';

const METRICS_TOKEN = 'metrics-secret-0123456789';
const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const;
const RATE_HEADERS = ['ratelimit-limit', 'ratelimit-remaining', 'ratelimit-reset', 'ratelimit-policy'];

const allowed = (header: unknown) =>
  String(header ?? '')
    .split(',')
    .map((m) => m.trim())
    .filter(Boolean)
    .sort();

t.test('common headers on every route', async (t) => {
  const app = await startTestApp(t, { env: { RATE_LIMIT_MAX: '100000', METRICS_TOKEN } });
  const token = await app.token({ email: 'headers@example.com' });
  const served = new Map<string, Set<string>>();
  for (const route of routeTable(app.deps)) {
    const path = route.path.replace(/:(\w+)/g, (_m, name: string) => (name === 'partNumber' ? '1' : 'x'));
    const methods = served.get(path) ?? new Set<string>();
    if (!route.refusal) for (const m of route.method === 'GET' ? ['GET', 'HEAD'] : [route.method]) methods.add(m);
    served.set(path, methods);
  }
  served.set('/metrics', new Set(['GET', 'HEAD']));

  for (const [path, methods] of served) {
    for (const method of METHODS) {
      for (const credential of [null, path === '/metrics' ? METRICS_TOKEN : token]) {
        const what = `${method} ${path}${credential ? ' with a credential' : ''}`;
        const res = await request(`${app.url}${path}`, { method, headers: credential ? { authorization: `Bearer ${credential}` } : {} });
        await res.body.dump();
        for (const name of RATE_HEADERS) t.ok(res.headers[name], `${what} (${res.statusCode}): ${name}`);
        t.ok(res.headers['cache-control'], `${what} (${res.statusCode}): Cache-Control`);
        if (methods.has(method)) {
          t.not(res.statusCode, 405, `${what}: served`);
        } else if (method !== 'OPTIONS') {
          t.equal(res.statusCode, 405, `${what}: not served`);
          t.same(allowed(res.headers.allow), [...methods].sort(), `${what}: Allow lists what the path serves`);
        }
      }
    }
  }

  t.test("/metrics's own listener: never cached, 405 with Allow", async (t) => {
    const server = await startMetricsServer({ ...app.config, metrics: { ...app.config.metrics, port: 0, host: '127.0.0.1' } }, app.deps.ops!.metrics);
    t.teardown(() => new Promise<void>((resolve) => server!.close(() => resolve())));
    const url = `http://127.0.0.1:${(server!.address() as AddressInfo).port}/metrics`;
    const ok = await request(url, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
    t.equal(ok.statusCode, 200);
    t.equal(ok.headers['cache-control'], 'no-store');
    t.match(await ok.body.text(), /siglata_/);
    const head = await request(url, { method: 'HEAD', headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
    t.equal(head.statusCode, 200);
    await head.body.dump();
    const post = await request(url, { method: 'POST' });
    await post.body.dump();
    t.equal(post.statusCode, 405);
    t.equal(post.headers.allow, 'GET, HEAD');
    t.equal(post.headers['cache-control'], 'no-store');
  });
});
