// Running a script as a caller: the engine executes it, every binding call goes through `invoke` with the
// execution's caller, and the run is written to the audit log. Plan mode records write bindings instead of
// performing them and signs the ordered operations; apply re-runs the script in one transaction and commits only
// if its writes, counted when dispatched, are exactly the planned ones and none is still running at the end.
// An uncaught scope refusal is 403 INSUFFICIENT_SCOPE whichever face ran the script.
import { createHash } from 'node:crypto';
import { SignJWT, jwtVerify, decodeProtectedHeader } from 'jose';
import type { Sql } from 'postgres';
import type { Caller } from '../identity/caller.ts';
import type { InvokeDeps } from '../invoke.ts';
import { BINDINGS, findBinding } from '../registry.ts';
import { ServiceError, conflict, l10n, type Locale } from '../errors.ts';
import { auditLogFor } from './audit-log.ts';
import { acquireApply } from './apply-slots.ts';
import type { SigningKeys } from '../identity/signing-keys.ts';
import type { ScriptEngine, ExecutionResult } from '../engine-port.ts';
import { ExecutionCalls, type CallPolicy, type Recorder } from './execution-calls.ts';
import { holdMail } from './held-mail.ts';

export { hostError } from './execution-calls.ts';

export type ExecuteMode = 'run' | 'plan' | 'apply';

export interface PlannedOperation {
  index: number;
  binding: string;
  input: unknown;
}

export interface ExecuteContext {
  engine: ScriptEngine;
  deps: InvokeDeps;
  keys: SigningKeys;
  via: 'mcp' | 'app';
  /**
   * The error for a script that ended on an uncaught scope refusal (spec 5.5: 403 INSUFFICIENT_SCOPE on every
   * face); a face may add its own headers (MCP: the step-up WWW-Authenticate). Default: the binding's refusal.
   */
  scopeError?: (refusal: ServiceError) => ServiceError;
}

export interface ExecuteOutcome extends ExecutionResult {
  operations?: PlannedOperation[];
  planToken?: string;
  applied?: boolean;
}

const PLAN_TTL_SECONDS = 15 * 60;
const BINDING_NAMES = BINDINGS.map((b) => b.name);
/** Reads: an execution that made only these calls may run again if its sandbox process dies for another's script. */
const READ_ONLY_NAMES = BINDINGS.filter((b) => !b.writes).map((b) => b.name);

export function scriptHash(source: string): string {
  return createHash('sha256').update(source).digest('hex');
}

function operationsHash(ops: readonly PlannedOperation[]): string {
  return createHash('sha256').update(JSON.stringify(ops.map((o) => [o.binding, o.input]))).digest('hex');
}

/**
 * Each planned write's short digest, in order, concatenated: the apply checks every write against its planned
 * digest before running it, so a write the plan never held is refused, not performed and rolled back (mail or
 * blobs would outlive the rollback). 8 bytes each keeps a 1,000-write plan's token under 16 KB; the full
 * operationsHash still decides at the end.
 */
const DIGEST_BYTES = 8;
function operationDigest(binding: string, input: unknown): string {
  return createHash('sha256').update(JSON.stringify([binding, input])).digest().subarray(0, DIGEST_BYTES).toString('base64url');
}
const DIGEST_CHARS = operationDigest('', null).length;

/** postgres.js transactions nest with savepoint(), not begin(): give bindings a handle where begin() nests. */
function nestable(tx: Sql): Sql {
  const handle = ((...args: unknown[]) => (tx as unknown as (...a: unknown[]) => unknown)(...args)) as unknown as Sql;
  Object.assign(handle, tx);
  (handle as unknown as { begin: unknown }).begin = (...args: unknown[]) => (tx as unknown as { savepoint: (...a: unknown[]) => unknown }).savepoint(...args);
  return handle;
}

/**
 * A full pool is the service's condition, not the script's: it answers 503 engine_busy with Retry-After. An
 * organization or a person in quarantine (their scripts kept crashing sandbox processes) gets 429 engine_quarantined.
 */
