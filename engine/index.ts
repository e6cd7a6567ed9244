// The engine's public face: createEngine(config) → {execute, stats, ready, close}. It validates a request,
// refuses oversize sources before compiling anything, and hands the rest to the pool. No HTTP, no SQL.
import { Execution, type HostCall } from './bridge.ts';
import { effectiveLimits, resolveConfig, type EngineConfig, type EngineLimits } from './limits.ts';
import { Pool, type SlotFactory } from './pool.ts';
import { principalsOf } from './principal.ts';
import { applyIsolateFlags } from './v8-flags.ts';
import { Slot } from './slot.ts';
import { HostSet, type HostStats } from './sandbox-process/host-set.ts';
import { assertHostCanCheck } from './compile.ts';
import { prepareScript } from './typescript.ts';
import { explainUnknownGlobal } from './hints.ts';
import { refusal, type ExecutionResult } from './result.ts';

export type { EngineConfig, EngineLimits } from './limits.ts';
export type { Strike, StrikeLedger } from './sandbox-process/quarantine.ts';
export type { HostCall, HostResult } from './bridge.ts';
export type { ErrorType, ExecutionError, ExecutionResult, ExecutionStats, LogEntry, LogLevel } from './result.ts';
export { ERROR_TYPES } from './result.ts';
export { MAX_RESULT_DEPTH } from './prelude.ts';

export interface ExecutionRequest {
  /** Body of an async function; `return` gives the result. */
  source: string;
  /** Names exposed as async globals, e.g. ['context', 'files_list']; snake_case. */
  bindings: readonly string[];
  /** Runs a binding for this execution's caller. Only JSON strings cross; `undefined` arrives as `null`. */
  hostCall: HostCall;
  /** Per-execution tightening of the configured limits (never loosening). */
  limits?: Partial<EngineLimits>;
  /**
   * Who the execution runs for (the server passes the organization id). While executions of other tenants wait,
   * one tenant runs at most `maxRunningPerTenant` at once: its long scripts cannot hold every isolate.
   */
  tenant?: string;
  /**
   * The person it runs for: the account behind the session, token or API key (for a key, the member who created
   * it). Every budget (share of isolates, queue share, CPU history, crash budget, quarantine) counts per person as
   * well as per organization, so creating organizations buys a person no more capacity; a suspect or unproven
   * person runs in the cordon, apart from others' work (pool.ts).
   */
  person?: string;
  /**
   * Called once the execution has an isolate, right before it runs (not for a refusal or an engine_busy): an apply
   * opens its database transaction here, so a script waiting in the queue holds no connection.
   */
  onStart?: () => void;
  /**
   * Bindings whose calls change nothing (reads). With host processes, an execution whose host dies for another
   * tenant's script and that called only these (or nothing) runs again from the start, unseen, instead of failing.
   */
  repeatable?: readonly string[];
}

export interface EngineStats {
  /** Configured pre-warmed slots; `slots` counts every slot, overflow ones included. */
  poolSize: number;
  /** Slots idle with a prepared context / running a script / building an isolate or context. */
  slots: { ready: number; busy: number; starting: number };
  queued: number;
  executions: number;
  busyRejections: number;
  /** Overflow slots added since start (see EngineConfig.maxPoolSize). */
  overflowSlots: number;
  /** Isolates currently alive (never more than maxPoolSize) and built since start. */
  isolatesLive: number;
  isolatesBuilt: number;
  /** Sum of `isolate.referenceCount` over live isolates: flat (beside cachedScripts) unless handles leak. */
  referenceCount: number;
  /** Compiled user scripts kept for reuse (each holds one reference); at most 64 per isolate. */
  cachedScripts: number;
  /** Isolate replacements by reason (timeout, memory_limit, abandoned_calls, max_executions, heap_high…). */
  recycled: Record<string, number>;
  catastrophicErrors: number;
  /**
   * Sandbox host processes (absent with `hosts: 0`): up / started and not yet answering, deaths by reason (fatal,
   * memory, heartbeat, killed, abort, segfault, exit, protocol), replacements started, tenants in quarantine, and each
   * host's resident memory as last sampled.
   */
  hosts?: HostStats;
}

export interface Engine {
  execute(request: ExecutionRequest): Promise<ExecutionResult>;
  /** Resolves when every slot is idle with a prepared context (all pre-warmed). */
  ready(): Promise<void>;
  stats(): EngineStats;
  /** Refuses queued work, ends running executions as internal_error, disposes every isolate. */
  close(): Promise<void>;
}

const REQUEST_KEYS = new Set(['source', 'bindings', 'hostCall', 'limits', 'tenant', 'person', 'onStart', 'repeatable']);
const BINDING_NAME = /^[a-z][a-z0-9_]*$/;
/** Globals the prelude itself defines; a binding must not shadow them. */
const RESERVED = new Set(['console']);

/** isolated-vm crashes the process when isolates come from different snapshots (research A1). */
function assertNoNodeSnapshot(): void {
  const flags = [...process.execArgv, ...(process.env.NODE_OPTIONS ?? '').split(/\s+/)];
  if (!flags.includes('--no-node-snapshot')) {
    throw new Error('the script engine needs node to run with --no-node-snapshot (isolated-vm requirement)');
  }
}

