// research/auth.md case 44: the official MCP SDK Client with StreamableHTTPClientTransport and an OAuthClientProvider
// runs the whole dance against the in-process server — 401 → discovery → registration → authorize (signed-in
// session, consent) → token → tools/list → execute a script that lists files — then refreshes after expiry.
import t from 'tap';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { startTestApp } from '../helpers/app.ts';
import { createOrganization, headlessProvider, signInCookie } from '../helpers/oauth.ts';

t.test('the MCP SDK client does the whole OAuth dance and refreshes after expiry', async (t) => {
  const app = await startTestApp(t, { manualClock: true, env: { RATE_LIMIT_MAX: '100000' } });
  const cookie = await signInCookie(app, 'dancer@example.com');
  await createOrganization(app, cookie, 'dance-org');
  const { provider, state } = headlessProvider(cookie, { redirectUrl: 'http://127.0.0.1:61235/callback', state: 'dance-state', clientName: 'SDK dance' });
  const url = new URL(`${app.url}/v1/mcp`);

  const first = new Client({ name: 'dance', version: '1.0.0' });
  await t.rejects(first.connect(new StreamableHTTPClientTransport(url, { authProvider: provider })), { message: /Unauthorized/ }, '401 starts the dance');
  t.equal(state.redirects, 1, 'discovery and registration led to the authorization page');
  t.ok(state.client?.client_id, 'registered dynamically');
  t.ok(state.result?.code, 'consent returned a code');

  const transport = new StreamableHTTPClientTransport(url, { authProvider: provider });
  await transport.finishAuth(state.result!.code!);
  t.ok(state.tokens?.access_token && state.tokens.refresh_token, 'tokens saved');
  const client = new Client({ name: 'dance', version: '1.0.0' });
  await client.connect(transport);
  const { tools } = await client.listTools();
  t.same(
    tools.map((x) => x.name),
    ['execute', 'search'],
  );
  const listed = await client.callTool({
    name: 'execute',
    arguments: { script: 'await files_write_text({ name: "notes.txt", text: "x" }); const { items } = await files_list({}); return items.map((f) => f.name);' },
  });
  t.match(listed.structuredContent, { ok: true, result: ['notes.txt'] });
  await client.close();

  // An hour later the access token has expired: the transport gets 401 and refreshes transparently.
  const oldAccess = state.tokens!.access_token;
  const oldRefresh = state.tokens!.refresh_token;
  app.clock.advance!(3600_000 + 60_000);
  const again = new Client({ name: 'dance', version: '1.0.0' });
  await again.connect(new StreamableHTTPClientTransport(url, { authProvider: provider }));
  const after = await again.callTool({ name: 'execute', arguments: { script: 'return (await context()).organization.slug;' } });
  t.match(after.structuredContent, { ok: true, result: 'dance-org' });
  t.not(state.tokens!.access_token, oldAccess, 'a new access token');
  t.not(state.tokens!.refresh_token, oldRefresh, 'the refresh token rotated');
  t.equal(state.redirects, 1, 'no second trip to the authorization page');
  await again.close();
});