function throwIfBusy(result: ExecutionResult): ExecutionResult {
  if (result.error?.type === 'engine_busy') {
    throw new ServiceError('engine_busy', { resolution: l10n('Every sandbox is busy and the queue is full; retry in a moment.', 'Todas as sandboxes estão ocupadas e a fila está cheia; tente de novo em instantes.'), headers: { 'Retry-After': '1' } });
  }
  if (result.error?.type === 'quarantined') {
    // The engine says how long the cool-down lasts ("... for another N s"): the client is told when to come back.
    const seconds = /(\d+) s\b/.exec(result.error.message)?.[1] ?? '60';
    throw new ServiceError('engine_quarantined', {
      resolution: l10n(`Scripts of this organization or of your account crashed the sandbox several times; retry in ${seconds} s with a script that stays within its limits.`,
        `Scripts desta organização ou da sua conta derrubaram a sandbox várias vezes; tente de novo em ${seconds} s com um script que respeite os limites.`),
      headers: { 'Retry-After': seconds },
    });
  }
  return result;
}

async function audit(ctx: ExecuteContext, caller: Caller, mode: ExecuteMode, source: string, result: ExecutionResult): Promise<void> {
  auditLogFor(ctx.deps.sql).record({
    orgId: caller.membership!.orgId, userId: caller.userId, clientId: caller.clientId ?? null, via: ctx.via, mode,
    scriptSha256: scriptHash(source), ok: result.ok, errorType: result.error?.type ?? null, errorCode: result.error?.code ?? null,
    wallMs: result.stats.wallMs, cpuMs: result.stats.cpuMs, hostCalls: result.stats.hostCalls,
  }, ctx.deps.clock.now());
}

export interface ExecuteRequest { script: string; mode?: 'run' | 'plan' | 'apply'; planToken?: string }

/** Run, plan or apply: the one dispatch behind /app/v1/execute and the MCP execute tool. */
export async function executeInMode(ctx: ExecuteContext, caller: Caller, request: ExecuteRequest): Promise<ExecuteOutcome> {
  if (request.mode === 'apply') {
    if (!request.planToken) throw new ServiceError('invalid_input', {
      resolution: l10n('`planToken`: required with mode "apply"; take it from the plan response.', '`planToken`: obrigatório com mode "apply"; use o da resposta do plano.'),
    });
    return applyScript(ctx, caller, request.script, request.planToken);
  }
  if (request.mode === 'plan') return planScript(ctx, caller, request.script);
  return runScript(ctx, caller, request.script);
}


/**
 * Run the script with these calls, then shut the calls off (waiting for those still running). An uncaught scope
 * refusal is the request's failure, not the script's: 403 INSUFFICIENT_SCOPE, whatever the face.
 */
