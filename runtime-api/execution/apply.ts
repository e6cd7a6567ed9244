// mode "apply": the planned script runs again inside one database transaction, which commits only if its writes,
// each checked against the plan's write at its position when dispatched, are exactly the planned ones and none is
// still running at the end. Mail the writes send is held until the commit.
import type { Sql } from 'postgres';
import type { Caller } from '../identity/caller.ts';
import type { ServiceError, Locale } from '../errors.ts';
import type { ExecuteContext } from './context.ts';
import { ExecutionCalls, type Recorder } from './execution-calls.ts';
import { runInEngine } from './run-in-engine.ts';
import { requireSomeScope, uncaughtScopeError } from './scope-refusals.ts';
import { audit } from './audit.ts';
import { isPlannedWrite, matchesPlan, verifyPlan, type VerifiedPlan } from './plan-token.ts';
import { acquireApply } from './apply-slots.ts';
import { holdMail } from './held-mail.ts';
import type { ExecuteOutcome, PlannedOperation } from './result.ts';
import { unplannedWrite, writesChanged, writesInFlightMessage } from './messages.ts';

/** postgres.js transactions nest with savepoint(), not begin(): give bindings a handle where begin() nests. */
function nestable(tx: Sql): Sql {
  const handle = ((...args: unknown[]) => (tx as unknown as (...a: unknown[]) => unknown)(...args)) as unknown as Sql;
  Object.assign(handle, tx);
  (handle as unknown as { begin: unknown }).begin = (...args: unknown[]) => (tx as unknown as { savepoint: (...a: unknown[]) => unknown }).savepoint(...args);
  return handle;
}

/** A script that returned while writes it started were still running: its outcome cannot be the plan's. */
function writeInFlight(result: ExecuteOutcome, count: number, locale: Locale): ExecuteOutcome {
  return { ...result, ok: false, result: null, error: { type: 'script_error', code: 'write_in_flight', message: writesInFlightMessage(count, locale) } };
}

export async function applyScript(ctx: ExecuteContext, caller: Caller, source: string, planToken: string): Promise<ExecuteOutcome> {
  requireSomeScope(ctx, caller);
  const plan = await verifyPlan(ctx.keys, planToken, { org: caller.membership!.orgId, user: caller.userId, source }, ctx.deps.clock.now());
  const release = await acquireApply(caller.membership!.orgId);
  try {
    return await applyInTransaction(ctx, caller, source, plan);
  } finally {
    release();
  }
}

type Verdict = 'commit' | 'rollback' | 'conflict';

/**
 * The transaction opens only once the script has an isolate (the engine's onStart): a script waiting in the queue
 * holds no connection. Bindings wait for it; once every call has settled, the outcome decides commit or rollback.
 */
async function applyInTransaction(ctx: ExecuteContext, caller: Caller, source: string, plan: VerifiedPlan): Promise<ExecuteOutcome> {
  const operations: PlannedOperation[] = [];
  let refused: ServiceError | null = null;
  const record: Recorder = (binding, input) => {
    const index = operations.push({ index: operations.length, binding, input }) - 1;
    if (!isPlannedWrite(plan, index, binding, input)) {
      throw (refused ??= unplannedWrite(index, binding));
    }
    return index;
  };
  const mail = holdMail(ctx.deps.services.mailer);
  class Rollback extends Error {}
  let txReady!: (tx: Sql) => void;
  let txFailed!: (err: unknown) => void;
  const tx = new Promise<Sql>((resolve, reject) => {
    txReady = resolve;
    txFailed = reject;
  });
  tx.catch(() => {});
  let decide!: (verdict: Verdict) => void;
  const decided = new Promise<Verdict>((resolve) => {
    decide = resolve;
  });
  let transaction: Promise<unknown> | null = null;
  const open = () => {
    transaction = ctx.deps.sql.begin(async (t) => {
      txReady(nestable(t as unknown as Sql));
      const verdict = await decided;
      // A refused write decides the answer even when the script then failed on it (or on anything else).
      if (refused) throw refused;
      if (verdict === 'rollback') throw new Rollback();
      if (verdict === 'conflict') {
        throw writesChanged(plan.n, operations.length);
      }
    });
    transaction.catch(txFailed);
  };
  const services = { ...ctx.deps.services, mailer: mail };
  const calls = new ExecutionCalls(
    caller,
    tx.then((sql) => ({ ...ctx.deps, sql, services })),
    { dispatched: record, serial: true },
  );
  let result: ExecuteOutcome;
  try {
    // Every call has settled when this returns: none runs on the transaction after its commit or rollback.
    const ran = await runInEngine(ctx, caller, source, calls, open);
    result = ran.result;
    if (result.ok && ran.writesInFlight > 0) result = writeInFlight(result, ran.writesInFlight, caller.locale);
  } catch (err) {
    decide('rollback'); // refused (busy, quarantined) or failed: an open transaction rolls back
    await (transaction as Promise<unknown> | null)?.catch(() => {});
    throw err;
  }
  decide(!result.ok ? 'rollback' : matchesPlan(plan, operations) ? 'commit' : 'conflict');
  try {
    if (!transaction) throw new Rollback(); // it never started: nothing was opened
    await transaction;
  } catch (err) {
    await audit(ctx, caller, 'apply', source, {
      ...result,
      ok: false,
      error: result.error ?? { type: 'tool_error', code: 'conflict', message: 'plan mismatch' },
    });
    if (err instanceof Rollback) {
      const denied = uncaughtScopeError(ctx, calls, result);
      if (denied) throw denied;
      return { ...result, operations, applied: false };
    }
    throw err;
  }
  await mail.release();
  await audit(ctx, caller, 'apply', source, result);
  return { ...result, operations, applied: true };
}
