// The official MCP SDK's client-side OAuth (`auth()` from @modelcontextprotocol/sdk/client/auth.js) against our
// authorization server: protected-resource discovery, AS metadata, dynamic registration, a PKCE authorization
// request with `resource`, headless consent through test/helpers/oauth.ts, the code exchange, and a refresh.
// (The MCP endpoint half of research/auth.md case 44, tools/list through the transport, lives with the MCP tests.)
import t from 'tap';
import { auth } from '@modelcontextprotocol/sdk/client/auth.js';
import { startTestApp } from '../helpers/app.ts';
import { http } from '../helpers/http.ts';
import { createOrganization, headlessProvider, signInCookie } from '../helpers/oauth.ts';

t.test('MCP SDK client auth() against the authorization server', async (t) => {
  const app = await startTestApp(t, { env: { RATE_LIMIT_MAX: '100000' } });
  const cookie = await signInCookie(app, 'sdk@example.com');
  await createOrganization(app, cookie, 'sdk-org');

  for (const path of ['/v1/mcp', '/mcp']) {
    t.test(`resource ${path}`, async (t) => {
      const serverUrl = `${app.url}${path}`;
      const { provider, state } = headlessProvider(cookie);
      t.equal(await auth(provider, { serverUrl }), 'REDIRECT');
      const sent = state.authorizationUrl!;
      t.equal(sent.searchParams.get('code_challenge_method'), 'S256');
      t.equal(sent.searchParams.get('resource'), serverUrl, 'resource = the PRM resource');
      t.equal(sent.searchParams.get('state'), 'sdk-state');
      t.equal(state.result!.state, 'sdk-state');
      t.equal(state.result!.iss, app.url);

      t.equal(await auth(provider, { serverUrl, authorizationCode: state.result!.code! }), 'AUTHORIZED');
      const tokens = state.tokens!;
      const payload = JSON.parse(Buffer.from(tokens.access_token.split('.')[1], 'base64url').toString());
      t.equal(payload.aud, serverUrl);
      t.ok(tokens.refresh_token, 'offline_access from the PRM scopes gives a refresh token');
      t.equal((await http(`${app.url}/api`, { token: tokens.access_token })).status, 200);

      // With tokens saved, auth() refreshes instead of asking again.
      const before = tokens.refresh_token;
      t.equal(await auth(provider, { serverUrl }), 'AUTHORIZED');
      t.not(state.tokens!.refresh_token, before, 'refreshed with rotation');
    });
  }
});
