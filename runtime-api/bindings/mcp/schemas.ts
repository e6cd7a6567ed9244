// Schemas shared by the MCP access bindings and their HTTP routes.
import * as v from 'valibot';
import { SCOPES } from '../../identity/scopes.ts';

export const McpAccessStateSchema = v.picklist(['testing', 'active', 'revoked']);
export const MaxScopesSchema = v.pipe(
  v.array(v.picklist(SCOPES)),
  v.maxLength(SCOPES.length),
  v.check((s) => new Set(s).size === s.length, 'scopes must not repeat'),
);

export const McpAccessSchema = v.object({
  id: v.pipe(v.string(), v.description("The organization's id: access is one per organization; the same as `organizationId`.")),
  organizationId: v.string(),
  state: McpAccessStateSchema,
  maxScopes: v.array(v.picklist(SCOPES)),
  updatedAt: v.string(),
});

export const McpAccessChangeSchema = v.object({
  userId: v.string(),
  fromState: McpAccessStateSchema,
  toState: McpAccessStateSchema,
  fromMaxScopes: v.array(v.string()),
  toMaxScopes: v.array(v.string()),
  at: v.string(),
});

export function accessView(row: { orgId: string; state: v.InferOutput<typeof McpAccessStateSchema>; maxScopes: readonly string[]; updatedAt: Date }) {
  return {
    id: row.orgId,
    organizationId: row.orgId,
    state: row.state,
    maxScopes: SCOPES.filter((s) => row.maxScopes.includes(s)),
    updatedAt: row.updatedAt.toISOString(),
  };
}
