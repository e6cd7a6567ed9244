// Dynamic client registration (RFC 7591) for public clients. Research/auth.md case 27.
import t from 'tap';
import { startTestApp } from '../helpers/app.ts';
import { http } from '../helpers/http.ts';
import { randomClientIp } from '../helpers/oauth.ts';

t.test('dynamic client registration', async (t) => {
  const app = await startTestApp(t, { env: { RATE_LIMIT_MAX: '100000', TRUST_PROXY: 'true' } });
  const register = (json: unknown, ip = randomClientIp()) => http(`${app.url}/oauth/register`, { json, headers: { 'x-forwarded-for': ip } });

  t.test('case 27: a public loopback client without application_type → 201', async (t) => {
    const res = await register({ client_name: 'CLI', redirect_uris: ['http://127.0.0.1:33418/cb'] });
    t.equal(res.status, 201);
    t.match(res.body, {
      client_id: /^cli_/,
      client_name: 'CLI',
      redirect_uris: ['http://127.0.0.1:33418/cb'],
      token_endpoint_auth_method: 'none',
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      application_type: 'native',
    });
    t.equal(res.body.client_secret, undefined, 'no secret');
    t.equal(res.headers['cache-control'], 'no-store');
    const [row] = await app.deps.sql`select redirect_uris from oauth_clients where client_id = ${res.body.client_id}`;
    t.same(row.redirect_uris, ['http://127.0.0.1:33418/cb']);
  });

  t.test('case 27: what MCP clients send is accepted', async (t) => {
    const sdk = await register({
      client_name: 'MCP SDK',
      redirect_uris: ['http://localhost:8090/callback'],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'client_secret_post',
      scope: 'files:read offline_access unknown:scope',
    });
    t.equal(sdk.status, 201);
    t.equal(sdk.body.token_endpoint_auth_method, 'none', 'a secret-based method is replaced by none');
    t.equal(sdk.body.scope, 'files:read offline_access', 'unknown scopes are dropped');
    for (const uri of [
      'http://[::1]:1/cb',
      'https://app.example/oauth/callback',
      'cursor://anysphere.cursor-retrieval/oauth/callback',
      'com.example.app:/oauth2redirect',
      'https://vscode.dev/redirect?x=1',
    ]) {
      t.equal((await register({ redirect_uris: [uri] })).status, 201, uri);
    }
  });

  t.test('case 27: bad redirect URIs → 400 invalid_redirect_uri', async (t) => {
    const bad = [
      'javascript:alert(1)',
      'https://app.example/cb#frag',
      'http://app.example/cb',
      'http://192.168.1.10:8080/cb',
      'data:text/html,hi',
      'file:///etc/passwd',
      'not a uri',
      '/relative/cb',
      'https://user:pw@app.example/cb',
      'http://127.0.0.1.evil.example/cb',
      'vbscript:x',
      '',
    ];
    for (const uri of bad) {
      const res = await register({ redirect_uris: [uri] });
      t.equal(res.status, 400, uri);
      t.equal(res.body.error, 'invalid_redirect_uri', uri);
      t.type(res.body.error_description, 'string');
    }
    const fifty = Array.from({ length: 50 }, (_, i) => `http://127.0.0.1:${1000 + i}/cb`);
    t.equal((await register({ redirect_uris: fifty })).body.error, 'invalid_redirect_uri', '50 URIs');
    t.equal((await register({ redirect_uris: [] })).body.error, 'invalid_redirect_uri', 'none');
    t.equal((await register({ client_name: 'x' })).body.error, 'invalid_redirect_uri', 'missing');
  });

  t.test('case 27: bad metadata → 400 invalid_client_metadata', async (t) => {
    const big = await register({ redirect_uris: ['http://127.0.0.1:1/cb'], client_name: 'x'.repeat(100 * 1024) });
    t.equal(big.status, 400, '100 kB body');
    t.equal(big.body.error, 'invalid_client_metadata');
    const cases: [string, unknown][] = [
      ['implicit grant', { redirect_uris: ['http://127.0.0.1:1/cb'], grant_types: ['implicit'] }],
      ['password grant', { redirect_uris: ['http://127.0.0.1:1/cb'], grant_types: ['authorization_code', 'password'] }],
      ['token response type', { redirect_uris: ['http://127.0.0.1:1/cb'], response_types: ['token'] }],
      ['application_type', { redirect_uris: ['http://127.0.0.1:1/cb'], application_type: 'service' }],
      ['logo_uri', { redirect_uris: ['http://127.0.0.1:1/cb'], logo_uri: 'javascript:alert(1)' }],
      ['array body', [1, 2]],
    ];
    for (const [name, body] of cases) {
      const res = await register(body);
      t.equal(res.status, 400, name);
      t.equal(res.body.error, 'invalid_client_metadata', name);
    }
    const notJson = await http(`${app.url}/oauth/register`, {
      method: 'POST',
      body: 'redirect_uris=x',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-forwarded-for': randomClientIp() },
    });
    t.equal(notJson.body.error, 'invalid_client_metadata', 'not JSON');
  });

  t.test('case 27: the sixth registration in a minute from one IP → 429', async (t) => {
    const ip = randomClientIp();
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await register({ redirect_uris: ['http://127.0.0.1:1/cb'] }, ip)).status);
    t.same(statuses, [201, 201, 201, 201, 201, 429]);
    const last = await register({ redirect_uris: ['http://127.0.0.1:1/cb'] }, ip);
    t.equal(last.status, 429);
    t.ok(Number(last.headers['retry-after']) >= 1);
    t.equal((await register({ redirect_uris: ['http://127.0.0.1:1/cb'] })).status, 201, 'another IP still registers');
  });
});
