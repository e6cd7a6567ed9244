// The frames between the engine (server) and a sandbox host process, and the encoding of an ended run.
//   server → host: A<cpu> pin to this CPU (first, if pinned) · O<slot> open · X<slot> close ·
//                  S<slot>␁<id>␁<names>␁<limits JSON>␁<source> run · R<id>␁<call>␁<reply> host-call reply ·
//                  K<id>␁<slot>␁<error JSON> kill (cap breach) · Q quit
//   host → server: a<cpu or empty> pinned there (or could not be) · Y<slot> ready · E<id>␁<end> ended ·
//                  C<id>␁<call>␁<name>␁<args JSON> host call ·
//                  L<id>␁<level>␁<message> log · r<reason> isolate recycled ·
//                  H<built>␁<refs>␁<cached>␁<live>␁<id>:<cpu ms>[:<replies>],… heartbeat (each running execution's
//                  CPU, and the replies it had received if its isolate is idle under its memory limit) ·
//                  F<id>␁<message> V8 gave up on the isolate execution <id> last ran on: the host takes no more work,
//                  lets its other executions finish and then ends · u<id> the isolate execution <id> ended over its
//                  limits on (timeout, memory, fatal) has stopped and the host's memory is back
// After an E whose end needs no new isolate the server already counts the slot as ready (warming): an S sent before
// the host has prepared the next context waits in the host, and the Y that follows only says the slot is warm (it is
// not sent when that S has arrived).
// An execution's result JSON passes through as the tail of its E frame: the server parses it once, as in-process.
import { SEP, fields } from './frames.ts';
import { clip, type ErrorType, type ExecutionError } from '../result.ts';
import type { RunEnd } from '../run.ts';
import type { ResolvedConfig } from '../limits.ts';

export const HEARTBEAT_MS = 250;
/** Ends that leave an isolate over its limits, still growing or being torn down after the execution has ended. */
export const OVER_LIMITS: ReadonlySet<string> = new Set(['timeout', 'memory_limit', 'fatal']);

/** A host's resident-memory cap (the server's watchdog kills it past this). */
export function hostMemoryCapBytes(config: ResolvedConfig, slots: number): number {
  const mb = config.hostMemoryMb || 384 + 6 * config.memoryMb * Math.max(1, slots);
  return mb * 1024 * 1024;
}
/** Begins the stderr line naming the execution a dying host blames, when its 'F' frame could not be sent. */
export const CULPRIT_MARK = 'engine-host-culprit:';
/** Replies carry binding results (a large spreadsheet read is tens of MB); anything bigger is a bug. */
export const MAX_SERVER_FRAME = 512 * 1024 * 1024;

export const CLOSED_REPLY = `E${JSON.stringify({ kind: 'tool', code: 'EXECUTION_CLOSED', message: 'The execution has ended; this call was not run.' })}`;

export function encodeEnd(end: RunEnd): string {
  const { outcome } = end;
  const head = `${end.recycle ?? ''}${SEP}${end.wallMs}${SEP}${end.cpuMs}${SEP}`;
  if ('type' in outcome) return `${head}e${SEP}${JSON.stringify(outcome)}`;
  if (outcome.kind === 'error') return `${head}e${SEP}${JSON.stringify(outcome.error)}`;
  return `${head}o${SEP}${outcome.json}`;
}

/** Errors a host may report; busy, quarantine and crashes are only ever decided by the server. */
const HOST_TYPES = new Set<ErrorType>(['syntax_error', 'timeout', 'memory_limit', 'limit_exceeded', 'tool_error', 'script_error', 'internal_error']);
const GARBLED: ExecutionError = { type: 'internal_error', message: 'The sandbox process sent an unreadable outcome.' };

/** The host is less trusted than the server (a V8 escape would run there): every field is checked. */
export function decodeEnd(body: string): RunEnd {
  const [recycle, wall, cpu, kind, payload] = fields(body, 5);
  const end = { recycle: recycle || null, wallMs: Number(wall) || 0, cpuMs: Math.max(0, Number(cpu) || 0) };
  if (kind === 'o') return { ...end, outcome: { kind: 'ok', json: payload } };
  let error: ExecutionError = GARBLED;
  try {
    const p = JSON.parse(payload) as Record<string, unknown>;
    if (p && HOST_TYPES.has(p.type as ErrorType) && typeof p.message === 'string') {
      error = { type: p.type as ErrorType, message: clip(p.message) };
      if (typeof p.code === 'string') error.code = clip(p.code, 100);
      if (typeof p.resolution === 'string') error.resolution = clip(p.resolution);
      if (Number.isInteger(p.line) && (p.line as number) > 0) error.line = p.line as number;
    }
  } catch { /* GARBLED */ }
  return { ...end, outcome: error };
}
