// An independent OAuth client (panva's oauth4webapi) runs discovery, registration, PKCE, the code exchange,
// refresh and revocation against the server over real HTTP, and validates our access tokens as RFC 9068 JWTs.
// Research/auth.md cases 24 (discovery through a third-party client) and 43.
import t from 'tap';
import * as oauth from 'oauth4webapi';
import { startTestApp } from '../helpers/app.ts';
import { approveAuthorization, createOrganization, signInCookie } from '../helpers/oauth.ts';

const insecure = { [oauth.allowInsecureRequests]: true } as const;

t.test('oauth4webapi against the authorization server', async (t) => {
  const app = await startTestApp(t, { env: { RATE_LIMIT_MAX: '100000' } });
  const issuer = new URL(app.url);
  const cookie = await signInCookie(app, 'panva@example.com');
  const orgId = await createOrganization(app, cookie, 'panva-org');

  // case 24 through a third-party client: RFC 8414 discovery (issuer equality is checked by the library).
  const as = await oauth.processDiscoveryResponse(issuer, await oauth.discoveryRequest(issuer, { algorithm: 'oauth2', ...insecure }));
  const oidc = await oauth.processDiscoveryResponse(issuer, await oauth.discoveryRequest(issuer, { algorithm: 'oidc', ...insecure }));
  t.test('case 24: discovery (RFC 8414 and OIDC) through oauth4webapi', async (t) => {
    t.equal(as.issuer, app.url);
    t.same(as.code_challenge_methods_supported, ['S256']);
    t.same(as.response_types_supported, ['code']);
    t.equal(as.authorization_response_iss_parameter_supported, true);
    t.equal(oidc.token_endpoint, as.token_endpoint);
    const rs = await oauth.processResourceDiscoveryResponse(
      new URL('/v1/mcp', issuer),
      await oauth.resourceDiscoveryRequest(new URL('/v1/mcp', issuer), insecure),
    );
    t.same(rs.authorization_servers, [app.url]);
    const alias = await oauth.processResourceDiscoveryResponse(
      new URL('/mcp', issuer),
      await oauth.resourceDiscoveryRequest(new URL('/mcp', issuer), insecure),
    );
    t.equal(alias.resource, `${app.url}/mcp`);
  });

  t.test('case 43: registration → PKCE → code → tokens → RFC 9068 validation → refresh → revocation', async (t) => {
    const redirectUri = 'http://127.0.0.1:47123/callback';
    const registered = await oauth.processDynamicClientRegistrationResponse(
      await oauth.dynamicClientRegistrationRequest(
        as,
        {
          client_name: 'oauth4webapi',
          redirect_uris: [redirectUri],
          token_endpoint_auth_method: 'none',
          grant_types: ['authorization_code', 'refresh_token'],
        },
        insecure,
      ),
    );
    const client: oauth.Client = { client_id: registered.client_id, token_endpoint_auth_method: 'none' };
    const clientAuth = oauth.None();

    const verifier = oauth.generateRandomCodeVerifier();
    const challenge = await oauth.calculatePKCECodeChallenge(verifier);
    const state = oauth.generateRandomState();
    const resource = `${app.url}/v1/mcp`;
    const url = new URL(as.authorization_endpoint!);
    for (const [k, val] of Object.entries({
      response_type: 'code',
      client_id: client.client_id,
      redirect_uri: redirectUri,
      code_challenge: challenge,
      code_challenge_method: 'S256',
      state,
      scope: 'files:read org:read offline_access',
      resource,
    }))
      url.searchParams.set(k, val);
    const back = await approveAuthorization(url, { cookie, organizationId: orgId });
    const params = oauth.validateAuthResponse(as, client, back.location, state); // checks state and iss
    t.ok(params.get('code'));

    const tokenRes = await oauth.authorizationCodeGrantRequest(as, client, clientAuth, params, redirectUri, verifier, {
      additionalParameters: { resource },
      ...insecure,
    });
    const tokens = await oauth.processAuthorizationCodeResponse(as, client, tokenRes);
    t.equal(tokens.token_type, 'bearer');
    t.ok(tokens.refresh_token);
    t.equal(tokens.expires_in, 3600);

    const request = new Request(resource, { headers: { authorization: `Bearer ${tokens.access_token}` } });
    const claims = await oauth.validateJwtAccessToken(as, request, resource, { signingAlgorithms: ['ES256'], ...insecure });
    t.match(claims, { iss: app.url, aud: resource, client_id: client.client_id, scope: 'files:read org:read offline_access' });
    t.ok(claims.sub && claims.jti && claims.iat && claims.exp);
    await t.rejects(oauth.validateJwtAccessToken(as, request, `${app.url}/mcp`, insecure), 'another audience is refused');

    const refreshed = await oauth.processRefreshTokenResponse(
      as,
      client,
      await oauth.refreshTokenGrantRequest(as, client, clientAuth, tokens.refresh_token!, insecure),
    );
    t.not(refreshed.refresh_token, tokens.refresh_token, 'rotated');
    const again = new Request(resource, { headers: { authorization: `Bearer ${refreshed.access_token}` } });
    t.ok(await oauth.validateJwtAccessToken(as, again, resource, insecure));

    await oauth.processRevocationResponse(await oauth.revocationRequest(as, client, clientAuth, refreshed.refresh_token!, insecure));
    const refused = await oauth
      .processRefreshTokenResponse(as, client, await oauth.refreshTokenGrantRequest(as, client, clientAuth, refreshed.refresh_token!, insecure))
      .then(
        () => null,
        (err: unknown) => err as { error?: string },
      );
    t.equal(refused?.error, 'invalid_grant', 'a revoked refresh token is refused');
  });
});
