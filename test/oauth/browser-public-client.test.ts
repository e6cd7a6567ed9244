// A single-page app on an origin no operator listed runs the whole public-client flow inside Chromium with an
// independent OAuth library (oauth4webapi, loaded by the page as an ES module): discovery, dynamic registration
// (a JSON POST, so a real CORS preflight), PKCE, the authorization page by top-level navigation, the code exchange,
// a refresh and a revocation, each a cross-origin fetch the browser lets the page read only if CORS allows it.
import t, { type Test } from 'tap';
import { createServer } from 'node:http';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { chromium } from 'playwright-core';
import { startTestApp } from '../helpers/app.ts';
import { http } from '../helpers/http.ts';
import { createOrganization, signInCookie } from '../helpers/oauth.ts';

const CHROMIUM = '/usr/bin/chromium';
const FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];
const OAUTH4WEBAPI = readFileSync(createRequire(import.meta.url).resolve('oauth4webapi'), 'utf8');

/** The single-page app's own server: an empty page, its callback page, and the OAuth library as a module. */
async function spaServer(t: Test): Promise<string> {
  const server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://spa').pathname;
    if (path === '/oauth4webapi.js') res.writeHead(200, { 'content-type': 'text/javascript' }).end(OAUTH4WEBAPI);
    else if (path === '/' || path === '/callback') res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>SPA</title>');
    else res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  return `http://127.0.0.1:${(server.address() as { port: number }).port}`;
}

t.test('browser: a public PKCE client on an unlisted origin', { timeout: 120_000 }, async (t) => {
  t.ok(existsSync(CHROMIUM), `Chromium is installed at ${CHROMIUM}`);
  const app = await startTestApp(t, { env: { RATE_LIMIT_MAX: '100000' } });
  const spa = await spaServer(t);
  t.not(new URL(spa).origin, new URL(app.url).origin, 'the app runs on another origin');
  t.notOk(app.config.allowedOrigins.includes(spa), 'and no operator listed it');
  const cookie = await signInCookie(app, 'spa@example.com');
  await createOrganization(app, cookie, 'spa-org');

  const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: FLAGS });
  t.teardown(() => browser.close());
  const context = await browser.newContext();
  const [name, value] = cookie.split('=');
  await context.addCookies([{ name, value, url: app.url }]);
  const page = await context.newPage();
  page.setDefaultTimeout(15_000);

  // 1. Discovery and registration from the app's page, then the authorization request it navigates to.
  await page.goto(`${spa}/`);
  const authorizationUrl = await page.evaluate(
    async ({ issuer, redirectUri }) => {
      const oauth: typeof import('oauth4webapi') = await import(String('/oauth4webapi.js'));
      const insecure = { [oauth.allowInsecureRequests]: true };
      const as = await oauth.processDiscoveryResponse(new URL(issuer), await oauth.discoveryRequest(new URL(issuer), { algorithm: 'oauth2', ...insecure }));
      const client = await oauth.processDynamicClientRegistrationResponse(
        await oauth.dynamicClientRegistrationRequest(
          as,
          {
            client_name: 'Browser SPA',
            redirect_uris: [redirectUri],
            token_endpoint_auth_method: 'none',
            grant_types: ['authorization_code', 'refresh_token'],
          },
          insecure,
        ),
      );
      const verifier = oauth.generateRandomCodeVerifier();
      const state = oauth.generateRandomState();
      sessionStorage.setItem('flow', JSON.stringify({ as, clientId: client.client_id, verifier, state }));
      const url = new URL(as.authorization_endpoint!);
      url.search = new URLSearchParams({
        response_type: 'code',
        client_id: client.client_id,
        redirect_uri: redirectUri,
        code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
        code_challenge_method: 'S256',
        state,
        scope: 'files:read org:read offline_access',
      }).toString();
      return url.toString();
    },
    { issuer: app.url, redirectUri: `${spa}/callback` },
  );
  t.match(authorizationUrl, `${app.url}/oauth/authorize?`, 'discovered and registered across origins (the JSON registration is preflighted)');

  // 2. The authorization page, by navigation: the user (signed in on the service) approves.
  await page.goto(authorizationUrl);
  await page.click('button[value=approve]');
  await page.waitForURL(/\/callback\?/);

  // 3. Back on the app's origin: the code exchange and a refresh, cross-origin fetches read by the page.
  const tokens = await page.evaluate(async () => {
    const oauth: typeof import('oauth4webapi') = await import(String('/oauth4webapi.js'));
    const insecure = { [oauth.allowInsecureRequests]: true };
    const { as, clientId, verifier, state } = JSON.parse(sessionStorage.getItem('flow')!);
    const client = { client_id: clientId, token_endpoint_auth_method: 'none' };
    const here = new URL((globalThis as unknown as { location: { href: string } }).location.href);
    const params = oauth.validateAuthResponse(as, client, here, state);
    const first = await oauth.processAuthorizationCodeResponse(
      as,
      client,
      await oauth.authorizationCodeGrantRequest(as, client, oauth.None(), params, `${here.origin}/callback`, verifier, insecure),
    );
    const refreshed = await oauth.processRefreshTokenResponse(
      as,
      client,
      await oauth.refreshTokenGrantRequest(as, client, oauth.None(), first.refresh_token!, insecure),
    );
    return { first: first.access_token, access: refreshed.access_token, refresh: refreshed.refresh_token!, scope: refreshed.scope };
  });
  t.equal(tokens.scope, 'files:read org:read offline_access');
  const mcp = (token: string) => http(`${app.url}/v1/mcp`, { json: { jsonrpc: '2.0', id: 1, method: 'tools/list' }, token });
  t.equal((await mcp(tokens.access)).status, 200, "the page's access token works on the MCP endpoint");

  // 4. Revocation from the page: the grant's tokens stop working.
  await page.evaluate(async (refresh) => {
    const oauth: typeof import('oauth4webapi') = await import(String('/oauth4webapi.js'));
    const insecure = { [oauth.allowInsecureRequests]: true };
    const { as, clientId } = JSON.parse(sessionStorage.getItem('flow')!);
    await oauth.processRevocationResponse(await oauth.revocationRequest(as, { client_id: clientId }, oauth.None(), refresh, insecure));
  }, tokens.refresh);
  t.equal((await mcp(tokens.access)).status, 401, 'revoked from the browser');
});
