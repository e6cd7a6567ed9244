// Refresh tokens: rotation with reuse detection, scope narrowing, revocation (RFC 7009), and the grant's
// dependence on membership and on the organization's MCP access. Research/auth.md cases 37, 38, 39 and the refresh
// part of 41.
import t from 'tap';
import { startTestApp } from '../helpers/app.ts';
import { http } from '../helpers/http.ts';
import { createOrganization, oauthFlow, refreshGrant, revokeRequest, signInCookie } from '../helpers/oauth.ts';

t.test('refresh and revocation', async (t) => {
  const app = await startTestApp(t, { env: { RATE_LIMIT_MAX: '100000', TRUST_PROXY: 'true' } });
  const base = app.url;
  const cookie = await signInCookie(app, 'rita@example.com');
  const orgId = await createOrganization(app, cookie, 'rita-org');

  t.test('case 37: a new refresh token each time; reusing an old one revokes the family', async (t) => {
    const flow = await oauthFlow(app, { cookie });
    const clientId = flow.client.client_id;
    const rt0 = flow.tokens.refresh_token!;
    const r1 = await refreshGrant(app, { clientId, refreshToken: rt0 });
    t.equal(r1.status, 200);
    t.ok(r1.body.refresh_token && r1.body.refresh_token !== rt0, 'rotated');
    t.not(r1.body.access_token, flow.tokens.access_token);
    const r2 = await refreshGrant(app, { clientId, refreshToken: r1.body.refresh_token });
    t.equal(r2.status, 200);
    const newest = r2.body.refresh_token;
    t.equal((await http(`${base}/api`, { token: r2.body.access_token })).status, 200);

    const reuse = await refreshGrant(app, { clientId, refreshToken: rt0 });
    t.equal(reuse.status, 400);
    t.equal(reuse.body.error, 'invalid_grant', 'reuse of a rotated token');
    t.equal((await refreshGrant(app, { clientId, refreshToken: newest })).body.error, 'invalid_grant', 'the newest refresh token is dead too');
    t.equal((await http(`${base}/api`, { token: r2.body.access_token })).status, 401, 'and so are the access tokens');

    const other = await oauthFlow(app, { cookie });
    t.equal(
      (await refreshGrant(app, { clientId: other.client.client_id, refreshToken: other.tokens.refresh_token! })).status,
      200,
      'other grants are untouched',
    );
    t.equal((await refreshGrant(app, { clientId, refreshToken: other.tokens.refresh_token! })).body.error, 'invalid_grant', "another client's refresh token");
  });

  t.test('concurrent refreshes with one token: one wins, the grant is then revoked', async (t) => {
    const flow = await oauthFlow(app, { cookie });
    const results = await Promise.all(
      Array.from({ length: 5 }, () => refreshGrant(app, { clientId: flow.client.client_id, refreshToken: flow.tokens.refresh_token! })),
    );
    t.equal(results.filter((r) => r.status === 200).length, 1);
  });

  t.test('case 38: asking for a wider scope → invalid_scope; narrower → granted', async (t) => {
    const flow = await oauthFlow(app, { cookie, scope: 'files:read org:read offline_access' });
    const clientId = flow.client.client_id;
    const wider = await refreshGrant(app, { clientId, refreshToken: flow.tokens.refresh_token!, scope: 'files:read files:write' });
    t.equal(wider.status, 400);
    t.equal(wider.body.error, 'invalid_scope');
    const narrower = await refreshGrant(app, { clientId, refreshToken: flow.tokens.refresh_token!, scope: 'files:read' });
    t.equal(narrower.status, 200, 'the failed attempt did not use the token up');
    t.equal(narrower.body.scope, 'files:read');
    const payload = JSON.parse(Buffer.from(narrower.body.access_token.split('.')[1], 'base64url').toString());
    t.equal(payload.scope, 'files:read');
    const again = await refreshGrant(app, { clientId, refreshToken: narrower.body.refresh_token });
    t.equal(again.body.scope, 'files:read org:read offline_access', 'the grant keeps its scopes; the next refresh may ask for all of them');
  });

  t.test('no offline_access, no refresh token', async (t) => {
    const flow = await oauthFlow(app, { cookie, scope: 'files:read' });
    t.equal(flow.tokens.refresh_token, undefined);
    t.equal(flow.tokens.scope, 'files:read');
  });

  t.test('case 39: revoking a refresh token ends the grant; unknown tokens answer 200', async (t) => {
    const flow = await oauthFlow(app, { cookie });
    const clientId = flow.client.client_id;
    const res = await revokeRequest(app, { clientId, token: flow.tokens.refresh_token!, hint: 'refresh_token' });
    t.equal(res.status, 200);
    t.equal((await refreshGrant(app, { clientId, refreshToken: flow.tokens.refresh_token! })).body.error, 'invalid_grant');
    t.equal((await http(`${base}/api`, { token: flow.tokens.access_token })).status, 401, 'its access tokens too');

    t.equal((await revokeRequest(app, { clientId, token: 'not-a-token' })).status, 200, 'unknown token');
    t.equal((await revokeRequest(app, { clientId, token: flow.tokens.refresh_token! })).status, 200, 'already revoked');

    const viaAccess = await oauthFlow(app, { cookie });
    t.equal((await revokeRequest(app, { clientId: viaAccess.client.client_id, token: viaAccess.tokens.access_token, hint: 'access_token' })).status, 200);
    t.equal((await http(`${base}/api`, { token: viaAccess.tokens.access_token })).status, 401, 'revoking an access token revokes its grant');
    t.equal((await refreshGrant(app, { clientId: viaAccess.client.client_id, refreshToken: viaAccess.tokens.refresh_token! })).body.error, 'invalid_grant');

    const foreign = await oauthFlow(app, { cookie });
    t.equal((await revokeRequest(app, { clientId, token: foreign.tokens.refresh_token! })).status, 200);
    t.equal(
      (await refreshGrant(app, { clientId: foreign.client.client_id, refreshToken: foreign.tokens.refresh_token! })).status,
      200,
      'another client cannot revoke it',
    );

    const noClient = await http(`${base}/oauth/revoke`, { method: 'POST', body: 'token=x', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    t.equal(noClient.status, 401);
    t.equal(noClient.body.error, 'invalid_client');
  });

  t.test('case 41 (refresh part): organization MCP access revoked → refresh gives invalid_grant', async (t) => {
    const flow = await oauthFlow(app, { cookie });
    await app.deps.sql`update org_mcp_access set state = 'revoked' where org_id = ${orgId}`;
    t.teardown(async () => {
      await app.deps.sql`update org_mcp_access set state = 'testing' where org_id = ${orgId}`;
    });
    const res = await refreshGrant(app, { clientId: flow.client.client_id, refreshToken: flow.tokens.refresh_token! });
    t.equal(res.status, 400);
    t.equal(res.body.error, 'invalid_grant');
    await app.deps.sql`update org_mcp_access set state = 'active' where org_id = ${orgId}`;
    t.equal(
      (await refreshGrant(app, { clientId: flow.client.client_id, refreshToken: flow.tokens.refresh_token! })).status,
      200,
      'restored access: the refresh token works again',
    );
  });

  t.test("a removed member's grant cannot be refreshed", async (t) => {
    const sam = await signInCookie(app, 'sam@example.com');
    const samOrg = await createOrganization(app, sam, 'sam-org');
    const flow = await oauthFlow(app, { cookie: sam });
    await app.deps.sql`delete from members where org_id = ${samOrg}`;
    t.equal((await refreshGrant(app, { clientId: flow.client.client_id, refreshToken: flow.tokens.refresh_token! })).body.error, 'invalid_grant');
  });

  t.test('per-client token limit: 20 per minute', async (t) => {
    const flow = await oauthFlow(app, { cookie });
    const statuses: number[] = [];
    for (let i = 0; i < 21; i++) {
      statuses.push((await refreshGrant(app, { clientId: flow.client.client_id, refreshToken: 'bogus' })).status);
    }
    t.equal(statuses.filter((s) => s === 429).length, 2, 'the exchange plus 19 more pass, then 429');
    const other = await oauthFlow(app, { cookie });
    t.equal(
      (await refreshGrant(app, { clientId: other.client.client_id, refreshToken: other.tokens.refresh_token! })).status,
      200,
      'other clients are not affected',
    );
  });
});
