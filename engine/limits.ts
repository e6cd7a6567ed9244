// Engine configuration and per-execution limits: defaults (research B4), validation, and the rule that a
// request may only tighten a limit, never loosen it past the engine's configuration.
import { availableParallelism } from 'node:os';
import type { StrikeLedger } from './sandbox-process/quarantine.ts';

/** Limits a single execution may override downwards (`ExecutionRequest.limits`). */
export interface EngineLimits {
  /** UTF-8 bytes of the script source; larger sources are refused without being compiled. */
  maxSourceBytes: number;
  /** Hard wall-clock deadline: the isolate is disposed at it, even while host calls are pending. */
  wallMs: number;
  /** CPU time spent in the isolate (sampled from `isolate.cpuTime`). */
  cpuMs: number;
  /** Host (binding) calls per execution. */
  maxHostCalls: number;
  /** Host calls pending at the same time. */
  maxInFlight: number;
  /** UTF-8 bytes of one binding argument once JSON-encoded. */
  maxArgBytes: number;
  /** UTF-8 bytes of the JSON-encoded result, checked inside the isolate before anything is copied out. */
  maxResultBytes: number;
  /** UTF-8 bytes of all log messages together; beyond it logs are cut and `truncated` is set. */
  maxLogBytes: number;
  /** Number of log entries; beyond it logs are cut and `truncated` is set. */
  maxLogLines: number;
}

/** The `engine` block of server/config.ts, plus optional tuning with defaults. */
export interface EngineConfig extends Omit<EngineLimits, 'maxLogLines'> {
  /** Isolates pre-warmed at start and always kept (one execution each at a time). */
  poolSize: number;
  /**
   * Upper bound with overflow isolates, added while work is queued and every isolate has held its
   * execution for overflowAfterMs, retired after idleRetireMs idle (default 2 × poolSize).
   */
  maxPoolSize?: number;
  overflowAfterMs?: number;
  idleRetireMs?: number;
  /**
   * While executions of other tenants wait, one tenant (ExecutionRequest.tenant) runs at most this many at once
   * (default half the pool, at least 1); with nobody else waiting it may use every isolate.
   */
  maxRunningPerTenant?: number;
  /** Executions waiting for an isolate; beyond it `engine_busy`. 0 = no queue. */
  queueMax: number;
  /** Longest wait in the queue before `engine_busy`. */
  queueWaitMs: number;
  /** V8 heap limit of each isolate, in MB (pool-wide: an isolate's limit is fixed when it is built). */
  memoryMb: number;
  maxLogLines?: number;
  /** An isolate is replaced after this many executions (default 500). */
  maxExecutionsPerIsolate?: number;
  /** Heap is sampled every this many executions (default 50)... */
  heapCheckEvery?: number;
  /** ...and the isolate replaced when used heap exceeds this share of memoryMb twice in a row (default 0.6). */
  heapHighRatio?: number;
  /**
   * Slots beyond maxPoolSize used only by tenants running below their share while others hold every slot
   * (default 0; the server sets half the pool): a tenant's long scripts cannot make another wait out queueWaitMs.
   */
  reservedSlots?: number;
  /**
   * Sandbox host processes owning the isolates (default one per core); 0 keeps every isolate in this process,
   * where a fatal V8 error in any of them ends the process (see onCatastrophicError).
   */
  hosts?: number;
  /**
   * Pin each host process to a CPU of its own (host i on the i-th allowed CPU, round robin; Linux with taskset, two
   * CPUs or more, at least as many hosts as CPUs; see sandbox-process/cpu-pinning.ts). Default true.
   */
  pinHosts?: boolean;
  /** Resident memory cap of each host process, in MB; over it the host is killed (default 384 + 6 × memoryMb per slot: flattening a 134 MB string inside the 64 MB heap limit peaks near 400 MB before V8 stops it). */
  hostMemoryMb?: number;
  /** A host silent this long (no heartbeat) is killed as hung. */
  heartbeatTimeoutMs?: number;
  /** A tenant whose executions kill this many hosts within quarantineWindowMs is refused for quarantineMs. */
  quarantineAfter?: number;
  quarantineWindowMs?: number;
  quarantineMs?: number;
  /**
   * Where host deaths blamed on organizations and persons are shared between instances (the server: PostgreSQL), so
   * a crash budget and its quarantine hold on every instance; without it they are this process's alone.
   */
  strikeLedger?: StrikeLedger;
  /** In-process pool only: V8 reports it lost control of an isolate; the embedder should drain and restart. */
  onCatastrophicError?: (message: string) => void;
  /** Host-process pool: a host died (reason: fatal, memory, heartbeat, killed, abort, segfault, exit). */
  onHostCrash?: (info: { reason: string; tenants: string[]; persons: string[]; detail?: string; stderr?: string }) => void;
}

export interface ResolvedConfig extends Required<Omit<EngineConfig, 'onCatastrophicError' | 'onHostCrash' | 'hostMemoryMb' | 'strikeLedger'>> {
  strikeLedger: StrikeLedger | null;
  /** 0 = the default, computed per host from its slots. */
  hostMemoryMb: number;
  onCatastrophicError: ((message: string) => void) | undefined;
  onHostCrash: EngineConfig['onHostCrash'];
}

export const DEFAULT_LIMITS: Readonly<EngineLimits> = Object.freeze({
  maxSourceBytes: 100 * 1024,
  wallMs: 5000,
  cpuMs: 5000,
  maxHostCalls: 1000,
  maxInFlight: 16,
  maxArgBytes: 256 * 1024,
  maxResultBytes: 1024 * 1024,
  maxLogBytes: 64 * 1024,
  maxLogLines: 200,
});

