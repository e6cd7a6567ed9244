import t from 'tap';
import { startTestApp } from '../helpers/app.ts';
import { http } from '../helpers/http.ts';

t.test('GET /api', async (t) => {
  const app = await startTestApp(t);

  t.test('anonymous health in the default locale', async (t) => {
    const res = await http(`${app.url}/api`);
    t.equal(res.status, 200);
    t.same(res.body, { service: 'siglata', status: 'ok', locale: 'en-US', user: null });
    t.match(res.headers['x-request-id'], /^[0-9a-f-]{36}$/);
  });

  t.test('locale from x-service-locale', async (t) => {
    t.equal((await http(`${app.url}/api`, { headers: { 'x-service-locale': 'pt-BR' } })).body.locale, 'pt-BR');
    t.equal((await http(`${app.url}/api`, { headers: { 'x-service-locale': 'fr-FR' } })).body.locale, 'en-US');
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

  t.test('a wrong method is 405', async (t) => {
    const res = await http(`${app.url}/api`, { method: 'DELETE' });
    t.equal(res.status, 405);
    t.equal(res.body.error.code, 'method_not_allowed');
  });
});
