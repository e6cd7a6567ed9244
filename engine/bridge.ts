// Host half of the bridge: one Execution per run holds the caps (calls, in flight, argument bytes), the
// logs and the AbortController. It is the authority: the isolate's own checks only fail earlier.
import type { EngineLimits } from './limits.ts';
import type { LogEntry, LogLevel } from './result.ts';
import { MAX_RESULT_DEPTH } from './prelude.ts';

export type HostResult =
  | { ok: true; json: string /** CPU the call spent off the server's thread, charged to hostMs. */; hostMs?: number }
  | { ok: false; error: { code: string; message: string; resolution?: string } };

export type HostCall = (name: string, argsJson: string, signal: AbortSignal) => Promise<HostResult>;

const LEVELS = new Set<string>(['log', 'info', 'warn', 'error']);

/** Nesting depth of a JSON text beyond `limit` (counted outside strings), the host's re-check of the prelude's. */
export function nestedDeeperThan(json: string, limit: number): boolean {
  if (json.length <= limit * 2) return false;
  // At most `limit` opening brackets in all (inside strings or not) cannot nest deeper: counted by indexOf, natively,
  // which spares a large argument that is mostly data (numbers, text) the character-by-character scan below.
  let opens = 0;
  for (let at = json.indexOf('['); at >= 0 && opens <= limit; at = json.indexOf('[', at + 1)) opens++;
  for (let at = json.indexOf('{'); at >= 0 && opens <= limit; at = json.indexOf('{', at + 1)) opens++;
  if (opens <= limit) return false;
  let depth = 0;
  let inString = false;
  for (let i = 0; i < json.length; i++) {
    const c = json.charCodeAt(i);
    if (inString) {
      if (c === 92) i++;
      else if (c === 34) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 91 || c === 123) {
      if (++depth > limit) return true;
    } else if (c === 93 || c === 125) depth--;
  }
  return false;
}

function reply(kind: 'tool' | 'limit', code: string, message: string, resolution?: string): string {
  return `E${JSON.stringify({ kind, code, message, resolution })}`;
}

function cpuMsSince(from: NodeJS.CpuUsage): number {
  const d = process.threadCpuUsage(from);
  return (d.user + d.system) / 1000;
}

/** Arguments longer than this have their checks' CPU time measured and charged (measuring costs a system call). */
const CHARGED_CHECK_CHARS = 8192;

/** The reply to a call that arrives after its execution ended (in-process, or relayed by a sandbox process). */
export const CLOSED_REPLY = reply('tool', 'EXECUTION_CLOSED', 'The execution has ended; this call was not run.');

/** Set when the host itself refuses a call for a cap the isolate should have enforced first. */
export interface CapBreach {
  code: string;
  message: string;
}

export class Execution {
  readonly id: number;
  readonly source: string;
  readonly names: string;
  readonly limits: EngineLimits;
  readonly queuedAt: number;
  /** Who it runs for (the server: the organization); the pool shares isolates fairly between tenants. */
  readonly tenant: string;
  /**
   * The person it runs for (the account behind the session, token or API key; '' when the caller names none). Budgets
   * count per person as well as per organization: organizations are cheap to create, so one alone is no boundary.
   */
  readonly person: string;
  private readonly bindings: ReadonlySet<string>;
  private readonly repeatableNames: ReadonlySet<string>;
  /** A call that may have changed something has run: running the script again would repeat it. */
  private changed = false;
  /**
   * Running again after a sandbox host died with it and others while nothing named the script to blame: it runs on a
   * host with nothing else to do, so that if it is the culprit, the next death names it (host-process.ts).
   */
  probation = false;
  private readonly hostCall: HostCall;
  /** Made on the first host call: most executions never need one. */
  private abort: AbortController | null = null;
  closed = false;
  hostCalls = 0;
  inFlight = 0;
  /** Host CPU of closed in-flight windows, and where the open one started (see hostMs). */
  private hostCpuMs = 0;
  private windowFrom: NodeJS.CpuUsage | null = null;
  readonly logs: LogEntry[] = [];
  truncated = false;
  private logBytes = 0;
  /** The host's own cap check fired (the isolate's did not): the run must end and the isolate go. */
  breach: CapBreach | null = null;

  constructor(
    id: number,
    source: string,
    bindings: readonly string[],
    hostCall: HostCall,
    limits: EngineLimits,
    tenant = '',
    repeatable: readonly string[] = [],
    person = '',
  ) {
    this.id = id;
    this.repeatableNames = new Set(repeatable);
    this.tenant = tenant;
    this.person = person;
    this.source = source;
    this.bindings = new Set(bindings);
    this.names = [...this.bindings].join(',');
    this.hostCall = hostCall;
    this.limits = limits;
    this.queuedAt = performance.now();
  }

  /**
   * Host CPU charged to this execution (ExecutionStats.hostMs): the server thread's CPU time while at least one of
   * its binding calls was in flight, up to now. A call waiting on I/O costs next to nothing; one parsing a file costs
   * what it parses. (Executions with calls in flight at the same moment are each charged that moment's CPU.)
   */
  get hostMs(): number {
    return this.hostCpuMs + (this.windowFrom ? cpuMsSince(this.windowFrom) : 0);
  }

  /** Running it again from the start would be unseen: every call it made only read (its logs start over). */
  get repeatable(): boolean {
    return !this.changed && !this.closed;
  }

