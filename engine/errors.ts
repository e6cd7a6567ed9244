// Turning what comes back from the isolate (the prelude's 'D' outcome, or an isolated-vm rejection)
// into an ExecutionError of research B5. Nothing from the isolate is trusted to have the right shape.
import { clip, type ErrorType, type ExecutionError } from './result.ts';

/** What the prelude reported in its 'D' record: a JSON result or a classified error. */
export type Outcome = { kind: 'ok'; json: string } | { kind: 'error'; error: ExecutionError };

/** Types the isolate may claim for itself; timeouts, memory, busy and the rest are only decided by the host. */
const ISOLATE_TYPES = new Set<ErrorType>(['script_error', 'tool_error', 'limit_exceeded', 'internal_error']);

const CORRUPT: ExecutionError = { type: 'internal_error', message: 'The script produced an unreadable outcome.' };

/**
 * What the host itself knows of the run, the authority on an error's type and line: the script's own text (a
 * forged RangeError message, a forged stack, a forged name) never decides them. memory_limit and timeout are
 * only ever the host's verdict on a killed isolate (fromIvmError, killError), never an isolate's claim.
 */
export interface Observed {
  /** Lines in the user's source: a reported line beyond it was forged. */
  sourceLines?: number;
}

/** Lines in a source (for Observed.sourceLines). */
export function lineCount(source: string): number {
  let n = 1;
  for (let i = source.indexOf('\n'); i >= 0; i = source.indexOf('\n', i + 1)) n++;
  return n;
}

export function decodeOutcome(raw: unknown, observed: Observed = {}): Outcome {
  if (typeof raw !== 'string' || raw.length === 0) return { kind: 'error', error: CORRUPT };
  const tag = raw[0];
  const body = raw.slice(1);
  if (tag === 'R') return { kind: 'ok', json: body };
  if (tag !== 'E') return { kind: 'error', error: CORRUPT };
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return { kind: 'error', error: CORRUPT };
  }
  if (!parsed || typeof parsed !== 'object') return { kind: 'error', error: CORRUPT };
  const p = parsed as Record<string, unknown>;
  const type = p.type as ErrorType;
  if (!ISOLATE_TYPES.has(type) || typeof p.message !== 'string') return { kind: 'error', error: CORRUPT };
  const error: ExecutionError = { type, message: clip(p.message) };
  if (typeof p.code === 'string') error.code = clip(p.code, 100);
  if (typeof p.resolution === 'string') error.resolution = clip(p.resolution);
  if (Number.isInteger(p.line) && (p.line as number) > 0 && (p.line as number) <= (observed.sourceLines ?? Number.MAX_SAFE_INTEGER))
    error.line = p.line as number;
  return { kind: 'error', error };
}

/** The line of a compile error as isolated-vm reports it: `Unexpected token ';' [file:///script.js:3:9]`. */
export function syntaxLine(message: string, url: string): number | undefined {
  const at = message.lastIndexOf(`[${url}:`);
  if (at < 0) return undefined;
  const line = Number.parseInt(message.slice(at + url.length + 2), 10);
  return Number.isInteger(line) && line > 0 ? line : undefined;
}

/** Drop isolated-vm's location suffix, which names our wrapper rather than anything useful. */
export function stripLocation(message: string): string {
  return message.replace(/\s*\[[^\]]*:\d+:\d+\]$/, '');
}

/** Why the host disposed an isolate under a running script. */
export type Kill = 'wall' | 'cpu' | 'closed' | 'fatal' | 'breach';

/** A script stopped at its memory limit, by isolated-vm or, past it, by V8 giving up on the isolate. */
export const MEMORY_LIMIT: ExecutionError = { type: 'memory_limit', message: 'The script ran out of memory and was stopped.' };

/** An isolated-vm rejection of the run call, when the host did not kill the isolate itself. */
export function fromIvmError(err: unknown, limits: { wallMs: number }): ExecutionError {
  const message = err instanceof Error ? err.message : String(err);
  if (/memory limit/i.test(message)) {
    return { ...MEMORY_LIMIT };
  }
  if (/timed out/i.test(message)) {
    return { type: 'timeout', code: 'wall_time', message: `The script ran longer than ${limits.wallMs} ms and was stopped.` };
  }
  // The host only disposes an isolate when it kills a run (and then ends the run first), so an isolate
  // found disposed was disposed by isolated-vm itself, which it does at the memory limit.
  if (/disposed/i.test(message)) {
    return { ...MEMORY_LIMIT };
  }
  if (/abandoned/i.test(message)) {
    return { type: 'timeout', code: 'wall_time', message: 'The script awaited a promise that can never settle.' };
  }
  return { type: 'internal_error', message: 'The script engine failed while running the script.' };
}

export function killError(kill: Kill, limits: { wallMs: number; cpuMs: number }): ExecutionError {
  if (kill === 'wall') return { type: 'timeout', code: 'wall_time', message: `The script ran longer than ${limits.wallMs} ms and was stopped.` };
  if (kill === 'cpu') return { type: 'timeout', code: 'cpu_time', message: `The script used more than ${limits.cpuMs} ms of CPU and was stopped.` };
  if (kill === 'fatal') return { type: 'internal_error', message: 'The script engine failed while running the script.' };
  return { type: 'internal_error', message: 'The engine was closed while the script ran.' };
}
