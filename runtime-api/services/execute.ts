// Running a script as a caller: the engine executes it, every binding call goes through `invoke` with the
// execution's caller, and the run is written to the audit log. Plan mode records write bindings instead of
// performing them and signs the ordered operations; apply re-runs the script in one transaction and commits only
// if its writes are exactly the planned ones.
import { createHash } from 'node:crypto';
import { SignJWT, jwtVerify, decodeProtectedHeader } from 'jose';
import type { Sql } from 'postgres';
import type { Caller } from '../caller.ts';
import type { InvokeDeps } from '../invoke.ts';
import { invoke, authorize, parseInput } from '../invoke.ts';
import { BINDINGS, findBinding } from '../registry.ts';
import { ServiceError, conflict, l10n, type Locale } from '../errors.ts';
import { auditLogFor } from './audit-log.ts';
import type { SigningKeys } from './signing-keys.ts';
import type { ScriptEngine, ExecutionResult, HostResult } from '../engine-port.ts';

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
  /** Told of every binding failure (the MCP endpoint turns an uncaught missing scope into a 403 step-up). */
  onBindingError?: (err: ServiceError) => void;
}

export interface ExecuteOutcome extends ExecutionResult {
  operations?: PlannedOperation[];
  planToken?: string;
  applied?: boolean;
}

const PLAN_TTL_SECONDS = 15 * 60;
const BINDING_NAMES = BINDINGS.map((b) => b.name);

export function scriptHash(source: string): string {
  return createHash('sha256').update(source).digest('hex');
}

function operationsHash(ops: readonly PlannedOperation[]): string {
  return createHash('sha256').update(JSON.stringify(ops.map((o) => [o.binding, o.input]))).digest('hex');
}

/** A binding failure as the engine hands it to the script (an Error with code and resolution). */
export function hostError(err: unknown, locale: Locale): HostResult {
  const e = err instanceof ServiceError ? err : new ServiceError('internal_error', { cause: err });
  const body = e.toBody(locale) as { code?: string; message?: string; error?: { code: string; message: string; resolution: string } };
  const flat = body.error ?? { code: body.code!, message: body.message!, resolution: e.status < 500 ? e.resolutionFor(locale) : undefined };
  return { ok: false, error: { code: flat.code, message: flat.message, ...(flat.resolution ? { resolution: flat.resolution } : {}) } };
}

type Recorder = (binding: string, input: unknown) => number;

function hostCallFor(caller: Caller, deps: InvokeDeps, plan: Recorder | null, applied: Recorder | null, onError?: (err: ServiceError) => void) {
  return async (name: string, argsJson: string): Promise<HostResult> => {
    const binding = findBinding(name);
    try {
      if (!binding) throw new ServiceError('not_found', { resolution: l10n(`There is no binding ${name}.`, `Não existe o binding ${name}.`) });
      const raw = argsJson === '' ? null : JSON.parse(argsJson);
      if (binding.writes && plan) {
        authorize(binding, caller);
        const index = plan(binding.name, parseInput(binding, raw, caller.locale));
        return { ok: true, json: JSON.stringify({ planned: true, index }) };
      }
      const out = await invoke(binding, raw, caller, deps);
      if (binding.writes && applied) applied(binding.name, parseInput(binding, raw, caller.locale));
      return { ok: true, json: JSON.stringify(out ?? null) };
    } catch (err) {
      if (err instanceof ServiceError) onError?.(err);
      return hostError(err, caller.locale);
    }
  };
}

/** postgres.js transactions nest with savepoint(), not begin(): give bindings a handle where begin() nests. */
function nestable(tx: Sql): Sql {
  const handle = ((...args: unknown[]) => (tx as unknown as (...a: unknown[]) => unknown)(...args)) as unknown as Sql;
  Object.assign(handle, tx);
  (handle as unknown as { begin: unknown }).begin = (...args: unknown[]) => (tx as unknown as { savepoint: (...a: unknown[]) => unknown }).savepoint(...args);
  return handle;
}

