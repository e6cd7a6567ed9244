// The token endpoint's authorization_code grant: PKCE, client and redirect binding, single use (replay revokes,
// concurrent redemptions have one winner), expiry, no-store, and resource binding of the access token audience.
// Research/auth.md cases 32 to 36.
import t from 'tap';
import { SignJWT, generateKeyPair } from 'jose';
import { startTestApp } from '../helpers/app.ts';
import { http } from '../helpers/http.ts';
import {
  approveAuthorization,
  authorizeUrl,
  createOrganization,
  exchangeCode,
  oauthFlow,
  pkce,
  refreshGrant,
  registerClient,
  signInCookie,
  DEFAULT_REDIRECT_URI,
} from '../helpers/oauth.ts';

function claimsOf(jwt: string): { header: any; payload: any } {
  const [h, p] = jwt
    .split('.')
    .slice(0, 2)
    .map((part) => JSON.parse(Buffer.from(part, 'base64url').toString()));
  return { header: h, payload: p };
}

t.test('token endpoint: authorization code', async (t) => {
  const app = await startTestApp(t, { env: { RATE_LIMIT_MAX: '100000', TRUST_PROXY: 'true' } });
  const base = app.url;
  const cookie = await signInCookie(app, 'tina@example.com');
  const orgId = await createOrganization(app, cookie, 'tina-org');

  async function authorized(options: { scope?: string; resource?: string; redirectUri?: string } = {}) {
    const redirectUri = options.redirectUri ?? DEFAULT_REDIRECT_URI;
    const client = await registerClient(app, { redirect_uris: [redirectUri] });
    const pair = pkce();
    const result = await approveAuthorization(
      authorizeUrl(app, {
        clientId: client.client_id,
        redirectUri,
        challenge: pair.challenge,
        scope: options.scope ?? 'files:read org:read offline_access',
        resource: options.resource,
      }),
      { cookie },
    );
    return { client, pair, code: result.code!, redirectUri };
  }

  t.test("case 32: wrong code_verifier, another client's code, or another redirect_uri → invalid_grant", async (t) => {
    const a = await authorized();
    const other = await registerClient(app);
    const wrongVerifier = await exchangeCode(app, { clientId: a.client.client_id, code: a.code, verifier: pkce().verifier });
    t.equal(wrongVerifier.status, 400);
    t.equal(wrongVerifier.body.error, 'invalid_grant');
    const shortVerifier = await exchangeCode(app, { clientId: a.client.client_id, code: a.code, verifier: 'short' });
    t.equal(shortVerifier.body.error, 'invalid_grant');
    const otherClient = await exchangeCode(app, { clientId: other.client_id, code: a.code, verifier: a.pair.verifier });
    t.equal(otherClient.body.error, 'invalid_grant', 'another client');
    const otherRedirect = await exchangeCode(app, {
      clientId: a.client.client_id,
      code: a.code,
      verifier: a.pair.verifier,
      redirectUri: 'http://127.0.0.1:53683/callback',
    });
    t.equal(otherRedirect.body.error, 'invalid_grant', 'another redirect_uri');
    const noVerifier = await http(`${base}/oauth/token`, {
      method: 'POST',
      body: `grant_type=authorization_code&client_id=${a.client.client_id}&code=${a.code}&redirect_uri=${encodeURIComponent(a.redirectUri)}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    t.equal(noVerifier.status, 400);
    t.equal(noVerifier.body.error, 'invalid_request', 'no code_verifier');
    const unknownClient = await exchangeCode(app, { clientId: 'cli_nobody', code: a.code, verifier: a.pair.verifier });
    t.equal(unknownClient.status, 401);
    t.equal(unknownClient.body.error, 'invalid_client');
    const ok = await exchangeCode(app, { clientId: a.client.client_id, code: a.code, verifier: a.pair.verifier });
    t.equal(ok.status, 200, 'failed attempts did not burn the code for its rightful client');
  });

  t.test('case 33: a code used twice → invalid_grant, and the tokens of the first use stop working', async (t) => {
    const a = await authorized();
    const first = await exchangeCode(app, { clientId: a.client.client_id, code: a.code, verifier: a.pair.verifier });
    t.equal(first.status, 200);
    t.equal((await http(`${base}/api`, { token: first.body.access_token })).status, 200);
    const second = await exchangeCode(app, { clientId: a.client.client_id, code: a.code, verifier: a.pair.verifier });
    t.equal(second.status, 400);
    t.equal(second.body.error, 'invalid_grant');
    const api = await http(`${base}/api`, { token: first.body.access_token });
    t.equal(api.status, 401, 'the access token is revoked');
    t.match(String(api.headers['www-authenticate']), /error="invalid_token"/);
    const refresh = await refreshGrant(app, { clientId: a.client.client_id, refreshToken: first.body.refresh_token });
    t.equal(refresh.body.error, 'invalid_grant', 'the refresh token is revoked');
  });

  t.test('case 34: ten concurrent redemptions of one code → exactly one token response', async (t) => {
    const a = await authorized();
    const results = await Promise.all(
      Array.from({ length: 10 }, () => exchangeCode(app, { clientId: a.client.client_id, code: a.code, verifier: a.pair.verifier })),
    );
    t.equal(results.filter((r) => r.status === 200).length, 1);
    t.equal(results.filter((r) => r.status === 400 && r.body.error === 'invalid_grant').length, 9);
    const [row] = await app.deps
      .sql`select count(*)::int as n from oauth_refresh_tokens r join oauth_codes c on c.grant_id = r.grant_id where c.client_id = ${a.client.client_id}`;
    t.equal(row.n, 1, 'one refresh token was ever issued');
  });

  t.test('case 35: every token response has Cache-Control: no-store', async (t) => {
    const a = await authorized();
    const ok = await exchangeCode(app, { clientId: a.client.client_id, code: a.code, verifier: a.pair.verifier });
    t.equal(ok.headers['cache-control'], 'no-store');
    t.equal(ok.headers.pragma, 'no-cache');
    t.match(ok.body, { token_type: 'Bearer', expires_in: 3600, scope: 'files:read org:read offline_access' });
    const bad = await exchangeCode(app, { clientId: a.client.client_id, code: 'nope', verifier: a.pair.verifier });
    t.equal(bad.headers['cache-control'], 'no-store');
    const refreshed = await refreshGrant(app, { clientId: a.client.client_id, refreshToken: ok.body.refresh_token });
    t.equal(refreshed.headers['cache-control'], 'no-store');
  });

  t.test('case 36: resource binding and the access token audience', async (t) => {
    const a = await authorized();
    const alias = await exchangeCode(app, { clientId: a.client.client_id, code: a.code, verifier: a.pair.verifier, resource: `${base}/mcp` });
    t.equal(alias.status, 400);
    t.equal(alias.body.error, 'invalid_target', 'a resource other than the authorized one');
    const foreign = await exchangeCode(app, {
      clientId: a.client.client_id,
      code: a.code,
      verifier: a.pair.verifier,
      resource: 'https://other.example/v1/mcp',
    });
    t.equal(foreign.body.error, 'invalid_target', 'a foreign server');
    const ok = await exchangeCode(app, { clientId: a.client.client_id, code: a.code, verifier: a.pair.verifier, resource: `${base}/v1/mcp` });
    t.equal(ok.status, 200);
    const { header, payload } = claimsOf(ok.body.access_token);
    t.match(header, { alg: 'ES256', typ: 'at+jwt' });
    t.equal(payload.aud, `${base}/v1/mcp`);
    t.match(payload, { iss: base, org: orgId, client_id: a.client.client_id, scope: 'files:read org:read offline_access', gid: /^grt_/ });
    t.equal(payload.exp - payload.iat, 3600);

    const viaAlias = await oauthFlow(app, { cookie, resource: `${base}/mcp` });
    t.equal(claimsOf(viaAlias.tokens.access_token).payload.aud, `${base}/mcp`, 'the /mcp alias is its own audience');
    const refreshForeign = await refreshGrant(app, {
      clientId: viaAlias.client.client_id,
      refreshToken: viaAlias.tokens.refresh_token!,
      resource: `${base}/v1/mcp`,
    });
    t.equal(refreshForeign.body.error, 'invalid_target', 'refresh keeps the resource too');

    // Tokens the resource server must refuse.
    const key = app.deps.keys.active();
    const now = Math.floor(Date.now() / 1000);
    const body = () =>
      new SignJWT({ org: orgId, scope: 'files:read', client_id: a.client.client_id })
        .setSubject(payload.sub)
        .setIssuer(base)
        .setIssuedAt(now)
        .setExpirationTime(now + 600)
        .setJti('x');
    const otherAud = await body()
      .setAudience('https://other.example/v1/mcp')
      .setProtectedHeader({ alg: 'ES256', typ: 'at+jwt', kid: key.kid })
      .sign(key.privateKey);
    const hs256 = await body()
      .setAudience(`${base}/v1/mcp`)
      .setProtectedHeader({ alg: 'HS256', typ: 'at+jwt', kid: key.kid })
      .sign(new TextEncoder().encode('x'.repeat(32)));
    const badSig = await body()
      .setAudience(`${base}/v1/mcp`)
      .setProtectedHeader({ alg: 'ES256', typ: 'at+jwt', kid: key.kid })
      .sign((await generateKeyPair('ES256')).privateKey);
    const wrongTyp = await body().setAudience(`${base}/v1/mcp`).setProtectedHeader({ alg: 'ES256', typ: 'JWT', kid: key.kid }).sign(key.privateKey);
    const none = `${Buffer.from(JSON.stringify({ alg: 'none', typ: 'at+jwt' })).toString('base64url')}.${ok.body.access_token.split('.')[1]}.`;
    const mcpInit = {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } },
    };
    for (const [name, token] of Object.entries({ otherAud, hs256, badSig, wrongTyp, none })) {
      const res = await http(`${base}/v1/mcp`, { token, json: mcpInit, headers: { accept: 'application/json, text/event-stream' } });
      t.equal(res.status, 401, `${name} → 401 at /v1/mcp`);
      t.match(String(res.headers['www-authenticate']), /resource_metadata=/);
    }
  });

  t.test('case 35: a code older than its TTL → invalid_grant', async (t) => {
    const late = await startTestApp(t, { manualClock: true, env: { RATE_LIMIT_MAX: '100000' } });
    const c = await signInCookie(late, 'late@example.com');
    await createOrganization(late, c, 'late-org');
    const client = await registerClient(late);
    const pair = pkce();
    const result = await approveAuthorization(authorizeUrl(late, { clientId: client.client_id, challenge: pair.challenge }), { cookie: c });
    late.clock.advance!(121_000);
    const res = await exchangeCode(late, { clientId: client.client_id, code: result.code!, verifier: pair.verifier });
    t.equal(res.status, 400);
    t.equal(res.body.error, 'invalid_grant');
    t.equal(res.headers['cache-control'], 'no-store');
  });

  t.test('unsupported grants and malformed requests', async (t) => {
    const client = await registerClient(app);
    const form = (body: string, type = 'application/x-www-form-urlencoded') =>
      http(`${base}/oauth/token`, { method: 'POST', body, headers: { 'content-type': type } });
    t.equal((await form(`grant_type=password&client_id=${client.client_id}&username=a&password=b`)).body.error, 'unsupported_grant_type');
    t.equal((await form(`grant_type=client_credentials&client_id=${client.client_id}`)).body.error, 'unsupported_grant_type');
    t.equal((await form(`client_id=${client.client_id}`)).body.error, 'invalid_request');
    t.equal(
      (await form(`grant_type=authorization_code&grant_type=refresh_token&client_id=${client.client_id}`)).body.error,
      'invalid_request',
      'a repeated parameter',
    );
    t.equal((await form(JSON.stringify({ grant_type: 'authorization_code' }), 'application/json')).body.error, 'invalid_request', 'JSON instead of a form');
    const codeOnly = await registerClient(app, { grant_types: ['authorization_code'] });
    t.equal((await form(`grant_type=refresh_token&client_id=${codeOnly.client_id}&refresh_token=x`)).body.error, 'unauthorized_client');
  });
});