function validate(request: ExecutionRequest): string | null {
  if (!request || typeof request !== 'object') return 'the request must be an object';
  for (const key of Object.keys(request)) {
    // cachedData, snapshot, inspector…: the engine has no such option, and asking for one is a bug.
    if (!REQUEST_KEYS.has(key)) return `unknown request option ${key}`;
  }
  if (typeof request.source !== 'string') return 'source must be a string';
  if (typeof request.hostCall !== 'function') return 'hostCall must be a function';
  if (request.onStart !== undefined && typeof request.onStart !== 'function') return 'onStart must be a function';
  if (!Array.isArray(request.bindings)) return 'bindings must be an array';
  if (request.repeatable !== undefined && (!Array.isArray(request.repeatable) || request.repeatable.some((n) => typeof n !== 'string'))) {
    return 'repeatable must be an array of binding names';
  }
  if (request.tenant !== undefined && (typeof request.tenant !== 'string' || request.tenant.length > 200))
    return 'tenant must be a string of at most 200 characters';
  if (request.person !== undefined && (typeof request.person !== 'string' || request.person.length > 200))
    return 'person must be a string of at most 200 characters';
  for (const name of request.bindings) {
    if (typeof name !== 'string' || !BINDING_NAME.test(name) || RESERVED.has(name)) return `invalid binding name ${String(name)}`;
  }
  return null;
}

/** The refusal of an execution whose organization or person is in quarantine, or null (a caller naming neither: never). */
function quarantined(hosts: HostSet, ex: Execution, named: boolean): ExecutionResult | null {
  if (!named) return null;
  const [org, person] = principalsOf(ex).map((p) => hosts.quarantine.remainingMs(p));
  const coolDown = Math.max(org, person ?? 0);
  if (coolDown <= 0) return null;
  const whose = org >= (person ?? 0) ? 'Scripts of this organization' : 'Scripts run by this account';
  return refusal({ type: 'quarantined', message: `${whose} repeatedly crashed the sandbox; they are refused for another ${Math.ceil(coolDown / 1000)} s.` });
}

export function createEngine(config: EngineConfig): Engine {
  assertNoNodeSnapshot();
  assertHostCanCheck();
  const resolved = resolveConfig(config);
  if (resolved.hosts === 0) applyIsolateFlags();
  const hosts = resolved.hosts > 0 ? new HostSet(resolved) : null;
  const makeSlot: SlotFactory = hosts ? (hooks) => hosts.createSlot(hooks) : (hooks) => new Slot(resolved, hooks);
  const pool = new Pool(resolved, makeSlot, hosts ? (principal) => hosts.quarantine.suspect(principal) : undefined);
  let nextId = 1;
  const sum = (pick: (s: { built: number; refs: number; cached: number; live: number }) => number) => hosts!.hosts.reduce((n, h) => n + pick(h.isolates), 0);

  return {
    async execute(request: ExecutionRequest): Promise<ExecutionResult> {
      const problem = validate(request);
      if (problem) return refusal({ type: 'internal_error', message: `Invalid execution request: ${problem}.` });
      const limits = effectiveLimits(resolved, request.limits);
      if (typeof limits === 'string') return refusal({ type: 'internal_error', message: `Invalid execution request: ${limits}.` });
      const { source } = request;
      if (source.length > limits.maxSourceBytes || Buffer.byteLength(source) > limits.maxSourceBytes) {
        return refusal({ type: 'limit_exceeded', code: 'max_source_bytes', message: `The script is larger than ${limits.maxSourceBytes} bytes.` });
      }
      // Checked here, on the host, before any isolate is involved (cached per tenant and source); TypeScript is stripped.
      const prepared = prepareScript(source, request.tenant);
      if (prepared.error) return refusal(prepared.error);
      const ex = new Execution(nextId++, prepared.source, request.bindings, request.hostCall, limits, request.tenant, request.repeatable, request.person);
      // Strikes other instances recorded are read before the first execution: a restart is no way out of quarantine.
      if (hosts && !hosts.quarantine.isLoaded) await hosts.quarantine.loaded;
      const reading = hosts?.quarantine.refresh();
      if (reading) await reading;
      const refused = hosts ? quarantined(hosts, ex, request.tenant !== undefined || request.person !== undefined) : null;
      if (refused) return refused;
      const result = await pool.submit(ex, request.onStart);
      return explainUnknownGlobal(result, request.bindings);
    },
    ready: async () => {
      await Promise.all([pool.whenReady(), hosts?.quarantine.loaded]);
    },
    stats(): EngineStats {
      const count = (state: string) => pool.slots.filter((s) => s.state === state).length;
      return {
        poolSize: resolved.poolSize,
        slots: { ready: count('ready'), busy: count('busy'), starting: count('starting') },
        queued: pool.queued,
        executions: pool.counters.executions,
        busyRejections: pool.counters.busyRejections,
        overflowSlots: pool.counters.overflowSlots,
        isolatesLive: hosts ? sum((i) => i.live) : pool.slots.filter((s) => s.live).length,
        isolatesBuilt: hosts ? sum((i) => i.built) : pool.slots.reduce((n, s) => n + s.isolatesBuilt, 0),
        referenceCount: hosts ? sum((i) => i.refs) : pool.slots.reduce((n, s) => n + s.referenceCount, 0),
        cachedScripts: hosts ? sum((i) => i.cached) : pool.slots.reduce((n, s) => n + s.cachedScripts, 0),
        recycled: { ...pool.counters.recycled },
        catastrophicErrors: hosts ? (hosts.crashes.fatal ?? 0) : pool.counters.catastrophicErrors,
        ...(hosts ? { hosts: hosts.stats() } : {}),
      };
    },
    async close(): Promise<void> {
      await pool.close();
      await hosts?.close();
    },
  };
}
