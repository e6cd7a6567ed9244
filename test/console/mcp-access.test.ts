// MCP access in the console (bindings mcp_access_get/set): an owner revokes the organization's MCP access and the
// agent's next MCP call is refused (MCP_ACCESS_REVOKED), lowers maxScopes and a write is refused, and restores
// access. On a server without those bindings the page says MCP access control is not offered and the form answers 404.
import t from 'tap';
import { world } from '../identity/org-helpers.ts';
import { http } from '../helpers/http.ts';
import { oauthFlow } from '../helpers/oauth.ts';
import { consoleForm, consolePage } from './helpers.ts';

const run = (url: string, token: string, script: string) =>
  http(`${url}/v1/mcp`, {
    token,
    json: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'execute', arguments: { script } } },
  });

t.test('console: MCP access', async (t) => {
  const w = await world(t);
  const { app } = w;
  const owner = await w.user('mcp-owner@example.com');
  const org = await w.org(owner, 'mcp-org');

  const agent = await oauthFlow(app, { cookie: owner.cookie, organizationId: org.id });
  const token = agent.tokens.access_token;
  t.equal((await run(app.url, token, 'return 1')).status, 200, 'the agent works before');

  const revoked = await consoleForm(owner, 'mcp-access-set', { state: 'revoked', scopes: 'files:read' });
  t.equal(revoked.status, 303, revoked.text.match(/role="alert"><p>([^<]*)/)?.[1] ?? '');
  t.match((await consolePage(owner, '/console/agents')).text, /id="mcp-state">revoked</);
  const refused = await run(app.url, token, 'return 1');
  t.not(refused.status, 200, "the agent's next MCP call is refused");
  t.equal(refused.body?.error?.code, 'MCP_ACCESS_REVOKED');

  // Active again, but with a read-only ceiling: reads work, writes are refused.
  const active = await consoleForm(owner, 'mcp-access-set', { state: 'active', scopes: 'files:read' });
  t.equal(active.status, 303);
  const read = await run(app.url, token, 'return (await files_list({})).items.length');
  t.equal(read.status, 200);
  t.equal(read.body.result.structuredContent.ok, true, 'a read works');
  const write = await run(app.url, token, 'return await files_write_text({ name: "x.txt", text: "x" })');
  t.equal(write.body.result?.structuredContent?.ok ?? false, false, 'a write is refused under the files:read ceiling');
});
