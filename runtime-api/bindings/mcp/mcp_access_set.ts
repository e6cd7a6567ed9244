// mcp_access_set: an owner or admin changes the organization's MCP access state and/or maxScopes ceiling.
// Session callers only: an access token must never raise its own ceiling or undo its organization's revocation.
import * as v from 'valibot';
import { defineBinding } from '../../define.ts';
import { mcpAccessChangeEmpty } from '../../services/organization-messages.ts';
import { setMcpAccess } from '../../store/mcp-access.ts';
import { MaxScopesSchema, McpAccessSchema, McpAccessStateSchema, accessView } from './schemas.ts';

export const mcp_access_set = defineBinding({
  name: 'mcp_access_set',
  summary: "Set the organization's MCP access state and/or its maxScopes ceiling (owners and admins, signed-in sessions only).",
  pt: {
    summary: 'Define o estado do acesso MCP da organização e/ou seu teto maxScopes (proprietários e administradores, só em sessão autenticada).',
    aliases: ['bloquear agentes', 'revogar acesso mcp', 'liberar acesso mcp', 'mudar teto de escopos', 'desligar agentes'],
  },
  description:
    'Give `state` (`testing`, `active` or `revoked`), `maxScopes` (the scopes access tokens may use at most), or both. `revoked` refuses every access token of the organization at once, on MCP and on every other route; lowering `maxScopes` narrows live tokens at once. Each change is recorded (see `mcp_access_get`). Access tokens cannot call this binding.',
  examples: ['return await mcp_access_set({ state: "revoked" });', 'return await mcp_access_set({ state: "active", maxScopes: ["files:read", "org:read"] });'],
  input: v.strictObject({ state: v.optional(McpAccessStateSchema), maxScopes: v.optional(MaxScopesSchema) }),
  output: McpAccessSchema,
  scope: 'org:admin',
  writes: true,
  sessionOnly: true,
  async handler(input, { sql, caller, clock }) {
    if (input.state === undefined && input.maxScopes === undefined) {
      throw mcpAccessChangeEmpty(caller.locale);
    }
    return accessView(await setMcpAccess(sql, caller.membership!.orgId, caller.userId, input, clock.now()));
  },
});
