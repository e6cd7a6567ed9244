// Every execution, whatever its mode and outcome, is a row of the organization's audit log (executions_list).
import type { Caller } from '../identity/caller.ts';
import { auditLogFor } from '../services/audit-log.ts';
import type { ExecuteContext } from './context.ts';
import type { ExecuteMode } from './input.ts';
import type { ExecuteOutcome } from './result.ts';
import { scriptHash } from './script-hash.ts';

export async function audit(ctx: ExecuteContext, caller: Caller, mode: ExecuteMode, source: string, result: ExecuteOutcome): Promise<void> {
  auditLogFor(ctx.deps.sql).record(
    {
      orgId: caller.membership!.orgId,
      userId: caller.userId,
      clientId: caller.clientId ?? null,
      via: ctx.via,
      mode,
      scriptSha256: scriptHash(source),
      ok: result.ok,
      errorType: result.error?.type ?? null,
      errorCode: result.error?.code ?? null,
      wallMs: result.stats.wallMs,
      cpuMs: result.stats.cpuMs,
      hostCalls: result.stats.hostCalls,
    },
    ctx.deps.clock.now(),
  );
}