  /**
   * Before running again (its host died for another's script): the dead run's pending calls are told to stop and its
   * logs and counts start over, as for a first run. Host time already spent stays charged.
   */
  restart(): void {
    this.abort?.abort(new Error('execution restarted'));
    this.abort = null;
    this.hostCalls = 0;
    this.logs.length = 0;
    this.logBytes = 0;
    this.truncated = false;
    this.unanswered = [];
    this.breach = null;
  }

  /** Ends the execution: later calls are refused and pending host work is told to stop. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.abort?.abort(new Error('execution ended'));
  }

  /** A binding call from the isolate. Never throws or rejects: every outcome is an 'R'/'E' string. */
  call(name: unknown, json: unknown): string | Promise<string> {
    if (this.closed) return CLOSED_REPLY;
    this.hostCalls++;
    if (typeof name !== 'string' || typeof json !== 'string' || !this.bindings.has(name)) {
      return reply('tool', 'not_found', `No binding named ${String(name).slice(0, 64)}.`);
    }
    const { maxHostCalls, maxInFlight, maxArgBytes } = this.limits;
    if (this.hostCalls > maxHostCalls) {
      return this.refuse('max_host_calls', `More than ${maxHostCalls} host calls in one execution.`);
    }
    if (this.inFlight >= maxInFlight) {
      return this.refuse('max_in_flight', `More than ${maxInFlight} host calls pending at once; await some before starting more.`);
    }
    // Checking a large argument is work done for this execution: charged to it (hostMs), refused or not (an open
    // in-flight window already counts it).
    const from = json.length > CHARGED_CHECK_CHARS && !this.windowFrom ? process.threadCpuUsage() : null;
    const tooLarge = json.length > maxArgBytes || Buffer.byteLength(json) > maxArgBytes;
    const tooDeep = !tooLarge && nestedDeeperThan(json, MAX_RESULT_DEPTH);
    if (from) this.hostCpuMs += cpuMsSince(from);
    if (tooLarge) return reply('limit', 'max_arg_bytes', `${name}: the argument is larger than ${maxArgBytes} bytes.`);
    if (tooDeep) {
      return this.refuse('max_arg_depth', `${name}: the argument nests arrays and objects more than ${MAX_RESULT_DEPTH} levels deep.`);
    }
    if (!this.repeatableNames.has(name)) this.changed = true;
    if (this.inFlight++ === 0) this.windowFrom = process.threadCpuUsage();
    return this.run(name, json);
  }

  private refuse(code: string, message: string): string {
    this.breach ??= { code, message };
    return reply('limit', code, message);
  }

  private async run(name: string, json: string): Promise<string> {
    let result: HostResult;
    this.abort ??= new AbortController();
    try {
      result = await this.hostCall(name, json, this.abort.signal);
    } catch {
      // The server maps ServiceError itself; anything thrown here is a host bug and says nothing to the script.
      result = { ok: false, error: { code: 'internal_error', message: 'Internal error.' } };
    } finally {
      if (--this.inFlight === 0) {
        this.hostCpuMs += cpuMsSince(this.windowFrom!);
        this.windowFrom = null;
      }
    }
    // CPU the call spent off the server's thread (a parser thread) is this execution's too.
    if (result?.ok === true && typeof result.hostMs === 'number' && result.hostMs > 0) this.hostCpuMs += result.hostMs;
    if (this.closed) return CLOSED_REPLY;
    if (result?.ok === true && typeof result.json === 'string') return `R${result.json}`;
    const error = result?.ok === false ? result.error : undefined;
    return reply(
      'tool',
      typeof error?.code === 'string' ? error.code : 'internal_error',
      typeof error?.message === 'string' ? error.message : 'Internal error.',
      typeof error?.resolution === 'string' ? error.resolution : undefined,
    );
  }

  /** A console line from the isolate; byte and line budgets are re-checked here. */
  /** Bindings whose calls the script left unanswered at its end (as the isolate saw it); only known names count. */
  unanswered: readonly string[] = [];
  unansweredAtEnd(names: unknown): void {
    if (typeof names !== 'string' || this.unanswered.length) return;
    this.unanswered = [...new Set(names.split(','))].filter((name) => this.bindings.has(name));
  }

  log(level: unknown, message: unknown): void {
    if (this.closed || typeof message !== 'string') return;
    if (level === 'trunc') return this.markTruncated();
    if (typeof level !== 'string' || !LEVELS.has(level) || this.truncated) return;
    const { maxLogBytes, maxLogLines } = this.limits;
    if (this.logs.length >= maxLogLines || this.logBytes >= maxLogBytes) return this.markTruncated();
    const room = maxLogBytes - this.logBytes;
    let text = message;
    let bytes = Buffer.byteLength(text);
    const cut = bytes > room;
    if (cut) {
      // Cut on a byte boundary, then drop a character the cut may have split.
      text = Buffer.from(text)
        .subarray(0, room)
        .toString()
        .replace(/\uFFFD$/, '');
      bytes = room;
    }
    this.logs.push({ level: level as LogLevel, message: text });
    this.logBytes += bytes + 1;
    if (cut) this.markTruncated();
  }

  private markTruncated(): void {
    if (this.truncated) return;
    this.truncated = true;
    this.logs.push({ level: 'warn', message: `[logs truncated: limit of ${this.limits.maxLogBytes} bytes or ${this.limits.maxLogLines} lines reached]` });
  }
}
