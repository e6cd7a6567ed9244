// Every message between the engine (server) and a sandbox host process, typed, and its frame (frames.ts): one letter,
// then fields separated by SEP, a free-form field always last. Both sides encode and decode here and nowhere else.
// A host is less trusted than the server (a V8 escape would run there): what it sends is checked field by field, and
// a field that does not read decodes to a value that names nothing or is clipped, never to a throw.
import { SEP, fields } from './frames.ts';
import { clip, type ErrorType, type ExecutionError } from '../result.ts';
import type { RunEnd } from '../run.ts';
import type { EngineLimits } from '../limits.ts';

/** How often a host sends its heartbeat. */
export const HEARTBEAT_MS = 250;

/** What an unreadable id from a host decodes to: executions, slots and calls count from 1, so it names none. */
export const NO_ID = -1;

export type ServerToHost =
  /** A: run on this CPU; sent first, before any slot opens, so that no isolate is built elsewhere. */
  | { type: 'pin'; cpu: number }
  /** O: open a slot (build its isolate). */
  | { type: 'open'; slot: number }
  /** X: close a slot. */
  | { type: 'close'; slot: number }
  /**
   * S: run an execution on a slot. `tenant` travels as its tag (a hex hash): it keys the host's compiled-script cache
   * and can hold no separator. `names` are the binding names, comma-separated.
   */
  | { type: 'run'; slot: number; id: number; tenant: string; names: string; limits: EngineLimits; source: string }
  /** R: the reply to a host call, passed to the isolate as is. */
  | { type: 'reply'; id: number; call: number; reply: string }
  /** K: the server refused a call for a cap breach: end the execution with this error. */
  | { type: 'kill'; id: number; slot: number; error: ExecutionError }
  /** Q: close every slot (running executions end as closed), then exit. */
  | { type: 'quit' };

/** Isolate gauges summed over a host's slots (the server's stats() show them). */
export interface IsolateGauges {
  built: number;
  refs: number;
  cached: number;
  live: number;
}

/**
 * A running execution's isolate CPU so far (whole ms; null if unreadable), and, when its isolate is idle under its
 * memory limit, the replies it had received by then (null otherwise, or if unreadable).
 */
export interface RunSample {
  id: number;
  cpuMs: number | null;
  replies: number | null;
}

export type HostToServer =
  /** a: the CPU the host now runs on, or null if it could not move (it runs unpinned). */
  | { type: 'pinned'; cpu: number | null }
  /**
   * Y: the slot's context is ready. After an end that keeps its isolate the server already counts the slot ready
   * (warming), and a run sent meanwhile waits in the host: this then only says the slot is warm, and is not sent once
   * that run has arrived.
   */
  | { type: 'ready'; slot: number }
  /** E: an execution ended. */
  | { type: 'end'; id: number; end: RunEnd }
  /** C: a binding call; `args` is JSON text, handed to the server's Execution unparsed. */
  | { type: 'call'; id: number; call: number; name: string; args: string }
  /** L: a log line of an execution. */
  | { type: 'log'; id: number; level: string; message: string }
  /** P: the binding names (comma-separated) of calls an execution left unanswered when it ended. */
  | { type: 'unanswered'; id: number; names: string }
  /** r: an isolate was replaced, and why (one of RECYCLE_REASONS, else 'other'). */
  | { type: 'recycled'; reason: string }
  /**
   * H: every HEARTBEAT_MS, and after each end and ready: the isolate gauges, and each running execution's CPU (the
   * server's figure for it if the host dies).
   */
  | { type: 'heartbeat'; isolates: IsolateGauges; runs: RunSample[] }
  /**
   * F: V8 gave up on the isolate execution `id` last ran on (null: none had), with its message. The host takes no
   * more work, lets its other executions finish and then ends.
   */
  | { type: 'fatal'; id: number | null; message: string }
  /** u: the isolate execution `id` ended over its limits on has stopped, and the host's memory is back. */
  | { type: 'cleared'; id: number };

export type RunMessage = Extract<ServerToHost, { type: 'run' }>;
export type CallMessage = Extract<HostToServer, { type: 'call' }>;
export type FatalMessage = Extract<HostToServer, { type: 'fatal' }>;

