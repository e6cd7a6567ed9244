// Running a script as a caller, in one of three modes: the one dispatch behind /app/v1/execute and the MCP execute
// tool. The engine executes the script, every binding call goes through `invoke` as the execution's caller, and the
// run is written to the audit log. An uncaught scope refusal is 403 INSUFFICIENT_SCOPE whichever face ran it.
import type { Caller } from '../identity/caller.ts';
import type { ExecuteContext } from './context.ts';
import type { ExecuteRequest } from './input.ts';
import type { ExecuteOutcome } from './result.ts';
import { runScript } from './run.ts';
import { planScript } from './plan.ts';
import { applyScript } from './apply.ts';
import { planTokenMissing } from './messages.ts';

export async function executeInMode(ctx: ExecuteContext, caller: Caller, request: ExecuteRequest): Promise<ExecuteOutcome> {
  if (request.mode === 'apply') {
    if (!request.planToken) throw planTokenMissing();
    return applyScript(ctx, caller, request.script, request.planToken);
  }
  if (request.mode === 'plan') return planScript(ctx, caller, request.script);
  return runScript(ctx, caller, request.script);
}