const LIMIT_KEYS = Object.keys(DEFAULT_LIMITS) as (keyof EngineLimits)[];
const CONFIG_KEYS = new Set<string>([
  ...LIMIT_KEYS,
  'poolSize',
  'maxPoolSize',
  'maxRunningPerTenant',
  'overflowAfterMs',
  'idleRetireMs',
  'queueMax',
  'queueWaitMs',
  'memoryMb',
  'maxExecutionsPerIsolate',
  'heapCheckEvery',
  'heapHighRatio',
  'onCatastrophicError',
  'reservedSlots',
  'hosts',
  'pinHosts',
  'hostMemoryMb',
  'heartbeatTimeoutMs',
  'quarantineAfter',
  'quarantineWindowMs',
  'quarantineMs',
  'onHostCrash',
  'strikeLedger',
]);

function positiveInt(name: string, value: unknown, min = 1): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min) {
    throw new TypeError(`engine config: ${name} must be an integer >= ${min}, got ${String(value)}`);
  }
  return value;
}

/** Fill defaults and reject anything unknown or out of range (a config typo must not silently widen a limit). */
export function resolveConfig(config: EngineConfig): ResolvedConfig {
  for (const key of Object.keys(config)) {
    if (!CONFIG_KEYS.has(key)) throw new TypeError(`engine config: unknown option ${key}`);
  }
  const ratio = config.heapHighRatio ?? 0.6;
  if (!(ratio > 0 && ratio <= 1)) throw new TypeError('engine config: heapHighRatio must be in (0, 1]');
  if (config.pinHosts !== undefined && typeof config.pinHosts !== 'boolean') throw new TypeError('engine config: pinHosts must be a boolean');
  const poolSize = positiveInt('poolSize', config.poolSize);
  return {
    poolSize,
    maxPoolSize: Math.max(poolSize, positiveInt('maxPoolSize', config.maxPoolSize ?? 2 * poolSize)),
    maxRunningPerTenant: positiveInt('maxRunningPerTenant', config.maxRunningPerTenant ?? Math.max(1, Math.floor(poolSize / 2))),
    overflowAfterMs: positiveInt('overflowAfterMs', config.overflowAfterMs ?? 10, 0),
    idleRetireMs: positiveInt('idleRetireMs', config.idleRetireMs ?? 10_000),
    queueMax: positiveInt('queueMax', config.queueMax, 0),
    queueWaitMs: positiveInt('queueWaitMs', config.queueWaitMs, 0),
    memoryMb: positiveInt('memoryMb', config.memoryMb, 8),
    maxSourceBytes: positiveInt('maxSourceBytes', config.maxSourceBytes),
    wallMs: positiveInt('wallMs', config.wallMs),
    cpuMs: positiveInt('cpuMs', config.cpuMs),
    maxHostCalls: positiveInt('maxHostCalls', config.maxHostCalls, 0),
    maxInFlight: positiveInt('maxInFlight', config.maxInFlight),
    maxArgBytes: positiveInt('maxArgBytes', config.maxArgBytes),
    maxResultBytes: positiveInt('maxResultBytes', config.maxResultBytes),
    maxLogBytes: positiveInt('maxLogBytes', config.maxLogBytes, 0),
    maxLogLines: positiveInt('maxLogLines', config.maxLogLines ?? DEFAULT_LIMITS.maxLogLines, 0),
    maxExecutionsPerIsolate: positiveInt('maxExecutionsPerIsolate', config.maxExecutionsPerIsolate ?? 500),
    heapCheckEvery: positiveInt('heapCheckEvery', config.heapCheckEvery ?? 50),
    heapHighRatio: ratio,
    reservedSlots: positiveInt('reservedSlots', config.reservedSlots ?? 0, 0),
    hosts: positiveInt('hosts', config.hosts ?? availableParallelism(), 0),
    pinHosts: config.pinHosts ?? true,
    hostMemoryMb: positiveInt('hostMemoryMb', config.hostMemoryMb ?? 0, 0),
    heartbeatTimeoutMs: positiveInt('heartbeatTimeoutMs', config.heartbeatTimeoutMs ?? 5000, 500),
    quarantineAfter: positiveInt('quarantineAfter', config.quarantineAfter ?? 3),
    quarantineWindowMs: positiveInt('quarantineWindowMs', config.quarantineWindowMs ?? 10 * 60_000),
    quarantineMs: positiveInt('quarantineMs', config.quarantineMs ?? 10 * 60_000),
    onCatastrophicError: config.onCatastrophicError,
    onHostCrash: config.onHostCrash,
    strikeLedger: config.strikeLedger ?? null,
  };
}

/**
 * The limits of one execution: each override is capped by the configured value, so a request can only
 * tighten. Returns an error message for an unknown key or a value that is not a non-negative integer.
 */
export function effectiveLimits(config: ResolvedConfig, overrides: unknown): EngineLimits | string {
  const out = {} as EngineLimits;
  for (const key of LIMIT_KEYS) out[key] = config[key];
  if (overrides === undefined || overrides === null) return out;
  if (typeof overrides !== 'object') return 'limits must be an object';
  for (const [key, value] of Object.entries(overrides)) {
    if (!(LIMIT_KEYS as string[]).includes(key)) return `unknown limit ${key}`;
    if (value === undefined) continue;
    if (typeof value !== 'number' || !Number.isInteger(value) || value < 0) return `limit ${key} must be a non-negative integer`;
    const k = key as keyof EngineLimits;
    // A zero deadline would be meaningless; keep at least 1 ms so the timers still fire.
    out[k] = Math.min(config[k], k === 'wallMs' || k === 'cpuMs' ? Math.max(1, value) : value);
  }
  return out;
}
