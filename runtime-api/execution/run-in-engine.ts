// The step every mode shares: hand the script to the engine with the execution's binding calls, then shut the calls
// off. A full pool or a quarantine is the service's answer to the request, not the script's outcome.
import type { ExecutionResult } from '../../engine/index.ts';
import type { Caller } from '../identity/caller.ts';
import { BINDINGS, findBinding } from '../registry.ts';
import type { ExecuteContext } from './context.ts';
import type { ExecutionCalls } from './execution-calls.ts';
import type { ExecuteOutcome } from './result.ts';
import { engineBusy, engineQuarantined } from './messages.ts';

const BINDING_NAMES = BINDINGS.map((b) => b.name);
/** Reads: an execution that made only these calls may run again if its sandbox process dies for another's script. */
const READ_ONLY_NAMES = BINDINGS.filter((b) => !b.writes).map((b) => b.name);

/**
 * A full pool is the service's condition, not the script's: it answers 503 engine_busy with Retry-After. An
 * organization or a person in quarantine (their scripts kept crashing sandbox processes) gets 429 engine_quarantined.
 */
function throwIfBusy(result: ExecuteOutcome): ExecuteOutcome {
  if (result.error?.type === 'engine_busy') {
    throw engineBusy();
  }
  if (result.error?.type === 'quarantined') {
    // The engine says how long the cool-down lasts ("... for another N s"): the client is told when to come back.
    const seconds = /(\d+) s\b/.exec(result.error.message)?.[1] ?? '60';
    throw engineQuarantined(seconds);
  }
  return result;
}

/**
 * Run the script with these calls, then shut the calls off (waiting for those still running), and say how many
 * writes the script left running at its end.
 */
export async function runInEngine(ctx: ExecuteContext, caller: Caller, source: string, calls: ExecutionCalls, onStart?: () => void) {
  let result: ExecutionResult;
  try {
    result = await ctx.engine.execute({
      source,
      bindings: BINDING_NAMES,
      repeatable: READ_ONLY_NAMES,
      tenant: caller.membership!.orgId,
      person: caller.userId,
      hostCall: calls.hostCall,
      ...(onStart ? { onStart } : {}),
    });
  } catch (err) {
    await calls.end();
    throw err;
  }
  const { writesInFlight } = await calls.end();
  // A write the script left unanswered at its end counts even when it completed before the engine's answer reached
  // us (with host processes it often has): the isolate's view decides, so the outcome never depends on that race.
  const { unansweredCalls, ...answer } = result;
  const unansweredWrites = (unansweredCalls ?? []).filter((name) => findBinding(name)?.writes).length;
  return { result: throwIfBusy(answer), writesInFlight: Math.max(writesInFlight, unansweredWrites) };
}
