import t from 'tap';
import { startTestApp } from '../helpers/app.ts';
import { http } from '../helpers/http.ts';
import { memoryRateLimitStore } from '../../server/middleware/rate-limit.ts';
import { manualClock } from '../../runtime-api/clock.ts';

const burst = (n: number, f: () => Promise<{ status: number }>) => Promise.all(Array.from({ length: n }, f));

t.test('120 requests per 60 s per client IP, with headers on every response', async (t) => {
  const app = await startTestApp(t, { manualClock: true });
  const first = await http(`${app.url}/api`);
  t.equal(first.headers['ratelimit-limit'], '120');
  t.equal(first.headers['ratelimit-remaining'], '119');
  t.equal(first.headers['ratelimit-reset'], '60', '60 at window start');
  t.equal(first.headers['ratelimit-policy'], '120;w=60');
  app.clock.advance!(15_000);
  const notFound = await http(`${app.url}/nowhere`);
  t.equal(notFound.status, 404);
  t.equal(notFound.headers['ratelimit-remaining'], '118', 'errors count and carry the headers');
  t.equal(notFound.headers['ratelimit-reset'], '45');
  const statuses = (await burst(118, () => http(`${app.url}/api`))).map((r) => r.status);
  t.ok(
    statuses.every((s) => s === 200),
    '120 requests in all succeed',
  );
  const over = await http(`${app.url}/api`, { headers: { 'x-service-locale': 'pt-BR' } });
  t.equal(over.status, 429);
  t.equal(over.body.error.code, 'rate_limited');
  t.equal(over.body.error.message, 'Requisições demais.');
  t.equal(over.headers['retry-after'], '45');
  t.equal(over.headers['ratelimit-remaining'], '0');
  app.clock.advance!(45_000);
  const after = await http(`${app.url}/api`);
  t.equal(after.status, 200, 'a new window starts');
  t.equal(after.headers['ratelimit-remaining'], '119');
});

t.test('a bearer token has its own bucket; X-Forwarded-For counts only behind a trusted proxy', async (t) => {
  const app = await startTestApp(t);
  await burst(120, () => http(`${app.url}/api`));
  t.equal((await http(`${app.url}/api`)).status, 429, 'the IP is exhausted');
  const token = await app.token({ email: 'rl@example.com' });
  const withToken = await http(`${app.url}/api`, { token });
  t.equal(withToken.status, 200, 'the token is counted on its own');
  t.equal(withToken.headers['ratelimit-remaining'], '119');
  t.equal((await http(`${app.url}/api`, { headers: { 'x-forwarded-for': '203.0.113.9' } })).status, 429, 'XFF ignored by default');

  const proxied = await startTestApp(t, { env: { TRUST_PROXY: 'true' } });
  await burst(120, () => http(`${proxied.url}/api`, { headers: { 'x-forwarded-for': '203.0.113.1' } }));
  t.equal((await http(`${proxied.url}/api`, { headers: { 'x-forwarded-for': '203.0.113.1' } })).status, 429);
  t.equal((await http(`${proxied.url}/api`, { headers: { 'x-forwarded-for': '203.0.113.2' } })).status, 200, 'another client behind the proxy');
});

t.test('the postgres store shares the limit between two instances on one database', async (t) => {
  const env = { RATE_LIMIT_STORE: 'postgres' } as const;
  const a = await startTestApp(t, { env });
  const b = await startTestApp(t, { env, sharedWith: a });
  await burst(60, () => http(`${a.url}/api`));
  await burst(60, () => http(`${b.url}/api`));
  const onA = await http(`${a.url}/api`);
  const onB = await http(`${b.url}/api`);
  t.equal(onA.status, 429);
  t.equal(onB.status, 429);
  t.equal(onB.headers['ratelimit-remaining'], '0');
  t.ok(Number(onB.headers['retry-after']) >= 1);
});

t.test('the memory store stays bounded under many distinct clients', async (t) => {
  const clock = manualClock();
  const store = memoryRateLimitStore(clock, 1000);
  for (let i = 0; i < 100_000; i++) await store.hit(`ip:k${i}`, 60_000);
  t.equal(store.size(), 1000, 'at most maxKeys windows are kept');
  t.same(await store.hit('ip:k99999', 60_000), { count: 2, resetAt: clock.now().getTime() + 60_000 }, 'recent keys are kept');
});

t.test('preflights and CORS refusals carry the headers too', async (t) => {
  const app = await startTestApp(t);
  const pre = await http(`${app.url}/ask`, { method: 'OPTIONS', headers: { origin: 'https://anywhere.example', 'access-control-request-method': 'POST' } });
  t.equal(pre.headers['ratelimit-policy'], '120;w=60');
  // Any web page may call the token endpoint; an opaque origin is refused.
  const refused = await http(`${app.url}/oauth/token`, {
    method: 'POST',
    body: 'grant_type=x',
    headers: { origin: 'null', 'content-type': 'application/x-www-form-urlencoded' },
  });
  t.equal(refused.status, 403);
  t.equal(refused.headers['ratelimit-limit'], '120');
});
