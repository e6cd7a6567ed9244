// CORS on /ask: open to any origin, never with credentials, on answers and failures alike, plus the OPTIONS preflight.
import t from 'tap';
import { request } from 'undici';
import { ask, startAskServer } from './server.ts';

const srv = await startAskServer();
t.teardown(() => srv.close());

t.test('preflight from any origin → 204 allowing POST and the asked headers, without credentials', async (t) => {
  const res = await request(`${srv.url}/ask`, {
    method: 'OPTIONS',
    headers: { origin: 'https://elsewhere.example', 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type, x-request-id' },
  });
  await res.body.text();
  t.equal(res.statusCode, 204);
  t.equal(res.headers['access-control-allow-origin'], '*');
  t.match(res.headers['access-control-allow-methods'], /POST/);
  t.equal(res.headers['access-control-allow-headers'], 'content-type, x-request-id');
  t.equal(res.headers['access-control-allow-credentials'], undefined);
  t.ok(Number(res.headers['access-control-max-age']) > 0);
});

t.test('answers and failures carry Access-Control-Allow-Origin: *', async (t) => {
  const origin = { origin: 'https://elsewhere.example' };
  const ok = await ask(srv.url, { query: { text: 'lixeira' }, prefer: { streaming: false } }, { headers: origin });
  t.equal(ok.status, 200);
  t.equal(ok.headers['access-control-allow-origin'], '*');
  t.match(ok.headers['access-control-expose-headers'], /x-request-id/);
  t.equal(ok.json._meta.request_id, ok.headers['x-request-id'], 'request_id is the x-request-id');
  const bad = await ask(srv.url, { query: {} }, { headers: origin });
  t.equal(bad.status, 400);
  t.equal(bad.headers['access-control-allow-origin'], '*');
  const sse = await ask(srv.url, { query: { text: 'lixeira' } }, { headers: origin });
  t.equal(sse.headers['access-control-allow-origin'], '*');
});

t.test('GET /ask → 405, still with CORS', async (t) => {
  const res = await request(`${srv.url}/ask`, { method: 'GET' });
  await res.body.text();
  t.equal(res.statusCode, 405);
  t.equal(res.headers['access-control-allow-origin'], '*');
});
