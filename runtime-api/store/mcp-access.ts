// Changing an organization's MCP access record and reading its audit trail (the record is read by
// store/organizations.ts mcpAccess, which creates it on first check).
import type { Sql } from 'postgres';
import { newId } from '../ids.ts';
import { mcpAccess, type McpAccessRow } from './organizations.ts';

export type McpAccessState = McpAccessRow['state'];

export interface McpAccessChange {
  userId: string;
  fromState: McpAccessState;
  toState: McpAccessState;
  fromMaxScopes: string[];
  toMaxScopes: string[];
  at: Date;
}

/** The record with its `updatedAt`, created in state `testing` when missing (spec section 3). */
export async function readMcpAccess(sql: Sql, orgId: string): Promise<McpAccessRow & { updatedAt: Date }> {
  const row = await mcpAccess(sql, orgId);
  const [{ updatedAt }] = await sql<{ updatedAt: Date }[]>`select updated_at as "updatedAt" from org_mcp_access where org_id = ${orgId}`;
  return { ...row, updatedAt };
}

export interface McpAccessChangeRow extends McpAccessChange {
  id: string;
  userEmail: string | null;
}

/** Newest first, keyset-paged on (created_at, id), with the changer's address as it is now. */
export async function pageMcpAccessChanges(sql: Sql, orgId: string, limit: number, before?: { at: Date; id: string }): Promise<McpAccessChangeRow[]> {
  return sql<McpAccessChangeRow[]>`select c.id, c.user_id as "userId", u.email::text as "userEmail", c.from_state as "fromState", c.to_state as "toState",
      c.from_max_scopes as "fromMaxScopes", c.to_max_scopes as "toMaxScopes", c.created_at as "at"
    from mcp_access_changes c left join users u on u.id = c.user_id
    where c.org_id = ${orgId} ${before ? sql`and (c.created_at, c.id) < (${before.at}, ${before.id})` : sql``}
    order by c.created_at desc, c.id desc limit ${limit}`;
}

export async function recentMcpAccessChanges(sql: Sql, orgId: string, limit: number): Promise<McpAccessChange[]> {
  return sql<McpAccessChange[]>`select user_id as "userId", from_state as "fromState", to_state as "toState",
      from_max_scopes as "fromMaxScopes", to_max_scopes as "toMaxScopes", created_at as "at"
    from mcp_access_changes where org_id = ${orgId} order by created_at desc, id desc limit ${limit}`;
}

/**
 * Set the state and ceiling and record the change, in one transaction under the record's row lock, so two
 * owners changing it at once each leave an accurate "from" in the trail.
 */
export async function setMcpAccess(sql: Sql, orgId: string, userId: string, next: { state?: McpAccessState; maxScopes?: readonly string[] }, at: Date) {
  return sql.begin(async (tx) => {
    await mcpAccess(tx as unknown as Sql, orgId);
    const [before] = await tx<McpAccessRow[]>`select state, max_scopes as "maxScopes" from org_mcp_access where org_id = ${orgId} for update`;
    const state = next.state ?? before.state;
    const maxScopes = next.maxScopes ? [...next.maxScopes] : before.maxScopes;
    await tx`update org_mcp_access set state = ${state}, max_scopes = ${maxScopes}, updated_at = ${at} where org_id = ${orgId}`;
    await tx`insert into mcp_access_changes (id, org_id, user_id, from_state, to_state, from_max_scopes, to_max_scopes, created_at)
      values (${newId('mac')}, ${orgId}, ${userId}, ${before.state}, ${state}, ${before.maxScopes}, ${maxScopes}, ${at})`;
    return { orgId, state, maxScopes, updatedAt: at };
  });
}