async function execute(ctx: ExecuteContext, caller: Caller, source: string, calls: ExecutionCalls, onStart?: () => void) {
  let result: ExecutionResult;
  try {
    result = await ctx.engine.execute({ source, bindings: BINDING_NAMES, repeatable: READ_ONLY_NAMES, tenant: caller.membership!.orgId, person: caller.userId, hostCall: calls.hostCall, ...(onStart ? { onStart } : {}) });
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

function uncaughtScopeError(ctx: ExecuteContext, calls: ExecutionCalls, result: ExecutionResult): ServiceError | null {
  if (result.ok || result.error?.type !== 'tool_error' || result.error.code !== 'INSUFFICIENT_SCOPE' || !calls.scopeError) return null;
  return ctx.scopeError ? ctx.scopeError(calls.scopeError) : calls.scopeError;
}

/** A token whose effective scopes are empty (none granted, or a ceiling of none) may not run scripts at all. */
function requireSomeScope(ctx: ExecuteContext, caller: Caller): void {
  if (!caller.membership) throw new ServiceError('ORGANIZATION_MEMBERSHIP_REQUIRED');
  if (caller.kind !== 'token' || caller.scopes.length > 0) return;
  const refusal = new ServiceError('INSUFFICIENT_SCOPE', {
    resolution: l10n('This access token holds no usable scope (the organization\'s maxScopes may exclude them all); request a token with at least files:read.',
      'Este token de acesso não tem escopo utilizável (o maxScopes da organização pode excluir todos); peça um token com pelo menos files:read.'),
    details: { requiredScope: 'files:read' },
  });
  throw ctx.scopeError ? ctx.scopeError(refusal) : refusal;
}

function newCalls(caller: Caller, ctx: ExecuteContext, policy?: CallPolicy, deps: InvokeDeps | Promise<InvokeDeps> = ctx.deps) {
  return new ExecutionCalls(caller, deps, policy);
}

export async function runScript(ctx: ExecuteContext, caller: Caller, source: string): Promise<ExecuteOutcome> {
  requireSomeScope(ctx, caller);
  const calls = newCalls(caller, ctx);
  const { result } = await execute(ctx, caller, source, calls);
  await audit(ctx, caller, 'run', source, result);
  const denied = uncaughtScopeError(ctx, calls, result);
  if (denied) throw denied;
  return result;
}

export async function planScript(ctx: ExecuteContext, caller: Caller, source: string): Promise<ExecuteOutcome> {
  requireSomeScope(ctx, caller);
  const operations: PlannedOperation[] = [];
  const record: Recorder = (binding, input) => operations.push({ index: operations.length, binding, input }) - 1;
  const calls = newCalls(caller, ctx, { plan: record });
  const { result } = await execute(ctx, caller, source, calls);
  await audit(ctx, caller, 'plan', source, result);
  const denied = uncaughtScopeError(ctx, calls, result);
  if (denied) throw denied;
  if (!result.ok) return { ...result, operations };
  const key = ctx.keys.active();
  const now = Math.floor(ctx.deps.clock.now().getTime() / 1000);
  const seq = operations.map((o) => operationDigest(o.binding, o.input)).join('');
  const planToken = await new SignJWT({ org: caller.membership!.orgId, script: scriptHash(source), ops: operationsHash(operations), n: operations.length, seq })
    .setProtectedHeader({ alg: 'ES256', typ: 'plan+jwt', kid: key.kid })
    .setSubject(caller.userId)
    .setIssuedAt(now)
    .setExpirationTime(now + PLAN_TTL_SECONDS)
    .sign(key.privateKey);
  return { ...result, operations, planToken };
}

async function verifyPlan(ctx: ExecuteContext, caller: Caller, source: string, planToken: string) {
  const invalid = (why: string, whyPt: string) => new ServiceError('invalid_input', {
    resolution: l10n(`\`planToken\`: ${why}; run the script with mode "plan" again.`, `\`planToken\`: ${whyPt}; execute o script com mode "plan" de novo.`),
  });
  let kid: string | undefined;
  try { kid = decodeProtectedHeader(planToken).kid; } catch { throw invalid('not a plan token', 'não é um token de plano'); }
  const key = kid ? await ctx.keys.find(kid) : undefined;
  if (!key) throw invalid('signed by an unknown key', 'assinado por uma chave desconhecida');
  let payload;
  try {
    ({ payload } = await jwtVerify(planToken, key.publicKey, { algorithms: ['ES256'], typ: 'plan+jwt', currentDate: ctx.deps.clock.now() }));
  } catch {
    throw invalid('invalid or expired (plans are valid 15 minutes)', 'inválido ou expirado (planos valem 15 minutos)');
  }
  if (payload.org !== caller.membership!.orgId || payload.sub !== caller.userId) throw invalid('planned by another user or organization', 'planejado por outro usuário ou organização');
  if (payload.script !== scriptHash(source)) {
    throw conflict(l10n('The script differs from the planned one.', 'O script difere do planejado.'),
      l10n('Apply exactly the planned script, or plan this one.', 'Aplique exatamente o script planejado, ou planeje este.'));
  }
  return { ops: payload.ops as string, n: payload.n as number, seq: typeof payload.seq === 'string' ? payload.seq : '' };
}

/** The apply's refusal of a write that is not the plan's write at its position; nothing of it ran. */
function unplannedWrite(index: number, binding: string): ServiceError {
  return conflict(
    l10n(`Write #${index + 1} (${binding}) is not the planned write #${index + 1}; it was not run and nothing was applied.`,
      `A escrita nº ${index + 1} (${binding}) não é a escrita planejada nº ${index + 1}; ela não foi executada e nada foi aplicado.`),
    l10n('Plan again and review.', 'Planeje de novo e revise.'),
    { details: { index, binding } });
}

/** A script that returned while writes it started were still running: its outcome cannot be the plan's. */
function writeInFlight(result: ExecutionResult, count: number, locale: Locale): ExecutionResult {
  const message = locale === 'pt-BR'
    ? `O script terminou com ${count} escrita(s) iniciada(s) por ele ainda em andamento; aguarde (await) cada escrita. Nada foi aplicado.`
    : `The script ended while ${count} write${count === 1 ? ' it started was' : 's it started were'} still running; await every write. Nothing was applied.`;
  return { ...result, ok: false, result: null, error: { type: 'script_error', code: 'write_in_flight', message } };
}

export async function applyScript(ctx: ExecuteContext, caller: Caller, source: string, planToken: string): Promise<ExecuteOutcome> {
  requireSomeScope(ctx, caller);
  const plan = await verifyPlan(ctx, caller, source, planToken);
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
async function applyInTransaction(ctx: ExecuteContext, caller: Caller, source: string, plan: { ops: string; n: number; seq: string }): Promise<ExecuteOutcome> {
  const operations: PlannedOperation[] = [];
  let refused: ServiceError | null = null;
  const record: Recorder = (binding, input) => {
    const index = operations.push({ index: operations.length, binding, input }) - 1;
    if (plan.seq.slice(index * DIGEST_CHARS, (index + 1) * DIGEST_CHARS) !== operationDigest(binding, input)) {
      throw (refused ??= unplannedWrite(index, binding));
    }
    return index;
  };
  const mail = holdMail(ctx.deps.services.mailer);
  class Rollback extends Error {}
  let txReady!: (tx: Sql) => void;
  let txFailed!: (err: unknown) => void;
  const tx = new Promise<Sql>((resolve, reject) => { txReady = resolve; txFailed = reject; });
  tx.catch(() => {});
  let decide!: (verdict: Verdict) => void;
  const decided = new Promise<Verdict>((resolve) => { decide = resolve; });
  let transaction: Promise<unknown> | null = null;
  const open = () => {
    transaction = ctx.deps.sql.begin(async (t) => {
      txReady(nestable(t as unknown as Sql));
      const verdict = await decided;
      // A refused write decides the answer even when the script then failed on it (or on anything else).
      if (refused) throw refused;
      if (verdict === 'rollback') throw new Rollback();
      if (verdict === 'conflict') {
        throw conflict(l10n(`The script's writes changed since it was planned (${plan.n} planned, ${operations.length} now); nothing was applied.`,
          `As escritas do script mudaram desde o planejamento (${plan.n} planejadas, ${operations.length} agora); nada foi aplicado.`),
        l10n('Plan again and review.', 'Planeje de novo e revise.'));
      }
    });
    transaction.catch(txFailed);
  };
  const services = { ...ctx.deps.services, mailer: mail };
  const calls = newCalls(caller, ctx, { dispatched: record, serial: true }, tx.then((sql) => ({ ...ctx.deps, sql, services })));
  let result: ExecutionResult;
  try {
    // Every call has settled when this returns: none runs on the transaction after its commit or rollback.
    const ran = await execute(ctx, caller, source, calls, open);
    result = ran.result;
    if (result.ok && ran.writesInFlight > 0) result = writeInFlight(result, ran.writesInFlight, caller.locale);
  } catch (err) {
    decide('rollback'); // refused (busy, quarantined) or failed: an open transaction rolls back
    await (transaction as Promise<unknown> | null)?.catch(() => {});
    throw err;
  }
  decide(!result.ok ? 'rollback' : operations.length !== plan.n || operationsHash(operations) !== plan.ops ? 'conflict' : 'commit');
  try {
    if (!transaction) throw new Rollback(); // it never started: nothing was opened
    await transaction;
  } catch (err) {
    await audit(ctx, caller, 'apply', source, { ...result, ok: false, error: result.error ?? { type: 'tool_error', code: 'conflict', message: 'plan mismatch' } });
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