export function encodeServerToHost(msg: ServerToHost): string {
  switch (msg.type) {
    case 'pin':
      return `A${msg.cpu}`;
    case 'open':
      return `O${msg.slot}`;
    case 'close':
      return `X${msg.slot}`;
    case 'run':
      return `S${msg.slot}${SEP}${msg.id}${SEP}${msg.tenant}${SEP}${msg.names}${SEP}${JSON.stringify(msg.limits)}${SEP}${msg.source}`;
    case 'reply':
      return `R${msg.id}${SEP}${msg.call}${SEP}${msg.reply}`;
    case 'kill':
      return `K${msg.id}${SEP}${msg.slot}${SEP}${JSON.stringify(msg.error)}`;
    case 'quit':
      return 'Q';
  }
}

/** In the host: the server is trusted, so its frames are read as written; an unknown letter is null (ignored). */
export function decodeServerToHost(frame: string): ServerToHost | null {
  const body = frame.slice(1);
  switch (frame[0]) {
    case 'S': {
      const [slot, id, tenant, names, limits, source] = fields(body, 6);
      return { type: 'run', slot: Number(slot), id: Number(id), tenant, names, limits: JSON.parse(limits) as EngineLimits, source };
    }
    case 'R': {
      const [id, call, reply] = fields(body, 3);
      return { type: 'reply', id: Number(id), call: Number(call), reply };
    }
    case 'K': {
      const [id, slot, error] = fields(body, 3);
      return { type: 'kill', id: Number(id), slot: Number(slot), error: JSON.parse(error) as ExecutionError };
    }
    case 'A':
      return { type: 'pin', cpu: Number(body) };
    case 'O':
      return { type: 'open', slot: Number(body) };
    case 'X':
      return { type: 'close', slot: Number(body) };
    case 'Q':
      return { type: 'quit' };
    default:
      return null;
  }
}

export function encodeHostToServer(msg: HostToServer): string {
  switch (msg.type) {
    case 'call':
      return `C${msg.id}${SEP}${msg.call}${SEP}${msg.name}${SEP}${msg.args}`;
    case 'end':
      return `E${msg.id}${SEP}${encodeEnd(msg.end)}`;
    case 'log':
      return `L${msg.id}${SEP}${msg.level}${SEP}${msg.message}`;
    case 'heartbeat': {
      const { built, refs, cached, live } = msg.isolates;
      let runs = '';
      for (const r of msg.runs) {
        runs += `${runs ? ',' : ''}${r.id}:${r.cpuMs === null ? '' : Math.round(r.cpuMs)}${r.replies === null ? '' : `:${r.replies}`}`;
      }
      return `H${built}${SEP}${refs}${SEP}${cached}${SEP}${live}${SEP}${runs}`;
    }
    case 'ready':
      return `Y${msg.slot}`;
    case 'unanswered':
      return `P${msg.id}${SEP}${msg.names}`;
    case 'recycled':
      return `r${msg.reason}`;
    case 'pinned':
      return `a${msg.cpu ?? ''}`;
    case 'fatal':
      return `F${msg.id ?? ''}${SEP}${msg.message}`;
    case 'cleared':
      return `u${msg.id}`;
  }
}

/** Why a host replaces an isolate (slot.ts, run.ts): counters are keyed by it, so a host cannot add keys. */
const RECYCLE_REASONS: ReadonlySet<string> = new Set([
  'timeout',
  'memory_limit',
  'run_failed',
  'abandoned_calls',
  'busy_after_done',
  'compile_failed',
  'max_executions',
  'prepare_failed',
  'prepare_stuck',
  'heap_high',
  'breach',
  'fatal',
  'closed',
  'disposed',
]);
/** The longest V8 message of an F frame the server keeps. */
const MAX_FATAL_MESSAGE = 200;
/** Digits in a whole number a host may send: beyond, it is no id (and no longer exact as a double). */
const MAX_DIGITS = 15;

/** A whole number as a host writes one (digits only), or null. A loop: this runs on every call, reply and end. */
function whole(field: string | undefined): number | null {
  if (field === undefined || field.length === 0 || field.length > MAX_DIGITS) return null;
  for (let i = 0; i < field.length; i++) {
    const c = field.charCodeAt(i);
    if (c < 48 || c > 57) return null;
  }
  return Number(field);
}

const idOf = (field: string | undefined) => whole(field) ?? NO_ID;

/**
 * In the server: a missing field reads as empty, an unreadable id as NO_ID, an unreadable gauge as 0; free text
 * passes to the server's Execution, which caps it as it caps an in-process isolate's. An unknown letter is null: the
 * host no longer speaks the protocol.
 */
