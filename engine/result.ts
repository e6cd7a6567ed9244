// The public shape of what an execution returns (research B5), and the small builders that keep every
// exit path (success, script failure, kill, refusal) producing the same shape.

/**
 * Why an execution failed.
 * - `syntax_error`: the source does not compile; `line` is the user's line.
 * - `timeout`: the wall or CPU deadline passed (the isolate was disposed), or the script awaited forever.
 * - `memory_limit`: the isolate hit its heap limit, or an allocation failed inside it.
 * - `limit_exceeded`: a cap was hit; `code` names it (`max_source_bytes`, `max_result_bytes`,
 *   `max_host_calls`, `max_arg_bytes`, `max_arg_depth`, `max_result_depth`, `max_source_depth`; `max_in_flight` only from
 *   a host that sees more calls than the prelude lets out).
 * - `tool_error`: a binding failed and the script did not catch it; `code` is the binding's error code.
 * - `script_error`: anything else the script threw; `message` is `Name: message`.
 * - `engine_busy`: no isolate became free within the queue limits; retry later.
 * - `internal_error`: the engine itself failed (or was closed); never caused by script content alone.
 * - `crashed`: the sandbox process running the script died (fatal V8 error, memory cap, killed, hung); the script
 *   may have caused it. Nothing else is affected; an `apply` is rolled back.
 * - `quarantined`: this tenant's scripts crashed sandbox processes repeatedly; refused for a cool-down.
 */
export const ERROR_TYPES = [
  'syntax_error',
  'timeout',
  'memory_limit',
  'limit_exceeded',
  'tool_error',
  'script_error',
  'engine_busy',
  'internal_error',
  'crashed',
  'quarantined',
] as const;
export type ErrorType = (typeof ERROR_TYPES)[number];

export interface ExecutionError {
  type: ErrorType;
  /** For `tool_error` the binding's code (e.g. `not_found`); for `limit_exceeded` the limit's name. */
  code?: string;
  /** At most 2 KB. */
  message: string;
  /** How to fix it, when a binding said so. */
  resolution?: string;
  /** 1-based line in the user's source, when known. */
  line?: number;
}

export type LogLevel = 'log' | 'info' | 'warn' | 'error';

/**
 * One `console.*` call: arguments are formatted inside the isolate (strings as-is, other values as JSON,
 * falling back to `String(v)`) and joined with a space. When the byte or line budget is exhausted the
 * last message is cut, one entry `{level: 'warn', message: '[logs truncated: …]'}` is appended and the
 * result's `truncated` is true. Logs written before a timeout or memory kill are kept.
 */
export interface LogEntry {
  level: LogLevel;
  message: string;
}

export interface ExecutionStats {
  /** From the start of the run in the isolate to its end (excludes queueing). */
  wallMs: number;
  /**
   * CPU time the isolate spent on this execution, sampled while it runs, so that an execution killed with its
   * isolate (memory, deadline, fatal error) still reports what it used up to the last sample (every 25 ms).
   */
  cpuMs: number;
  /**
   * Host CPU spent while this execution's binding calls were in flight (the server thread's CPU time in those
   * windows: waiting on the database or storage costs next to nothing, parsing a spreadsheet costs its parse).
   * Charged with cpuMs to the tenant by the pool's fairness rules.
   */
  hostMs: number;
  /** Binding calls that reached the host (calls refused inside the isolate by a cap are not counted). */
  hostCalls: number;
  /** Time spent waiting for a free isolate. */
  queueMs: number;
}

export interface ExecutionResult {
  ok: boolean;
  /** The script's return value after a JSON round trip (`undefined` becomes `null`); `null` on error. */
  result: unknown;
  logs: LogEntry[];
  error?: ExecutionError;
  /** True when logs were cut (see LogEntry). */
  truncated: boolean;
  stats: ExecutionStats;
  /**
   * Bindings whose calls the script left unanswered when it ended (e.g. a write it never awaited), as the isolate
   * saw it: the caller's apply fails on an unanswered write however soon that write completes. Internal to the
   * service (runtime-api strips it before answering).
   */
  unansweredCalls?: readonly string[];
}

export const MAX_ERROR_MESSAGE = 2048;

export function clip(message: string, max = MAX_ERROR_MESSAGE): string {
  return message.length <= max ? message : `${message.slice(0, max - 1)}…`;
}

export function emptyStats(queueMs = 0): ExecutionStats {
  return { wallMs: 0, cpuMs: 0, hostMs: 0, hostCalls: 0, queueMs };
}

/** A failure that happened before the script ran (refused request, busy pool, closed engine). */
export function refusal(error: ExecutionError, queueMs = 0): ExecutionResult {
  return { ok: false, result: null, logs: [], error: { ...error, message: clip(error.message) }, truncated: false, stats: emptyStats(queueMs) };
}
