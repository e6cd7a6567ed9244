// Discovery documents (RFC 8414, OIDC Discovery, RFC 9728), JWKS, CORS on the OAuth endpoints, and the OpenAPI
// contract of these routes. Research/auth.md cases 24, 25 and 26 (the resource server's 401 challenge that starts
// discovery).
import t from 'tap';
import { startTestApp } from '../helpers/app.ts';
import { http } from '../helpers/http.ts';
import { contract } from '../helpers/openapi-contract.ts';
import { oidcDiscoveryProblems } from '../helpers/oidc-discovery.ts';

t.test('discovery', async (t) => {
  const app = await startTestApp(t, { env: { ALLOWED_ORIGINS: 'https://inspector.example' } });
  const base = app.url;

  t.test('case 24: authorization server metadata and openid-configuration', async (t) => {
    const res = await http(`${base}/.well-known/oauth-authorization-server`);
    t.equal(res.status, 200);
    const m = res.body;
    t.equal(m.issuer, base, 'issuer = the public base URL');
    t.same(m.response_types_supported, ['code']);
    t.same(m.code_challenge_methods_supported, ['S256']);
    t.same(m.grant_types_supported, ['authorization_code', 'refresh_token']);
    t.notOk(m.grant_types_supported.includes('implicit') || m.grant_types_supported.includes('password'));
    t.equal(m.authorization_response_iss_parameter_supported, true);
    t.equal(m.authorization_endpoint, `${base}/oauth/authorize`);
    t.equal(m.token_endpoint, `${base}/oauth/token`);
    t.equal(m.registration_endpoint, `${base}/oauth/register`);
    t.equal(m.revocation_endpoint, `${base}/oauth/revoke`);
    t.equal(m.jwks_uri, `${base}/oauth/jwks`);
    t.same(m.token_endpoint_auth_methods_supported, ['none']);
    t.ok(m.scopes_supported.includes('files:read') && m.scopes_supported.includes('offline_access'));
    const jwks = await http(m.jwks_uri);
    t.equal(jwks.status, 200, 'the JWKS is reachable');
    t.ok(jwks.body.keys.length >= 1);

    const oidc = (await http(`${base}/.well-known/openid-configuration`)).body;
    t.same(
      oidcDiscoveryProblems(m),
      ["/: must have required property 'subject_types_supported'", "/: must have required property 'id_token_signing_alg_values_supported'"],
      'the RFC 8414 document alone is no OIDC document',
    );
    t.same(oidcDiscoveryProblems(oidc), [], 'a strict OpenID Connect Discovery 1.0 validator accepts openid-configuration');
    t.same(
      oidc,
      { ...m, subject_types_supported: ['public'], id_token_signing_alg_values_supported: ['RS256'], request_uri_parameter_supported: false },
      'the RFC 8414 metadata plus what OIDC Discovery requires',
    );
    for (const key of ['userinfo_endpoint', 'claims_supported', 'end_session_endpoint']) {
      t.notOk(key in oidc, `no ${key}: the service issues no ID tokens and has no userinfo`);
    }
    // request_uri_parameter_supported defaults to true: false is said because the authorization endpoint refuses it.
    const client = (await http(`${base}/oauth/register`, { json: { redirect_uris: ['http://127.0.0.1:9/cb'] } })).body;
    const query = new URLSearchParams({
      client_id: client.client_id,
      redirect_uri: 'http://127.0.0.1:9/cb',
      response_type: 'code',
      code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
      code_challenge_method: 'S256',
      request_uri: 'urn:example:request',
    });
    const withRequestUri = await http(`${base}/oauth/authorize?${query}`);
    t.match(
      String(withRequestUri.headers.location),
      /error=invalid_request&error_description=request%20objects%20are%20not%20supported/,
      'request_uri is refused, as the document says',
    );
    t.notOk(oidc.scopes_supported.includes('openid'));
    t.notOk(m.response_types_supported.some((r: string) => r.includes('id_token')));
    // Whatever is advertised exists: every endpoint URL answers something other than 404.
    for (const [key, value] of Object.entries(oidc)) {
      if (key === 'issuer' || typeof value !== 'string' || !value.startsWith(base)) continue;
      const res = await http(value, { method: key === 'jwks_uri' || key === 'service_documentation' || key === 'authorization_endpoint' ? 'GET' : 'POST' });
      t.not(res.status, 404, `${key} exists`);
    }
  });

  t.test('case 25: protected resource metadata for /v1/mcp and the /mcp alias', async (t) => {
    const v1 = await http(`${base}/.well-known/oauth-protected-resource/v1/mcp`);
    t.equal(v1.status, 200);
    t.equal(v1.body.resource, `${base}/v1/mcp`);
    t.same(v1.body.authorization_servers, [base]);
    t.same(v1.body.bearer_methods_supported, ['header']);
    const alias = await http(`${base}/.well-known/oauth-protected-resource/mcp`);
    t.equal(alias.status, 200);
    t.equal(alias.body.resource, `${base}/mcp`);
    t.same(alias.body.authorization_servers, [base]);
  });

  t.test('case 26: /v1/mcp and /mcp without or with a garbage token → 401 with resource_metadata', async (t) => {
    const body = { jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} };
    const headers = { accept: 'application/json, text/event-stream' };
    for (const path of ['/v1/mcp', '/mcp']) {
      const metadata = `${base}/.well-known/oauth-protected-resource${path}`;
      const none = await http(`${base}${path}`, { json: body, headers });
      t.equal(none.status, 401, `${path} without a token`);
      t.match(String(none.headers['www-authenticate']), `Bearer resource_metadata="${metadata}"`);
      const garbage = await http(`${base}${path}`, { json: body, headers, token: 'garbage.token.here' });
      t.equal(garbage.status, 401, `${path} with a garbage token`);
      t.match(String(garbage.headers['www-authenticate']), `resource_metadata="${metadata}"`);
      t.match(String(garbage.headers['www-authenticate']), 'error="invalid_token"');
      const prm = await http(metadata);
      t.equal(prm.body.resource, `${base}${path}`, 'the challenge points at metadata naming this resource');
    }
  });

  t.test('CORS: public documents and the public-client endpoints for any web origin, never with credentials', async (t) => {
    const pre = await http(`${base}/.well-known/oauth-authorization-server`, {
      method: 'OPTIONS',
      headers: { origin: 'https://anywhere.example', 'access-control-request-method': 'GET', 'access-control-request-headers': 'mcp-protocol-version' },
    });
    t.equal(pre.status, 204);
    t.equal(pre.headers['access-control-allow-origin'], '*');
    t.match(String(pre.headers['access-control-allow-headers']), /MCP-Protocol-Version/i);
    const get = await http(`${base}/.well-known/oauth-protected-resource/v1/mcp`, { headers: { origin: 'https://anywhere.example' } });
    t.equal(get.headers['access-control-allow-origin'], '*');

    // A browser's preflight from a single-page app no operator listed: registration, token and revocation answer it.
    for (const path of ['/oauth/token', '/oauth/register', '/oauth/revoke']) {
      for (const origin of ['https://inspector.example', 'https://spa.example', 'http://localhost:6274']) {
        const ok = await http(`${base}${path}`, {
          method: 'OPTIONS',
          headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' },
        });
        t.equal(ok.status, 204, `${path} preflight from ${origin}`);
        t.equal(ok.headers['access-control-allow-origin'], '*', `${path}: any web origin`);
        t.match(String(ok.headers['access-control-allow-methods']), /POST/);
        t.match(String(ok.headers['access-control-allow-headers']), /Content-Type/i);
        t.notOk(ok.headers['access-control-allow-credentials'], `${path}: no cookie crosses origins`);
      }
      for (const origin of ['null', 'file://', 'chrome-extension://abc']) {
        const bad = await http(`${base}${path}`, { method: 'OPTIONS', headers: { origin, 'access-control-request-method': 'POST' } });
        t.equal(bad.status, 403, `${path} preflight from ${origin}: not a web origin`);
        t.equal(bad.body.error.code, 'ORIGIN_NOT_ALLOWED');
        t.match(bad.body.error.resolution, /not a web page's origin/);
      }
    }
    const reg = await http(`${base}/oauth/register`, { json: { redirect_uris: ['http://127.0.0.1:9/cb'] }, headers: { origin: 'https://spa.example' } });
    t.equal(reg.status, 201);
    t.equal(reg.headers['access-control-allow-origin'], '*');
    t.match(String(reg.headers['access-control-expose-headers']), /RateLimit-Remaining/);
    const token = await http(`${base}/oauth/token`, {
      method: 'POST',
      body: 'grant_type=authorization_code',
      headers: { origin: 'https://spa.example', 'content-type': 'application/x-www-form-urlencoded' },
    });
    t.equal(token.status, 401, "the token endpoint's own answer reaches the page");
    t.equal(token.body.error, 'invalid_client');
    t.equal(token.headers['access-control-allow-origin'], '*');
    const opaque = await http(`${base}/oauth/token`, {
      method: 'POST',
      body: 'grant_type=authorization_code',
      headers: { origin: 'null', 'content-type': 'application/x-www-form-urlencoded' },
    });
    t.equal(opaque.status, 403);

    // The authorization page (the session cookie acts there) and the MCP endpoint grant no CORS to unlisted origins.
    const authorize = await http(`${base}/oauth/authorize`, {
      method: 'OPTIONS',
      headers: { origin: 'https://spa.example', 'access-control-request-method': 'POST' },
    });
    t.notOk(authorize.headers['access-control-allow-origin'], 'no CORS on the authorization page');
    const mcp = await http(`${base}/v1/mcp`, { method: 'OPTIONS', headers: { origin: 'https://spa.example', 'access-control-request-method': 'POST' } });
    t.equal(mcp.status, 403, 'the MCP endpoint admits only allowed origins (spec 5.8)');
    const listed = await http(`${base}/v1/mcp`, {
      method: 'OPTIONS',
      headers: { origin: 'https://inspector.example', 'access-control-request-method': 'POST' },
    });
    t.equal(listed.headers['access-control-allow-origin'], 'https://inspector.example');
  });

  t.test('live responses match /openapi.json', async (t) => {
    const doc = (await http(`${base}/openapi.json`)).body;
    const c = contract(doc);
    c.check(t, 'get', '/.well-known/oauth-authorization-server', await http(`${base}/.well-known/oauth-authorization-server`));
    c.check(t, 'get', '/.well-known/openid-configuration', await http(`${base}/.well-known/openid-configuration`));
    c.check(t, 'get', '/.well-known/oauth-protected-resource/v1/mcp', await http(`${base}/.well-known/oauth-protected-resource/v1/mcp`));
    c.check(t, 'get', '/.well-known/oauth-protected-resource/mcp', await http(`${base}/.well-known/oauth-protected-resource/mcp`));
    c.check(t, 'get', '/oauth/jwks', await http(`${base}/oauth/jwks`));
    c.check(t, 'post', '/oauth/register', await http(`${base}/oauth/register`, { json: { redirect_uris: ['http://127.0.0.1:9/cb'] } }));
    c.check(t, 'post', '/oauth/register', await http(`${base}/oauth/register`, { json: { redirect_uris: ['javascript:alert(1)'] } }));
    c.check(
      t,
      'post',
      '/oauth/token',
      await http(`${base}/oauth/token`, {
        method: 'POST',
        body: 'grant_type=authorization_code&client_id=nope',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      }),
    );
    c.check(
      t,
      'post',
      '/oauth/token',
      await http(`${base}/oauth/token`, { method: 'POST', body: 'grant_type=password', headers: { 'content-type': 'application/x-www-form-urlencoded' } }),
    );
  });
});
