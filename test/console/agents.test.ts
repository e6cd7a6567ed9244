// Agents and access over HTTP: the OAuth apps holding tokens for the organization, with who consented and last use,
// and revoking one from the console cuts the agent off at its next MCP call (other organizations' apps untouched).
// MCP access and API keys depend on bindings added elsewhere (mcp_access_*, api_keys_*): without them the page says
// so and the forms answer 404 with the reason; their console tests follow the merge that brings the bindings.
import t from 'tap';
import { world } from '../identity/org-helpers.ts';
import { http } from '../helpers/http.ts';
import { contract } from '../helpers/openapi-contract.ts';
import { oauthFlow, refreshGrant } from '../helpers/oauth.ts';
import { consoleForm, consolePage, withoutLabels } from './helpers.ts';

const mcpCall = (url: string, token: string) =>
  http(`${url}/v1/mcp`, {
    token,
    json: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'execute', arguments: { script: 'return (await context()).organization.slug' } } },
  });

t.test('console: agents and access', async (t) => {
  const w = await world(t);
  const { app } = w;
  const c = contract((await http(`${app.url}/openapi.json`)).body);
  const owner = await w.user('owner@example.com');
  const org = await w.org(owner, 'agents-org');
  const other = await w.user('other@example.com');
  const otherOrg = await w.org(other, 'other-org');

  const agent = await oauthFlow(app, { cookie: owner.cookie, organizationId: org.id });
  const foreign = await oauthFlow(app, { cookie: other.cookie, organizationId: otherOrg.id });
  t.equal((await mcpCall(app.url, agent.tokens.access_token)).status, 200, 'the agent works before');
  const refreshed = await refreshGrant(app, { clientId: agent.client.client_id, refreshToken: agent.tokens.refresh_token! });
  t.equal(refreshed.status, 200);

  t.test("the page lists the organization's apps with who allowed them and their last use", async (t) => {
    const page = await consolePage(owner, '/console/agents');
    t.equal(page.status, 200);
    c.check(t, 'get', '/console/agents', page);
    const rows = withoutLabels(page.text).match(/<tr><td>[^<]*<\/td><td>owner@example\.com<\/td>[\s\S]*?<\/tr>/g) ?? [];
    t.equal(rows.length, 1, 'one app holds tokens for this organization');
    t.match(rows[0], /<code>files:read<\/code>/);
    t.match(rows[0], /<td><time datetime="[^"]+">[^<]+ UTC<\/time><\/td>\s*<td><time datetime="[^"]+">/, 'a last use (the refresh)');
    t.notMatch(page.text, /other@example\.com/, "another organization's apps are not shown");
    t.notOk(page.text.includes(agent.tokens.access_token) || page.text.includes(refreshed.body.refresh_token), 'no token in the page');
    t.match((await consolePage(owner, '/console/agents', 'pt-BR')).text, /Aplicativos com tokens/);
  });

  t.test('a member sees no agent controls and cannot revoke', async (t) => {
    const { jar: member } = await w.join(owner, org.id, 'member@example.com', 'member');
    const page = await consolePage(member, '/console/agents');
    t.match(page.text, /Only owners and admins manage what agents may do/);
    t.notMatch(page.text, /grant-revoke/);
    const grantId = (await app.deps.sql`select id from oauth_grants where org_id = ${org.id}`)[0].id as string;
    const refused = await consoleForm(member, 'grant-revoke', { grantId });
    t.equal(refused.status, 403);
    c.check(t, 'post', '/console/actions/grant-revoke', refused);
    t.equal((await mcpCall(app.url, agent.tokens.access_token)).status, 200, 'the agent still works');
  });

  t.test("revoking from the console refuses the agent's next MCP call and its refresh token", async (t) => {
    const grantId = (await app.deps.sql`select id from oauth_grants where org_id = ${org.id}`)[0].id as string;
    const foreignGrant = (await app.deps.sql`select id from oauth_grants where org_id = ${otherOrg.id}`)[0].id as string;
    const cross = await consoleForm(owner, 'grant-revoke', { grantId: foreignGrant });
    t.equal(cross.status, 404, "another organization's grant is unknown here");
    t.equal((await mcpCall(app.url, foreign.tokens.access_token)).status, 200, 'and keeps working');
    const res = await consoleForm(owner, 'grant-revoke', { grantId });
    t.equal(res.status, 303);
    c.check(t, 'post', '/console/actions/grant-revoke', res);
    t.equal((await mcpCall(app.url, refreshed.body.access_token)).status, 401, 'the next MCP call is refused');
    t.equal((await refreshGrant(app, { clientId: agent.client.client_id, refreshToken: refreshed.body.refresh_token })).status, 400, 'no new tokens');
    const page = await consolePage(owner, '/console/agents?done=grant-revoke');
    t.match(page.text, /Access revoked\./);
    t.match(page.text, /No app holds tokens for this organization/);
    t.equal((await consoleForm(owner, 'grant-revoke', { grantId })).status, 404, 'twice: not found');
  });
});
