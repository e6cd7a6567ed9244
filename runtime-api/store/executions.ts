// The execution audit log rows.
import type { Sql } from 'postgres';

export type ExecutionSource = 'mcp' | 'rest' | 'cli';

export interface ExecutionRecord {
  orgId: string;
  userId: string;
  clientId: string | null;
  /** The API key the script ran with, if any. */
  keyId: string | null;
  via: 'mcp' | 'app';
  source: ExecutionSource;
  mode: 'run' | 'plan' | 'apply';
  scriptSha256: string;
  /** The script's first lines, secrets masked (script-excerpt.ts); null on rows recorded before excerpts were kept. */
  scriptExcerpt: string | null;
  scriptLines: number | null;
  ok: boolean;
  errorType: string | null;
  errorCode: string | null;
  errorMessage: string | null;
  errorLine: number | null;
  wallMs: number;
  cpuMs: number;
  hostCalls: number;
}

export interface ExecutionRow extends ExecutionRecord {
  id: string;
  createdAt: Date;
  /** Read when listed: the person's address, the key's and the OAuth client's names as they are now. */
  userEmail: string | null;
  keyName: string | null;
  clientName: string | null;
}

export interface ExecutionFilter {
  userId?: string;
  keyId?: string;
  clientId?: string;
  ok?: boolean;
  source?: ExecutionSource;
  /** created_at >= from */
  from?: Date;
  /** created_at < to */
  to?: Date;
}

/** Newest first; keyset pagination on (created_at, id). */
export async function listExecutions(
  sql: Sql,
  orgId: string,
  limit: number,
  before?: { createdAt: Date; id: string },
  filter: ExecutionFilter = {},
): Promise<ExecutionRow[]> {
  const source = sql`coalesce(e.source, case e.via when 'mcp' then 'mcp' else 'rest' end)`;
  return sql<ExecutionRow[]>`
    select e.id, e.org_id as "orgId", e.user_id as "userId", e.client_id as "clientId", e.key_id as "keyId", e.via, ${source} as source,
      e.mode, e.script_sha256 as "scriptSha256", e.script_excerpt as "scriptExcerpt", e.script_lines as "scriptLines", e.ok,
      e.error_type as "errorType", e.error_code as "errorCode", e.error_message as "errorMessage", e.error_line as "errorLine",
      e.wall_ms as "wallMs", e.cpu_ms as "cpuMs", e.host_calls as "hostCalls", e.created_at as "createdAt",
      u.email::text as "userEmail", k.name as "keyName", c.client_name as "clientName"
    from executions e
      left join users u on u.id = e.user_id
      left join api_keys k on k.id = e.key_id and k.org_id = e.org_id
      left join oauth_clients c on c.client_id = e.client_id
    where e.org_id = ${orgId}
      ${before ? sql`and (e.created_at, e.id) < (${before.createdAt}, ${before.id})` : sql``}
      ${filter.userId ? sql`and e.user_id = ${filter.userId}` : sql``}
      ${filter.keyId ? sql`and e.key_id = ${filter.keyId}` : sql``}
      ${filter.clientId ? sql`and e.client_id = ${filter.clientId}` : sql``}
      ${filter.ok !== undefined ? sql`and e.ok = ${filter.ok}` : sql``}
      ${filter.source ? sql`and ${source} = ${filter.source}` : sql``}
      ${filter.from ? sql`and e.created_at >= ${filter.from}` : sql``}
      ${filter.to ? sql`and e.created_at < ${filter.to}` : sql``}
    order by e.created_at desc, e.id desc
    limit ${limit}`;
}