/** A full pool is the service's condition, not the script's: it answers 503 engine_busy with Retry-After. */
function throwIfBusy(result: ExecutionResult): ExecutionResult {
  if (result.error?.type === 'engine_busy') {
    throw new ServiceError('engine_busy', { resolution: l10n('Every sandbox is busy and the queue is full; retry in a moment.', 'Todas as sandboxes estão ocupadas e a fila está cheia; tente de novo em instantes.'), headers: { 'Retry-After': '1' } });
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

export async function runScript(ctx: ExecuteContext, caller: Caller, source: string): Promise<ExecuteOutcome> {
  if (!caller.membership) throw new ServiceError('ORGANIZATION_MEMBERSHIP_REQUIRED');
  const result = throwIfBusy(await ctx.engine.execute({ source, bindings: BINDING_NAMES, tenant: caller.membership.orgId, hostCall: hostCallFor(caller, ctx.deps, null, null, ctx.onBindingError) }));
  await audit(ctx, caller, 'run', source, result);
  return result;
}

export async function planScript(ctx: ExecuteContext, caller: Caller, source: string): Promise<ExecuteOutcome> {
  if (!caller.membership) throw new ServiceError('ORGANIZATION_MEMBERSHIP_REQUIRED');
  const operations: PlannedOperation[] = [];
  const record: Recorder = (binding, input) => operations.push({ index: operations.length, binding, input }) - 1;
  const result = throwIfBusy(await ctx.engine.execute({ source, bindings: BINDING_NAMES, tenant: caller.membership.orgId, hostCall: hostCallFor(caller, ctx.deps, record, null, ctx.onBindingError) }));
  await audit(ctx, caller, 'plan', source, result);
  if (!result.ok) return { ...result, operations };
  const key = ctx.keys.active();
  const now = Math.floor(ctx.deps.clock.now().getTime() / 1000);
  const planToken = await new SignJWT({ org: caller.membership.orgId, script: scriptHash(source), ops: operationsHash(operations), n: operations.length })
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
  return { ops: payload.ops as string, n: payload.n as number };
}

export async function applyScript(ctx: ExecuteContext, caller: Caller, source: string, planToken: string): Promise<ExecuteOutcome> {
  if (!caller.membership) throw new ServiceError('ORGANIZATION_MEMBERSHIP_REQUIRED');
  const plan = await verifyPlan(ctx, caller, source, planToken);
  const operations: PlannedOperation[] = [];
  const record: Recorder = (binding, input) => operations.push({ index: operations.length, binding, input }) - 1;
  let result: ExecutionResult | undefined;
  class Rollback extends Error {}
  try {
    await ctx.deps.sql.begin(async (tx) => {
      const deps = { ...ctx.deps, sql: nestable(tx as unknown as Sql) };
      result = throwIfBusy(await ctx.engine.execute({ source, bindings: BINDING_NAMES, tenant: caller.membership!.orgId, hostCall: hostCallFor(caller, deps, null, record, ctx.onBindingError) }));
      if (!result.ok) throw new Rollback();
      if (operations.length !== plan.n || operationsHash(operations) !== plan.ops) {
        throw conflict(l10n(`The script's writes changed since it was planned (${plan.n} planned, ${operations.length} now); nothing was applied.`,
          `As escritas do script mudaram desde o planejamento (${plan.n} planejadas, ${operations.length} agora); nada foi aplicado.`),
        l10n('Plan again and review.', 'Planeje de novo e revise.'));
      }
    });
  } catch (err) {
    if (result) await audit(ctx, caller, 'apply', source, { ...result, ok: false, error: result.error ?? { type: 'tool_error', code: 'conflict', message: 'plan mismatch' } });
    if (err instanceof Rollback) return { ...result!, operations, applied: false };
    throw err;
  }
  await audit(ctx, caller, 'apply', source, result!);
  return { ...result!, operations, applied: true };
}