export function decodeHostToServer(frame: string): HostToServer | null {
  const body = frame.slice(1);
  switch (frame[0]) {
    case 'C': {
      const [id, call, name = '', args = ''] = fields(body, 4);
      return { type: 'call', id: idOf(id), call: idOf(call), name, args };
    }
    case 'E': {
      const [id, recycle, wall, cpu, kind, payload] = fields(body, 6);
      return { type: 'end', id: idOf(id), end: decodeEnd(recycle, wall, cpu, kind, payload) };
    }
    case 'L': {
      const [id, level = '', message = ''] = fields(body, 3);
      return { type: 'log', id: idOf(id), level, message };
    }
    case 'H': {
      const [built, refs, cached, live, samples = ''] = fields(body, 5);
      const isolates = { built: whole(built) ?? 0, refs: whole(refs) ?? 0, cached: whole(cached) ?? 0, live: whole(live) ?? 0 };
      const runs: RunSample[] = [];
      if (samples) {
        for (const sample of samples.split(',')) {
          const [id, ms, replies] = sample.split(':');
          runs.push({ id: idOf(id), cpuMs: whole(ms), replies: whole(replies) });
        }
      }
      return { type: 'heartbeat', isolates, runs };
    }
    case 'Y':
      return { type: 'ready', slot: idOf(body) };
    case 'P': {
      const [id, names = ''] = fields(body, 2);
      return { type: 'unanswered', id: idOf(id), names };
    }
    case 'r':
      return { type: 'recycled', reason: RECYCLE_REASONS.has(body) ? body : 'other' };
    case 'a':
      return { type: 'pinned', cpu: whole(body) };
    case 'F': {
      const [id, message = ''] = fields(body, 2);
      return { type: 'fatal', id: id === '' ? null : idOf(id), message: message.slice(0, MAX_FATAL_MESSAGE) };
    }
    case 'u':
      return { type: 'cleared', id: idOf(body) };
    default:
      return null;
  }
}

/** Begins the stderr line naming the execution a dying host blames, when its F frame could not be sent. */
const CULPRIT_MARK = 'engine-host-culprit:';

/** The F frame's fallback, written to stderr (read by the server if the process dies before the frame leaves). */
export function culpritLine(id: number | null): string {
  return `\n${CULPRIT_MARK}${id ?? ''}\n`;
}

/** The execution a dying host named on stderr (see culpritLine), or null. */
export function culpritOnStderr(tail: string): FatalMessage | null {
  const at = tail.lastIndexOf(CULPRIT_MARK);
  if (at < 0) return null;
  const id = /^\d*/.exec(tail.slice(at + CULPRIT_MARK.length))![0];
  return { type: 'fatal', id: id === '' ? null : idOf(id), message: 'V8 gave up on an isolate (a fatal engine error)' };
}

export { CLOSED_REPLY } from '../bridge.ts';

// An E frame's end: recycle reason (empty: none), wall ms, CPU ms, then `o` and the result JSON as the script's
// outcome serialized it (passed through: the server parses it once, as in-process), or `e` and the error's JSON.
function encodeEnd(end: RunEnd): string {
  const { outcome } = end;
  const head = `${end.recycle ?? ''}${SEP}${end.wallMs}${SEP}${end.cpuMs}${SEP}`;
  if ('type' in outcome) return `${head}e${SEP}${JSON.stringify(outcome)}`;
  if (outcome.kind === 'error') return `${head}e${SEP}${JSON.stringify(outcome.error)}`;
  return `${head}o${SEP}${outcome.json}`;
}

/** Errors a host may report; busy, quarantine and crashes are only ever decided by the server. */
const HOST_TYPES = new Set<ErrorType>(['syntax_error', 'timeout', 'memory_limit', 'limit_exceeded', 'tool_error', 'script_error', 'internal_error']);
const GARBLED: ExecutionError = { type: 'internal_error', message: 'The sandbox process sent an unreadable outcome.' };

function decodeEnd(
  recycle: string | undefined,
  wall: string | undefined,
  cpu: string | undefined,
  kind: string | undefined,
  payload: string | undefined,
): RunEnd {
  const end = { recycle: recycle || null, wallMs: Number(wall) || 0, cpuMs: Math.max(0, Number(cpu) || 0) };
  if (payload === undefined) return { ...end, outcome: GARBLED };
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
  } catch {
    /* GARBLED */
  }
  return { ...end, outcome: error };
}
