// Every execution, whatever its mode and outcome, is a row of the organization's audit log (executions_list).
import { isApiKeyCaller, type Caller } from '../identity/caller.ts';
import { auditLogFor } from '../services/audit-log.ts';
import type { ExecuteContext } from './context.ts';
import type { ExecuteMode } from './input.ts';
import type { ExecuteOutcome } from './result.ts';
import { scriptHash } from './script-hash.ts';
import { maskSecrets, scriptExcerpt } from '../services/script-excerpt.ts';

/** A failure's message is kept this long at most (masked like the excerpt). */
const ERROR_MESSAGE_CHARS = 500;

export async function audit(ctx: ExecuteContext, caller: Caller, mode: ExecuteMode, source: string, result: ExecuteOutcome): Promise<void> {
  const { excerpt, lines } = scriptExcerpt(source);
  auditLogFor(ctx.deps.sql).record(
    {
      orgId: caller.membership!.orgId,
      userId: caller.userId,
      clientId: caller.clientId ?? null,
      via: ctx.via,
      source: ctx.cli ? 'cli' : ctx.via === 'mcp' ? 'mcp' : 'rest',
      keyId: isApiKeyCaller(caller) ? (caller.credentialId ?? null) : null,
      scriptExcerpt: excerpt,
      scriptLines: lines,
      mode,
      scriptSha256: scriptHash(source),
      ok: result.ok,
      errorType: result.error?.type ?? null,
      errorCode: result.error?.code ?? null,
      errorMessage: result.error ? [...maskSecrets(result.error.message)].slice(0, ERROR_MESSAGE_CHARS).join('') : null,
      errorLine: result.error?.line ?? null,
      wallMs: result.stats.wallMs,
      cpuMs: result.stats.cpuMs,
      hostCalls: result.stats.hostCalls,
    },
    ctx.deps.clock.now(),
  );
}
