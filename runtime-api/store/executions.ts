// The execution audit log rows.
import type { Sql } from 'postgres';

export interface ExecutionRecord {
  orgId: string;
  userId: string;
  clientId: string | null;
  via: 'mcp' | 'app';
  mode: 'run' | 'plan' | 'apply';
  scriptSha256: string;
  ok: boolean;
  errorType: string | null;
  errorCode: string | null;
  wallMs: number;
  cpuMs: number;
  hostCalls: number;
}

export interface ExecutionRow extends ExecutionRecord {
  id: string;
  createdAt: Date;
}

/** Newest first; keyset pagination on (created_at, id). */
export async function listExecutions(sql: Sql, orgId: string, limit: number, before?: { createdAt: Date; id: string }): Promise<ExecutionRow[]> {
  return sql<ExecutionRow[]>`
    select id, org_id as "orgId", user_id as "userId", client_id as "clientId", via, mode, script_sha256 as "scriptSha256", ok,
      error_type as "errorType", error_code as "errorCode", wall_ms as "wallMs", cpu_ms as "cpuMs", host_calls as "hostCalls", created_at as "createdAt"
    from executions
    where org_id = ${orgId} ${before ? sql`and (created_at, id) < (${before.createdAt}, ${before.id})` : sql``}
    order by created_at desc, id desc
    limit ${limit}`;
}
