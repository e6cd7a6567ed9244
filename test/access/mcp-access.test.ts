// Owners and admins manage the organization's MCP access (state and maxScopes) through mcp_access_get/set: over
// REST with a session, inside scripts, never with an access token for set; every change is recorded, and takes
// effect at once for the organization's live tokens on every face.
import t from 'tap';
import { http } from '../helpers/http.ts';
import { contract } from '../helpers/openapi-contract.ts';
import { world } from '../identity/org-helpers.ts';
import { oauthFlow } from '../helpers/oauth.ts';

const rpc = (script: string) => ({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'execute', arguments: { script } } });

t.test('MCP access management', async (t) => {
  const w = await world(t);
  const { app } = w;
  const c = contract((await http(`${app.url}/openapi.json`)).body);
  const owner = await w.user('boss@example.com');
  const org = await w.org(owner, 'gate');
  const token = await app.token({ email: 'boss@example.com', org: 'gate' });
  const { jar: member } = await w.join(owner, org.id, 'mia@example.com', 'member');
  const { jar: admin } = await w.join(owner, org.id, 'adam@example.com', 'admin');
  const mcp = (script: string, tok = token) => http(`${app.url}/v1/mcp`, { json: rpc(script), token: tok });

  t.test('a fresh organization reads testing with every scope and no changes', async (t) => {
    const res = await owner.get('/auth/organization/mcp-access');
    t.equal(res.status, 200);
    t.match(res.body, { organizationId: org.id, state: 'testing', maxScopes: ['files:read', 'files:write', 'org:read', 'org:admin'], changes: [] });
    t.match(res.headers['cache-control'], /no-store/);
    c.check(t, 'get', '/auth/organization/mcp-access', res);
  });

  t.test("revoking refuses the organization's tokens at once on every face; restoring re-admits them", async (t) => {
    const issued = (await oauthFlow(app, { cookie: owner.cookie, organizationId: org.id })).tokens.access_token as string;
    t.equal((await mcp('return 1;')).status, 200, 'before: the token works');
    t.equal((await mcp('return 1;', issued)).status, 200, 'before: the token our OAuth server issued works');
    const set = await owner.post('/auth/organization/set-mcp-access', { state: 'revoked' });
    t.equal(set.status, 200);
    t.match(set.body, { organizationId: org.id, state: 'revoked' });
    c.check(t, 'post', '/auth/organization/set-mcp-access', set);
    for (const res of [
      await mcp('return 1;'),
      await mcp('return 1;', issued),
      await http(`${app.url}/app/v1/execute`, { json: { script: 'await files_write_text({ name: "x.txt", text: "x" }); return 1;' }, token: issued }),
      await http(`${app.url}/v1/mcp/files/fil_x/download`, { token: issued }),
      await http(`${app.url}/app/v1/execute`, { json: { script: 'await files_write_text({ name: "x.txt", text: "x" }); return 1;' }, token }),
      await http(`${app.url}/app/v1/context`, { token }),
      await http(`${app.url}/auth/organization/get`, { token }),
    ]) {
      t.equal(res.status, 403);
      t.equal(res.body.error.code, 'MCP_ACCESS_REVOKED');
    }
    t.equal((await app.deps.sql`select count(*)::int as n from files where name = 'x.txt'`)[0].n, 0, 'nothing was written');
    t.equal((await owner.get('/app/v1/context')).status, 200, "the owner's session is not an access token: it still works");
    t.equal((await owner.post('/auth/organization/set-mcp-access', { state: 'active' })).status, 200);
    t.equal((await mcp('return 1;')).status, 200, 'restored');
  });

  t.test('lowering maxScopes narrows live tokens at once; the change trail says who, from and to', async (t) => {
    const set = await owner.post('/auth/organization/set-mcp-access', { maxScopes: ['files:read', 'org:read'] });
    t.same(set.body.maxScopes, ['files:read', 'org:read']);
    t.same((await http(`${app.url}/app/v1/context`, { token })).body.scopes, ['files:read', 'org:read']);
    const denied = await mcp('await files_write_text({ name: "y.txt", text: "y" }); return 1;');
    t.equal(denied.status, 403);
    t.equal(denied.body.error.code, 'INSUFFICIENT_SCOPE');
    await owner.post('/auth/organization/set-mcp-access', { state: 'active', maxScopes: ['files:read', 'files:write', 'org:read', 'org:admin'] });
    const got = await owner.get('/auth/organization/mcp-access');
    const [session] = await app.deps.sql`select id from users where email = 'boss@example.com'`;
    t.same(
      got.body.changes.map((ch: any) => [ch.fromState, ch.toState, ch.toMaxScopes.length]),
      [
        ['active', 'active', 4],
        ['active', 'active', 2],
        ['revoked', 'active', 4],
        ['testing', 'revoked', 4],
      ],
      'newest first, each with what it changed from',
    );
    t.ok(
      got.body.changes.every((ch: any) => ch.userId === session.id),
      'each change names its author',
    );
  });

  t.test('an access token may read the state but never change it, not even with org:admin, on any face', async (t) => {
    const read = await http(`${app.url}/auth/organization/mcp-access`, { token });
    t.equal(read.status, 200);
    const rest = await http(`${app.url}/auth/organization/set-mcp-access`, { json: { maxScopes: ['files:read'] }, token });
    t.equal(rest.status, 403);
    t.equal(rest.body.error.code, 'INSUFFICIENT_SCOPE');
    t.match(rest.body.error.resolution, /signed-in session/);
    const script = await mcp('return await mcp_access_set({ state: "active" });');
    t.equal(script.status, 403);
    t.equal(script.body.error.code, 'INSUFFICIENT_SCOPE');
    const app1 = await http(`${app.url}/app/v1/execute`, { json: { script: 'return await mcp_access_set({ maxScopes: [] });' }, token });
    t.equal(app1.status, 403);
    t.equal((await owner.get('/auth/organization/mcp-access')).body.changes.length, 4, 'no change was recorded');
  });

  t.test('members are refused; admins may manage it, also from a script run by their session', async (t) => {
    for (const res of [await member.get('/auth/organization/mcp-access'), await member.post('/auth/organization/set-mcp-access', { state: 'revoked' })]) {
      t.equal(res.status, 403);
      t.equal(res.body.error.code, 'ORGANIZATION_ADMIN_REQUIRED');
    }
    const viaScript = await admin.post('/app/v1/execute', {
      script: 'await mcp_access_set({ state: "active" }); return (await mcp_access_get({})).changes[0];',
    });
    t.equal(viaScript.status, 200);
    t.equal(viaScript.body.ok, true, JSON.stringify(viaScript.body.error));
    const [adam] = await app.deps.sql`select id from users where email = 'adam@example.com'`;
    t.equal(viaScript.body.result.userId, adam.id);
  });

  t.test("organization routes take the Bearer token; a token sees other organizations only as its person's, with org:read", async (t) => {
    const second = await app.token({ email: 'boss@example.com', org: 'gate-two' });
    const viaToken = await http(`${app.url}/auth/organization/list`, { token: second });
    t.equal(viaToken.status, 200);
    t.same(viaToken.body.map((o: { slug: string }) => o.slug).sort(), ['gate', 'gate-two'], "a person's token holding org:read lists their organizations");
    t.match(viaToken.headers['cache-control'], /no-store/);
    const narrow = await app.token({ email: 'boss@example.com', org: 'gate-two', scopes: ['files:read'] });
    const viaNarrow = await http(`${app.url}/auth/organization/list`, { token: narrow });
    t.same(
      viaNarrow.body.map((o: { slug: string }) => o.slug),
      ['gate-two'],
      'a token without org:read lists only its own organization',
    );
    const viaSession = await owner.get('/auth/organization/list');
    t.same(viaSession.body.map((o: { slug: string }) => o.slug).sort(), ['gate', 'gate-two'], 'the session sees every organization of its user');
    const create = await http(`${app.url}/auth/organization/create`, { json: { name: 'Nope', slug: 'nope' }, token: narrow });
    t.equal(create.status, 403, 'creating an organization without org:read: 403, not a contradictory 401');
    t.equal(create.body.error.code, 'INSUFFICIENT_SCOPE');
    t.match(create.body.error.resolution, /org:read/);
  });

  t.test("a new organization's first requests arriving together all succeed (its access record is made once)", async (t) => {
    // The first check creates the record; before, a check racing it read nothing and the request got a 500.
    for (const name of ['rush-1', 'rush-2', 'rush-3', 'rush-4']) {
      const fresh = await app.token({ email: `${name}@example.com` });
      const burst = await Promise.all(
        Array.from({ length: 12 }, (_, i) =>
          i % 2 ? http(`${app.url}/app/v1/context`, { token: fresh }) : http(`${app.url}/v1/mcp`, { json: rpc('return 1;'), token: fresh }),
        ),
      );
      t.same(
        burst.map((r) => r.status).filter((s) => s !== 200),
        [],
        `${name}: all 12 answered 200`,
      );
    }
    const res = await http(`${app.url}/app/v1/context`, { token: await app.token({ email: 'rush-1@example.com' }) });
    t.equal(res.status, 200);
  });

  t.test('bad input is 400 invalid_input, localized', async (t) => {
    for (const body of [{}, { state: 'paused' }, { maxScopes: ['files:read', 'files:read'] }, { maxScopes: ['root'] }, { state: 'active', extra: 1 }]) {
      const res = await owner.post('/auth/organization/set-mcp-access', body);
      t.equal(res.status, 400, JSON.stringify(body));
      t.equal(res.body.error.code, 'invalid_input');
    }
    const pt = await owner.post('/auth/organization/set-mcp-access', { state: 'paused' }, { 'x-service-locale': 'pt-BR' });
    t.equal(pt.status, 400);
    t.match(pt.body.error.message, /validação/);
    const none = await owner.post('/auth/organization/set-mcp-access', {}, { 'x-service-locale': 'pt-BR' });
    t.equal(none.body.error.resolution, 'Informe `state`, `maxScopes` ou ambos.');
  });
});
