// A refusal's resolution tells the caller how to fix it with the credential it used: an API key is told to create a
// key, an OAuth access token to get a new token from the authorization server, a request without a credential
// that either will do. Never an API key user told to "obtain a new access token", in either language.
import t from 'tap';
import { startTestApp } from '../helpers/app.ts';
import { http } from '../helpers/http.ts';

const KEY_FIX = /create (a new API key|a key that does)/i;
const TOKEN_FIX = /(get|request) a new access token|request a token with scope/i;

t.test('resolutions fit the credential', async (t) => {
  const app = await startTestApp(t, { manualClock: true, env: { RATE_LIMIT_MAX: '100000' } });
  // Minted per use: a step moves the clock past a token's hour.
  const ownerToken = () => app.token({ email: 'owner@fit.example', org: 'fit-org' });
  const rpc = (script: string) => ({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'execute', arguments: { script } } });
  const mcp = (token: string, script: string, locale = 'en-US') =>
    http(`${app.url}/v1/mcp`, { token, json: rpc(script), headers: { 'x-service-locale': locale } });
  const app1 = (token: string, script: string, locale = 'en-US') =>
    http(`${app.url}/app/v1/execute`, { token, json: { script }, headers: { 'x-service-locale': locale } });
  const createKey = async (scopes: string[], by?: string) => {
    const res = await mcp(by ?? (await ownerToken()), `return await api_keys_create(${JSON.stringify({ name: `k-${scopes.join('-')}`, scopes })});`);
    t.equal(res.body.result?.structuredContent?.ok, true, JSON.stringify(res.body));
    return res.body.result.structuredContent.result as { id: string; key: string };
  };
  const readKey = await createKey(['files:read', 'org:read']);

  t.test('401: a refused API key is told to create a key; a refused access token to get a token', async (t) => {
    const revoked = await createKey(['files:read']);
    t.equal((await mcp(await ownerToken(), `return await api_keys_revoke({ keyId: ${JSON.stringify(revoked.id)} });`)).status, 200);
    for (const [locale, fix, wrong] of [
      ['en-US', /Create a new API key/, /access token|authorization server/i],
      ['pt-BR', /Crie uma nova chave de API/, /token de acesso|servidor de autorização/i],
    ] as const) {
      const res = await http(`${app.url}/app/v1/context`, { token: revoked.key, headers: { 'x-service-locale': locale } });
      t.equal(res.status, 401);
      t.match(res.body.error.resolution, fix, `${locale}: ${res.body.error.resolution}`);
      t.notMatch(res.body.error.resolution, wrong, `${locale}: nothing about access tokens`);
    }
    const expired = await app.token({ email: 'owner@fit.example', org: 'fit-org' });
    app.clock.advance!(2 * 3600_000);
    for (const [locale, fix] of [
      ['en-US', /Get a new access token from the authorization server/],
      ['pt-BR', /Obtenha um novo token de acesso pelo servidor de autorização/],
    ] as const) {
      const res = await http(`${app.url}/app/v1/context`, { token: expired, headers: { 'x-service-locale': locale } });
      t.equal(res.status, 401);
      t.match(res.body.error.resolution, fix, `${locale}: ${res.body.error.resolution}`);
      t.notMatch(res.body.error.resolution, /API key|chave de API/, `${locale}: nothing about API keys`);
    }
    const none = await http(`${app.url}/app/v1/context`);
    t.match(none.body.error.resolution, /access token .* or an organization API key/, 'no credential: either kind');
  });

  t.test('403 INSUFFICIENT_SCOPE: a key lacking a scope is told to create one that holds it', async (t) => {
    const fresh = await app.token({ email: 'owner@fit.example', org: 'fit-org', scopes: ['files:read', 'org:read'] });
    const write = 'await files_write_text({ name: "x.txt", text: "x" });';
    for (const [face, send] of [
      ['/app/v1/execute', app1],
      ['MCP', mcp],
    ] as const) {
      const byKey = await send(readKey.key, write);
      t.equal(byKey.status, 403, `${face}, API key`);
      t.match(byKey.body.error.resolution, KEY_FIX, `${face}, API key: ${byKey.body.error.resolution}`);
      t.notMatch(byKey.body.error.resolution, TOKEN_FIX, `${face}, API key: not told to get a token`);
      const pt = await send(readKey.key, write, 'pt-BR');
      t.match(pt.body.error.resolution, /crie uma chave que o tenha/, `${face}, API key, pt-BR`);
      const byToken = await send(fresh, write);
      t.equal(byToken.status, 403, `${face}, access token`);
      t.match(byToken.body.error.resolution, TOKEN_FIX, `${face}, access token: ${byToken.body.error.resolution}`);
      t.notMatch(byToken.body.error.resolution, KEY_FIX, `${face}, access token: not told to create a key`);
    }
    // The admin scope, checked by the organization routes.
    const orgId = (await mcp(await ownerToken(), 'return (await context()).organization.id;')).body.result.structuredContent.result;
    const invite = await http(`${app.url}/auth/organization/invite-member`, {
      token: readKey.key,
      json: { email: 'x@fit.example', role: 'member', organizationId: orgId },
    });
    t.equal(invite.status, 403);
    t.equal(invite.body.error.code, 'INSUFFICIENT_SCOPE');
    t.match(invite.body.error.resolution, /org:admin.*create a key that does/s, invite.body.error.resolution);
  });

  t.test("a key whose creator left the organization, or whose organization's access is revoked", async (t) => {
    const admin = await app.token({ email: 'leaver@fit.example', org: 'fit-org', role: 'admin' });
    const key = await createKey(['files:read'], admin);
    const [user] = await app.deps.sql`select id from users where email = 'leaver@fit.example'`;
    await app.deps.sql`delete from members where user_id = ${user.id}`;
    const left = await http(`${app.url}/app/v1/context`, { token: key.key });
    t.equal(left.status, 403);
    t.equal(left.body.error.code, 'ORGANIZATION_MEMBERSHIP_REQUIRED');
    t.match(left.body.error.resolution, /person who created this API key .* can create a new one/);
    t.notMatch(left.body.error.resolution, /sign in again/);
    const [org] = await app.deps.sql`select id from organizations where slug = 'fit-org'`;
    await app.deps.sql`update org_mcp_access set state = 'revoked' where org_id = ${org.id}`;
    const revoked = await http(`${app.url}/app/v1/context`, { token: readKey.key });
    t.equal(revoked.body.error.code, 'MCP_ACCESS_REVOKED');
    t.match(revoked.body.error.resolution, /API keys and access tokens; a new one would be refused too/);
    await app.deps.sql`update org_mcp_access set state = 'testing' where org_id = ${org.id}`;
  });
});
