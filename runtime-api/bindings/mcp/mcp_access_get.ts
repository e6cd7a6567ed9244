// mcp_access_get: the organization's MCP access state, its maxScopes ceiling, and who changed them lately.
import * as v from 'valibot';
import { defineBinding } from '../../define.ts';
import { readMcpAccess, recentMcpAccessChanges } from '../../store/mcp-access.ts';
import { McpAccessChangeSchema, McpAccessSchema, accessView } from './schemas.ts';

const HISTORY = 20;

export const mcp_access_get = defineBinding({
  name: 'mcp_access_get',
  summary: "The organization's MCP access state (testing, active, revoked), its maxScopes ceiling and recent changes.",
  pt: {
    summary: 'O estado do acesso MCP da organização (testing, active, revoked), seu teto maxScopes e as mudanças recentes.',
    aliases: ['acesso mcp', 'acesso dos agentes', 'teto de escopos', 'agentes permitidos'],
  },
  description:
    "Access tokens of an organization whose state is `revoked` are refused everywhere (403 MCP_ACCESS_REVOKED); a token's effective scopes never exceed `maxScopes`. `changes` lists the last 20 changes, newest first.",
  examples: ['const access = await mcp_access_get({});\nreturn { state: access.state, maxScopes: access.maxScopes };'],
  input: v.strictObject({}),
  output: v.object({ ...McpAccessSchema.entries, changes: v.array(McpAccessChangeSchema) }),
  scope: 'org:admin',
  writes: false,
  async handler(_input, { sql, caller }) {
    const orgId = caller.membership!.orgId;
    const row = await readMcpAccess(sql, orgId);
    const changes = await recentMcpAccessChanges(sql, orgId, HISTORY);
    return { ...accessView(row), changes: changes.map((c) => ({ ...c, at: c.at.toISOString() })) };
  },
});
