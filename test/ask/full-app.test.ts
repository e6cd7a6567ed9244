// /ask inside the real app's middleware stack (request context, rate limit, bearer resolution, origin guard), served
// as an extra route until the route table carries it: public, cross-origin POSTs pass, RateLimit headers are present.
import t from 'tap';
import { request } from 'undici';
import { startTestApp } from '../helpers/app.ts';
import { routeTable } from '../../server/app.ts';
import { askRoutes } from '../../server/routes/ask.ts';
import { corpusIndex } from './server.ts';

const index = await corpusIndex();
const app = await startTestApp(t, {
  extraRoutes: (deps) => (routeTable(deps).some((r) => r.path === '/ask') ? [] : askRoutes(deps, index)),
});

async function post(body: unknown, headers: Record<string, string> = {}) {
  const res = await request(`${app.url}/ask`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
  const text = await res.body.text();
  return { status: res.statusCode, headers: res.headers, json: JSON.parse(text) };
}

t.test('anonymous cross-origin POST /ask answers, with rate-limit headers', async (t) => {
  const res = await post({ query: { text: 'lixeira' }, prefer: { streaming: false } }, { origin: 'https://elsewhere.example' });
  t.equal(res.status, 200);
  t.equal(res.json._meta.response_type, 'Answer');
  t.ok(res.json.results.length > 0);
  t.equal(res.headers['ratelimit-limit'], '120');
  t.equal(res.json._meta.request_id, res.headers['x-request-id']);
});

t.test('a valid Bearer token changes nothing', async (t) => {
  const token = await app.token({ email: 'ask@example.com' });
  const res = await post({ query: { text: 'lixeira' }, prefer: { streaming: false } }, { authorization: `Bearer ${token}` });
  t.equal(res.status, 200);
});

t.test('failures keep the NLWeb body inside the full stack', async (t) => {
  const res = await post({ query: { text: 'x', max_results: 0 } });
  t.equal(res.status, 400);
  t.equal(res.json._meta.response_type, 'Failure');
  t.equal(res.json.error.code, 'INVALID_REQUEST');
});
