// mode "plan": the script runs with every write recorded instead of performed; a script that ends well gets the
// ordered operations and a signed plan token to apply them with.
import type { Caller } from '../identity/caller.ts';
import type { ExecuteContext } from './context.ts';
import { ExecutionCalls, type Recorder } from './execution-calls.ts';
import { runInEngine } from './run-in-engine.ts';
import { requireSomeScope, uncaughtScopeError } from './scope-refusals.ts';
import { audit } from './audit.ts';
import { signPlan } from './plan-token.ts';
import type { ExecuteOutcome, PlannedOperation } from './result.ts';

export async function planScript(ctx: ExecuteContext, caller: Caller, source: string): Promise<ExecuteOutcome> {
  requireSomeScope(ctx, caller);
  const operations: PlannedOperation[] = [];
  const record: Recorder = (binding, input) => operations.push({ index: operations.length, binding, input }) - 1;
  const calls = new ExecutionCalls(caller, ctx.deps, { plan: record });
  const { result } = await runInEngine(ctx, caller, source, calls);
  await audit(ctx, caller, 'plan', source, result);
  const denied = uncaughtScopeError(ctx, calls, result);
  if (denied) throw denied;
  if (!result.ok) return { ...result, operations };
  const planToken = await signPlan(ctx.keys.active(), { org: caller.membership!.orgId, user: caller.userId, source, operations }, ctx.deps.clock.now());
  return { ...result, operations, planToken };
}
