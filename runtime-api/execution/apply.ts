// mode "apply": the planned script runs again inside one database transaction, which commits only if its writes,
// each checked against the plan's write at its position when dispatched, are exactly the planned ones and none is
// still running at the end. Mail the writes send is held until the commit. A plan token applies once: the commit
// records it, and a token already applied is refused (409 plan_already_applied) before its script runs again.
import { createHash } from 'node:crypto';
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
import { planAlreadyApplied, unplannedWrite, writesChanged, writesInFlightMessage } from './messages.ts';
import { findAppliedPlan, recordAppliedPlan, type AppliedPlanKey } from '../store/applied-plans.ts';

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

/** The plan's answer when its token was applied before: refused, saying when and that its writes are in. */
async function appliedBefore(sql: Sql, key: AppliedPlanKey): Promise<ServiceError | null> {
  const earlier = await findAppliedPlan(sql, key);
  return earlier && planAlreadyApplied(earlier.writes, earlier.appliedAt);
}

export async function applyScript(ctx: ExecuteContext, caller: Caller, source: string, planToken: string): Promise<ExecuteOutcome> {
  requireSomeScope(ctx, caller);
  const key: AppliedPlanKey = { id: createHash('sha256').update(planToken).digest('hex'), orgId: caller.membership!.orgId, userId: caller.userId };
  // Before the token's other checks: a spent token is told so even once it has expired.
  const spent = await appliedBefore(ctx.deps.sql, key);
  if (spent) throw spent;
  const plan = await verifyPlan(ctx.keys, planToken, { org: key.orgId, user: key.userId, source }, ctx.deps.clock.now());
  const release = await acquireApply(key.orgId);
  try {
    return await applyInTransaction(ctx, caller, source, plan, key);
  } catch (err) {
    // A concurrent apply of the same token committed first: that, not how this run ended, is the answer.
    throw (await appliedBefore(ctx.deps.sql, key).catch(() => null)) ?? err;
  } finally {
    release();
  }
}

type Verdict = 'commit' | 'rollback' | 'conflict';

/**
 * The transaction opens only once the script has an isolate (the engine's onStart): a script waiting in the queue
 * holds no connection. Bindings wait for it; once every call has settled, the outcome decides commit or rollback.
 */
async function applyInTransaction(ctx: ExecuteContext, caller: Caller, source: string, plan: VerifiedPlan, key: AppliedPlanKey): Promise<ExecuteOutcome> {
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
      // Committed with the writes, or not at all: a second apply of this token waits here for this one's outcome.
      const earlier = await recordAppliedPlan(t as unknown as Sql, key, operations.length, ctx.deps.clock.now());
      if (earlier) throw planAlreadyApplied(earlier.writes, earlier.appliedAt);
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
      const spent = await appliedBefore(ctx.deps.sql, key);
      if (spent) throw spent;
      return { ...result, operations, applied: false };
    }
    throw err;
  }
  await mail.release();
  await audit(ctx, caller, 'apply', source, result);
  return { ...result, operations, applied: true };
}
