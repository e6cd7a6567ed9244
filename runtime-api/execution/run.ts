// mode "run": the script runs and its writes are performed as it makes them.
import type { Caller } from '../identity/caller.ts';
import type { ExecuteContext } from './context.ts';
import { ExecutionCalls } from './execution-calls.ts';
import { runInEngine } from './run-in-engine.ts';
import { requireSomeScope, uncaughtScopeError } from './scope-refusals.ts';
import { audit } from './audit.ts';
import type { ExecuteOutcome } from './result.ts';

export async function runScript(ctx: ExecuteContext, caller: Caller, source: string): Promise<ExecuteOutcome> {
  requireSomeScope(ctx, caller);
  const calls = new ExecutionCalls(caller, ctx.deps);
  const { result } = await runInEngine(ctx, caller, source, calls);
  await audit(ctx, caller, 'run', source, result);
  const denied = uncaughtScopeError(ctx, calls, result);
  if (denied) throw denied;
  return result;
}
