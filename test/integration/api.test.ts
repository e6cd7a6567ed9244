import t from 'tap';
import { routeTable } from '../../server/app.ts';
import { startTestApp } from '../helpers/app.ts';
import { http } from '../helpers/http.ts';

t.test('GET /api', async (t) => {
  const app = await startTestApp(t);

  t.test('anonymous health in the default locale', async (t) => {
    const res = await http(`${app.url}/api`);
    t.equal(res.status, 200);
    t.same(res.body, { service: 'siglata', status: 'ok', components: { ask: 'ready' }, locale: 'en-US', user: null });
    t.match(res.headers['x-request-id'], /^[0-9a-f-]{36}$/);
  });

  t.test('locale from x-service-locale', async (t) => {
    t.equal((await http(`${app.url}/api`, { headers: { 'x-service-locale': 'pt-BR' } })).body.locale, 'pt-BR');
    t.equal((await http(`${app.url}/api`, { headers: { 'x-service-locale': 'fr-FR' } })).body.locale, 'en-US');
  });

  t.test('without x-service-locale, the locale is the best of Accept-Language by its q-values', async (t) => {
    for (const [accept, locale] of [
      ['pt-BR', 'pt-BR'],
      ['pt-PT,pt;q=0.9', 'pt-BR'],
      ['fr-FR, pt;q=0.8, en;q=0.5', 'pt-BR'],
      ['en-GB,en;q=0.9,pt-BR;q=0.8', 'en-US'],
      ['pt;q=0.1, en', 'en-US'],
      ['de, fr', 'en-US'],
      ['*', 'en-US'],
    ]) {
      const res = await http(`${app.url}/api`, { headers: { 'accept-language': accept } });
      t.equal(res.body.locale, locale, accept);
      t.equal(res.headers['cache-control'], 'no-store', 'an answer that depends on the request is never stored');
    }
    const both = await http(`${app.url}/api`, { headers: { 'accept-language': 'pt-BR', 'x-service-locale': 'en-US' } });
    t.equal(both.body.locale, 'en-US', 'x-service-locale wins');
    const refused = await http(`${app.url}/no/such/route`, { headers: { 'accept-language': 'pt-BR,pt;q=0.9' } });
    t.equal(refused.body.message, 'Não encontrado.', 'error messages follow it too');
  });

  t.test('the user for a valid Bearer token', async (t) => {
    const token = await app.token({ email: 'ana@example.com' });
    const res = await http(`${app.url}/api`, { token });
    t.equal(res.status, 200);
    t.match(res.body.user, { email: 'ana@example.com', name: 'ana', image: null });
    t.match(res.body.user.id, /^usr_/);
  });

  t.test('an invalid token is 401 in the resolution shape with a Bearer challenge', async (t) => {
    const res = await http(`${app.url}/api`, { token: 'not.a.jwt' });
    t.equal(res.status, 401);
    t.equal(res.body.error.code, 'unauthorized');
    t.type(res.body.error.resolution, 'string');
    t.match(res.headers['www-authenticate'], /^Bearer resource_metadata="http:\/\/127\.0\.0\.1:\d+\/\.well-known\/oauth-protected-resource\/v1\/mcp"/);
  });

  t.test('unknown routes are 404 in the typed shape, localized', async (t) => {
    const res = await http(`${app.url}/no/such/route`, { headers: { 'x-service-locale': 'pt-BR' } });
    t.equal(res.status, 404);
    t.same(Object.keys(res.body).sort(), ['code', 'message']);
    t.equal(res.body.code, 'not_found');
    t.equal(res.body.message, 'Não encontrado.');
  });

  t.test('a wrong method is 405 with Allow derived from the route table, on every path', async (t) => {
    const res = await http(`${app.url}/api`, { method: 'DELETE' });
    t.equal(res.status, 405);
    t.equal(res.body.error.code, 'method_not_allowed');
    t.equal(res.headers.allow, 'GET, HEAD');
    const patch = await http(`${app.url}/api`, { method: 'PATCH' });
    t.equal(patch.status, 405, 'a method the router does not implement is 405 too, never 500');
    t.equal(patch.headers.allow, 'GET, HEAD');
    // Every path of the table with a method it does not serve.
    const byPath = new Map<string, Set<string>>();
    for (const r of routeTable(app.deps)) {
      if (r.refusal) continue;
      const set = byPath.get(r.path) ?? new Set<string>();
      for (const m of r.method === 'GET' ? ['GET', 'HEAD'] : [r.method]) set.add(m);
      byPath.set(r.path, set);
    }
    for (const [path, methods] of byPath) {
      const wrong = ['PUT', 'DELETE', 'POST', 'GET'].find((m) => !methods.has(m))!;
      const url = `${app.url}${path.replace(/:(\w+)/g, 'x1')}`;
      const r = await http(url, { method: wrong });
      t.equal(r.status, 405, `${wrong} ${path}`);
      t.same(String(r.headers.allow).split(', ').sort(), [...methods].sort(), `Allow on ${path}`);
    }
    const mcpPut = await http(`${app.url}/v1/mcp`, { method: 'PUT' });
    t.equal(mcpPut.headers.allow, 'POST', 'documented refusals are not allowed methods');
  });

  t.test("GET /ask answers 405 in /ask's own failure shape", async (t) => {
    const res = await http(`${app.url}/ask`, { method: 'GET' });
    t.equal(res.status, 405);
    t.equal(res.headers.allow, 'POST');
    t.equal(res.headers['access-control-allow-origin'], '*');
    t.match(res.body, { _meta: { response_type: 'Failure', version: '0.54' }, error: { code: 'METHOD_NOT_ALLOWED', message: /POST/ }, results: [] });
  });
});

t.test('/ask without its corpus: GET /api and POST /ask tell the same real state', async (t) => {
  const app = await startTestApp(t, { askCorpusDir: '/nonexistent/siglata-site' });
  const health = await http(`${app.url}/api`);
  t.equal(health.status, 200);
  t.match(health.body, { status: 'degraded', components: { ask: 'unavailable' } });
  const ask = await http(`${app.url}/ask`, { json: { query: { text: 'lixeira' }, prefer: { streaming: false } } });
  t.equal(ask.status, 503);
  t.equal(ask.body.error.code, 'CORPUS_UNAVAILABLE');
  t.equal(ask.headers['retry-after'], undefined, 'no "retry shortly" for a corpus that will not load by itself');
  t.match(ask.body.error.message, /not loaded on this server/);
  t.notMatch(ask.body.error.message, /retry shortly/);
});
