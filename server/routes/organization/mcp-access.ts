// The organization's MCP access state and maxScopes ceiling, read and set by its owners and admins.
import * as v from 'valibot';
import { mcp_access_get, mcp_access_set, MaxScopesSchema, McpAccessStateSchema } from '../../../runtime-api/index.ts';
import { ADMIN, OrgId, type BindingRoute } from './binding-route.ts';

export const getMcpAccess: BindingRoute = {
  method: 'GET',
  path: '/auth/organization/mcp-access',
  operationId: 'getMcpAccess',
  binding: mcp_access_get,
  summary: "The organization's MCP access state, its maxScopes ceiling and recent changes (owners and admins)",
  input: v.object({ organizationId: OrgId }),
  errors: ADMIN,
};

export const setMcpAccess: BindingRoute = {
  method: 'POST',
  path: '/auth/organization/set-mcp-access',
  operationId: 'setMcpAccess',
  binding: mcp_access_set,
  summary: "Set the organization's MCP access state and/or maxScopes (owners and admins, signed-in sessions only)",
  input: v.strictObject({ state: v.optional(McpAccessStateSchema), maxScopes: v.optional(MaxScopesSchema), organizationId: OrgId }),
  errors: ADMIN,
};
