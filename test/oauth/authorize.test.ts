// The authorization endpoint: redirect URI matching, request errors, consent CSRF and clickjacking defences, and
// resuming the request after a magic-link sign-in. Research/auth.md cases 28 to 31.
import t from 'tap';
import { startTestApp } from '../helpers/app.ts';
import { http } from '../helpers/http.ts';
import {
  approveAuthorization,
  authorizeUrl,
  createOrganization,
  memoryMagicLink,
  parseConsentPage,
  pkce,
  registerClient,
  signInCookie,
} from '../helpers/oauth.ts';

t.test('authorize', async (t) => {
  const app = await startTestApp(t, { env: { RATE_LIMIT_MAX: '100000', TRUST_PROXY: 'true' } });
  const base = app.url;
  const alice = await signInCookie(app, 'alice@example.com');
  const aliceOrg = await createOrganization(app, alice, 'alice-org');
  const client = await registerClient(app, { redirect_uris: ['http://127.0.0.1:4567/cb', 'https://app.example/cb'] });
  const { challenge } = pkce();

  t.test('case 28: unregistered, extended, case-changed or extra-query redirect_uri, or unknown client: error page, no redirect', async (t) => {
    const bad = [
      'https://evil.example/cb',
      'https://app.example/cb/more',
      'https://app.example/cbx',
      'https://app.example/CB',
      'https://APP.example/cb',
      'https://app.example/cb?x=1',
      'https://app.example/cb#frag',
      'http://app.example/cb',
      'http://127.0.0.1:4567/cb/x',
      'http://127.0.0.1:4567/cb?x=1',
      'http://localhost:4567/cb',
      'http://127.0.0.1.evil.example:4567/cb',
    ];
    for (const redirectUri of bad) {
      const res = await http(authorizeUrl(app, { clientId: client.client_id, redirectUri, challenge }), { headers: { cookie: alice } });
      t.equal(res.status, 400, redirectUri);
      t.equal(res.headers.location, undefined, `${redirectUri}: not redirected`);
      t.match(String(res.headers['content-type']), /text\/html/);
    }
    const unknown = await http(authorizeUrl(app, { clientId: 'cli_unknown', redirectUri: 'https://app.example/cb', challenge }));
    t.equal(unknown.status, 400, 'unknown client');
    t.equal(unknown.headers.location, undefined);
    const missing = await http(authorizeUrl(app, { clientId: client.client_id, challenge, extra: { redirect_uri: null } }));
    t.equal(missing.status, 400, 'missing redirect_uri');
    const twice = await http(
      `${authorizeUrl(app, { clientId: client.client_id, redirectUri: 'https://app.example/cb', challenge })}&redirect_uri=${encodeURIComponent('https://evil.example/cb')}`,
    );
    t.equal(twice.status, 400, 'redirect_uri sent twice');

    const otherPort = await http(authorizeUrl(app, { clientId: client.client_id, redirectUri: 'http://127.0.0.1:9999/cb', challenge }), {
      headers: { cookie: alice },
    });
    t.equal(otherPort.status, 200, 'a loopback redirect URI may use another port');
    t.ok(parseConsentPage(otherPort.text).csrfToken);
  });

  t.test('case 29: no code_challenge, plain, or response_type=token: redirected with error, state and iss', async (t) => {
    const cases: [string, Record<string, string | null>, string][] = [
      ['no code_challenge', { code_challenge: null }, 'invalid_request'],
      ['plain', { code_challenge_method: 'plain' }, 'invalid_request'],
      ['no method', { code_challenge_method: null }, 'invalid_request'],
      ['response_type=token', { response_type: 'token' }, 'unsupported_response_type'],
      ['unknown scope', { scope: 'files:read root' }, 'invalid_scope'],
      ['foreign resource', { resource: 'https://other.example/mcp' }, 'invalid_target'],
    ];
    for (const [name, extra, error] of cases) {
      const url = authorizeUrl(app, { clientId: client.client_id, redirectUri: 'https://app.example/cb', challenge, state: 'st-29', extra });
      const res = await http(url);
      t.equal(res.status, 302, name);
      const location = new URL(String(res.headers.location));
      t.equal(`${location.origin}${location.pathname}`, 'https://app.example/cb', `${name}: back to the client`);
      t.equal(location.searchParams.get('error'), error, name);
      t.equal(location.searchParams.get('state'), 'st-29', `${name}: state echoed`);
      t.equal(location.searchParams.get('iss'), base, `${name}: iss`);
      t.notOk(location.searchParams.get('code'));
    }
    const none = await http(authorizeUrl(app, { clientId: client.client_id, redirectUri: 'https://app.example/cb', challenge, extra: { prompt: 'none' } }));
    t.equal(new URL(String(none.headers.location)).searchParams.get('error'), 'login_required', 'prompt=none without a session');
  });

  t.test('case 30: consent CSRF and framing', async (t) => {
    const url = authorizeUrl(app, { clientId: client.client_id, redirectUri: 'https://app.example/cb', challenge, state: 'st-30' });
    const page = await http(url, { headers: { cookie: alice } });
    t.equal(page.status, 200);
    const csp = String(page.headers['content-security-policy']);
    t.match(csp, /frame-ancestors 'none'/);
    t.equal(page.headers['x-frame-options'], 'DENY');
    t.equal(page.headers['cache-control'], 'no-store');
    const { csrfToken, organizations } = parseConsentPage(page.text);
    t.ok(csrfToken);
    t.same(
      organizations.map((o) => o.id),
      [aliceOrg],
    );

    const post = (cookie: string, fields: Record<string, string>, origin = base) =>
      http(`${base}/oauth/authorize`, {
        method: 'POST',
        body: new URLSearchParams(fields).toString(),
        headers: { cookie, origin, 'content-type': 'application/x-www-form-urlencoded' },
      });
    const noToken = await post(alice, { decision: 'approve', organization_id: aliceOrg });
    t.equal(noToken.status, 403, 'no CSRF token');
    t.equal(noToken.headers.location, undefined);

    const bob = await signInCookie(app, 'bob@example.com');
    await createOrganization(app, bob, 'bob-org');
    const bobTicket = parseConsentPage((await http(url, { headers: { cookie: bob } })).text).csrfToken!;
    const crossSession = await post(alice, { csrf_token: bobTicket, decision: 'approve', organization_id: aliceOrg });
    t.equal(crossSession.status, 403, 'a ticket from another session');
    const aliceSecondSession = await signInCookie(app, 'alice@example.com');
    t.equal(
      (await post(aliceSecondSession, { csrf_token: csrfToken!, decision: 'approve', organization_id: aliceOrg })).status,
      403,
      'another session of the same user',
    );
    const tampered = csrfToken!.slice(0, -4) + (csrfToken!.endsWith('AAAA') ? 'BBBB' : 'AAAA');
    t.equal((await post(alice, { csrf_token: tampered, decision: 'approve', organization_id: aliceOrg })).status, 403, 'a forged ticket');
    t.equal((await post('', { csrf_token: csrfToken!, decision: 'approve', organization_id: aliceOrg })).status, 403, 'no session');
    t.equal(
      (await post(alice, { csrf_token: csrfToken!, decision: 'approve', organization_id: aliceOrg }, 'https://evil.example')).status,
      403,
      'cross-origin post',
    );
    const bobOrg = parseConsentPage((await http(url, { headers: { cookie: bob } })).text).organizations[0].id;
    t.equal((await post(alice, { csrf_token: csrfToken!, decision: 'approve', organization_id: bobOrg })).status, 400, 'an organization the user is not in');

    const ok = await post(alice, { csrf_token: csrfToken!, decision: 'approve', organization_id: aliceOrg });
    t.equal(ok.status, 303);
    const location = new URL(String(ok.headers.location));
    t.ok(location.searchParams.get('code'));
    t.equal(location.searchParams.get('state'), 'st-30');
    t.equal(location.searchParams.get('iss'), base);

    const denied = await approveAuthorization(url, { cookie: alice, decision: 'deny' });
    t.equal(denied.error, 'access_denied');
    t.equal(denied.state, 'st-30');
    t.equal(denied.iss, base);
  });

  t.test('case 31: not signed in → sign-in page; the magic link resumes the same request', async (t) => {
    const url = authorizeUrl(app, {
      clientId: client.client_id,
      redirectUri: 'http://127.0.0.1:4567/cb',
      challenge,
      state: 'st-31',
      scope: 'files:read offline_access',
    });
    const page = await http(url, { headers: { 'accept-language': 'pt-BR,pt;q=0.9' } });
    t.equal(page.status, 200);
    t.match(page.text, /Entre para continuar/, 'localized by Accept-Language');
    t.match(String(page.headers['content-security-policy']), /frame-ancestors 'none'/);
    const returnTo = /data-return="([^"]*)"/.exec(page.text)![1].replace(/&amp;/g, '&');
    const requested = new URL(url);
    t.equal(returnTo, `${requested.pathname}${requested.search}`, 'the sign-in form carries the whole request');

    const signIn = await http(`${base}/auth/sign-in/magic-link`, {
      json: { email: 'carol@example.com', callbackURL: returnTo },
      headers: { origin: base, 'x-service-locale': 'pt-BR' },
    });
    t.equal(signIn.status, 200);
    const token = new URL(memoryMagicLink(app, 'carol@example.com')).searchParams.get('token')!;
    const verify = await http(`${base}/auth/magic-link/verify?token=${encodeURIComponent(token)}`);
    t.equal(verify.status, 302);
    t.equal(verify.headers.location, returnTo, 'back to the authorize request, parameters intact');
    const setCookie = [verify.headers['set-cookie']].flat().find((c) => String(c).startsWith('session='))!;
    const cookie = String(setCookie).split(';')[0];
    const carolOrg = await createOrganization(app, cookie, 'carol-org');
    const result = await approveAuthorization(`${base}${verify.headers.location}`, { cookie });
    t.equal(result.authorizeStatus, 200);
    t.match(result.consentPage, /carol@example\.com/);
    t.match(result.consentPage, /data-scope="files:read"/);
    t.notMatch(result.consentPage, /data-scope="files:write"/, 'only what was asked for is offered');
    t.ok(result.code);
    t.equal(result.state, 'st-31');
    t.equal(result.iss, base);
    t.equal(`${result.location.origin}${result.location.pathname}`, 'http://127.0.0.1:4567/cb');
    t.ok(carolOrg);
  });

  t.test('the consent page caps scopes by role and maxScopes, and skips revoked organizations', async (t) => {
    const dave = await signInCookie(app, 'dave@example.com');
    const capped = await createOrganization(app, dave, 'dave-capped');
    const revoked = await createOrganization(app, dave, 'dave-revoked');
    await app.deps
      .sql`insert into org_mcp_access (org_id, state, max_scopes) values (${capped}, 'active', ${['files:read']}) on conflict (org_id) do update set max_scopes = excluded.max_scopes`;
    await app.deps.sql`insert into org_mcp_access (org_id, state) values (${revoked}, 'revoked') on conflict (org_id) do update set state = 'revoked'`;
    const url = authorizeUrl(app, {
      clientId: client.client_id,
      redirectUri: 'https://app.example/cb',
      challenge,
      scope: 'files:read files:write org:admin',
      extra: { lang: 'pt-BR' },
    });
    const result = await approveAuthorization(url, { cookie: dave, organizationId: capped });
    t.match(result.consentPage, /Autorizar/, 'pt-BR by ?lang=');
    const orgs = parseConsentPage(result.consentPage).organizations;
    t.equal(orgs.find((o) => o.id === revoked)?.disabled, true, 'a revoked organization cannot be picked');
    const grant = await app.deps.sql`select scope, org_id from oauth_grants order by created_at desc limit 1`;
    t.same(grant[0], { scope: 'files:read', org_id: capped }, 'granted = requested ∩ role ∩ maxScopes');
    const forced = await approveAuthorization(url, { cookie: dave, organizationId: revoked });
    t.equal(forced.error, 'access_denied', 'posting a revoked organization anyway is refused');
  });
});
