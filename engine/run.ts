// One execution on one isolate: start it, carry host calls and replies, enforce the wall and CPU
// deadlines (disposing the isolate, even mid host call), and decide when it is really over.
import type ivm from 'isolated-vm';
import { SCRIPT_URL, SENTINEL, SEP } from './prelude.ts';
import { decodeOutcome, lineCount, fromIvmError, killError, stripLocation, syntaxLine, type Kill, type Outcome } from './errors.ts';
import type { CapBreach } from './bridge.ts';
import { SOURCE_TOO_DEEP, tenantTag } from './compile.ts';
import { regExpSalt } from './prelude-resources.ts';
import type { EngineLimits } from './limits.ts';
import type { ExecutionError } from './result.ts';

/** How long an isolate may stay busy after the outcome is known before it is replaced instead of awaited. */
const DONE_GRACE_MS = 50;
/**
 * CPU is sampled this often while a script runs: an isolate disposed under it (memory limit, fatal error) can no
 * longer be asked, and the execution then reports what it had used at the last sample instead of 0.
 */
const CPU_SAMPLE_MS = 25;

/**
 * What a run needs of its execution: the server's own Execution (bridge.ts) in-process, or in a sandbox host
 * process a stand-in that forwards calls and logs to the server (sandbox-process/child/main.ts).
 */
export interface RunTarget {
  readonly id: number;
  readonly source: string;
  /** Keys the isolate's compiled-script cache: one tenant's cached scripts say nothing to another's timing. */
  readonly tenant: string;
  readonly names: string;
  readonly limits: EngineLimits;
  readonly closed: boolean;
  readonly inFlight: number;
  readonly breach: CapBreach | null;
  call(name: unknown, json: unknown): string | Promise<string>;
  log(level: unknown, message: unknown): void;
  /** Binding names (comma-separated) of calls the script left unanswered when it ended. */
  unansweredAtEnd(names: string): void;
  close(): void;
}

export interface RunEnd {
  outcome: Outcome | ExecutionError;
  /** Why the isolate must not be reused, or null. */
  recycle: string | null;
  wallMs: number;
  cpuMs: number;
  /** Set by the host-process engine: the run never really ran (its host died for another's script); run it again. */
  retry?: boolean;
  /**
   * Settles once the isolate has finished every task of the run: its thread no longer runs the script. A run killed
   * at a limit ends at once, while the isolate may go on growing until its termination takes (or never does).
   */
  stopped?: Promise<void>;
}

/**
 * The prelude's 'setup' task for an execution (its bindings, console, limits and `__start`). Exported so that the
 * conformance runner (test/conformance) sets a context up exactly as an execution does before it evaluates test code.
 */
export function setupArguments(ex: RunTarget, dispatcher: ivm.Callback): unknown[] {
  const { limits } = ex;
  return [
    'setup',
    ex.id,
    ex.names,
    dispatcher,
    limits.maxArgBytes,
    limits.maxResultBytes,
    limits.maxLogBytes,
    limits.maxLogLines,
    limits.maxHostCalls,
    limits.maxInFlight,
    regExpSalt(tenantTag(ex.tenant)),
  ];
}

export class Run {
  readonly ex: RunTarget;
  private readonly iso: ivm.Isolate;
  private readonly ctx: ivm.Context;
  private readonly runRef: ivm.Reference;
  private readonly script: ivm.Script | Promise<ivm.Script>;
  private readonly dispatcher: ivm.Callback;
  private readonly onEnd: (end: RunEnd) => void;
  private readonly t0 = performance.now();
  private readonly cpu0: bigint;
  private cpuMs = 0;
  private ended = false;
  /** Code the script evaluated held long regular-expression literals: its slot empties V8's RegExp cache after it. */
  evaluatedLiterals = false;
  /** Host→isolate tasks not yet settled: the run is only over once the isolate is idle again. */
  private tasks = 0;
  private stoppedNow: () => void = () => {};
  private readonly stopped = new Promise<void>((resolve) => {
    this.stoppedNow = resolve;
  });
  private done: string | null = null;
  private wallTimer: NodeJS.Timeout | undefined;
  private cpuTimer: NodeJS.Timeout | undefined;
  private graceTimer: NodeJS.Timeout | undefined;
  private cpuSampler: NodeJS.Timeout | undefined;

  constructor(
    iso: ivm.Isolate,
    prepared: { ctx: ivm.Context; run: ivm.Reference },
    script: ivm.Script | Promise<ivm.Script>,
    dispatcher: ivm.Callback,
    ex: RunTarget,
    onEnd: (end: RunEnd) => void,
  ) {
    this.iso = iso;
    this.ctx = prepared.ctx;
    this.runRef = prepared.run;
    this.script = script;
    this.dispatcher = dispatcher;
    this.ex = ex;
    this.onEnd = onEnd;
    this.cpu0 = iso.cpuTime;
  }

  start(): void {
    if (this.ended) return;
    const { limits } = this.ex;
    this.wallTimer = setTimeout(() => this.kill('wall'), limits.wallMs);
    this.cpuSampler = setInterval(() => this.readCpu(), CPU_SAMPLE_MS);
    if (limits.cpuMs < limits.wallMs) this.cpuTimer = setTimeout(() => this.checkCpu(), limits.cpuMs);
    if (this.script instanceof Promise) {
      // First time this isolate sees the source: compiling counts against the deadline like the rest.
      this.script.then(
        (script) => this.begin(script),
        (err: unknown) => this.compileFailed(err),
      );
    } else {
      this.begin(this.script);
    }
  }

  private begin(script: ivm.Script): void {
    if (this.ended) return;
    const { ex } = this;
    const { limits } = ex;
    // Two tasks queued back to back (FIFO on the isolate), no round trip in between: set up this
    // execution's bindings, then run the user's compiled function.
    this.runRef.applyIgnored(undefined, setupArguments(ex, this.dispatcher));
    this.task(script.run(this.ctx, { timeout: limits.wallMs }));
  }

  /** The host's syntax check passed but the isolate refused the wrapper: report what it said. */
  private compileFailed(err: unknown): void {
    if (this.ended) return;
    const message = err instanceof Error ? err.message : '';
    if (/Maximum call stack size exceeded/.test(message)) return this.end({ ...SOURCE_TOO_DEEP }, null);
    if (!/SyntaxError|Unexpected|Invalid/.test(`${(err as Error)?.name} ${message}`)) {
      return this.end(fromIvmError(err, this.ex.limits), 'compile_failed');
    }
    const line = syntaxLine(message, SCRIPT_URL);
    this.end({ type: 'syntax_error', message: stripLocation(message), ...(line ? { line } : {}) }, null);
  }

  /** Log lines from the isolate (already filtered to this execution's id), the only immediate messages. */
  message(kind: unknown, a: unknown, b: unknown): void {
    if (!this.ended && kind === 'log') this.ex.log(a, b);
  }

  /** A task's outbox (see prelude.ts): the calls it made, then its outcome if the script finished. */
  private consume(outbox: string): void {
    const parts = outbox.split(SEP);
    for (let i = 1; i < parts.length; i++) {
      const part = parts[i];
      if (part[0] === 'C' && i + 2 < parts.length) {
        this.call(part.slice(1), parts[i + 1], parts[i + 2]);
        i += 2;
      } else if (part[0] === 'P' && this.done === null) {
        this.ex.unansweredAtEnd(part.slice(1));
      } else if (part[0] === 'L') {
        this.evaluatedLiterals = true;
      } else if (part[0] === 'D' && this.done === null) {
        this.done = part.slice(1);
        this.ex.close();
      }
    }
  }

  private call(callId: string, name: string, json: string): void {
    const reply = this.ex.call(name, json);
    if (this.ex.breach) {
      const { code, message } = this.ex.breach;
      return this.kill('breach', { type: 'limit_exceeded', code, message });
    }
    if (typeof reply === 'string') return this.deliver(callId, reply);
    reply.then((r) => this.deliver(callId, r));
  }

  private deliver(callId: string, reply: string): void {
    if (this.ended || this.ex.closed) return;
    if (this.iso.isDisposed) return this.end(fromIvmError(new Error('disposed'), this.ex.limits), 'memory_limit');
    this.task(this.runRef.apply(undefined, ['deliver', Number(callId), reply]));
  }

  /** Every task ends by rejecting with the sentinel (see prelude.ts); anything else is a real failure. */
  private task(promise: Promise<unknown>): void {
    this.tasks++;
    promise.then(
      () => this.settled(null),
      (err: unknown) => {
        const message = err instanceof Error ? err.message : '';
        if (!message.startsWith(SENTINEL)) return this.settled(err);
        // Consumed while this task still counts, so calls refused at once (new deliver tasks) keep it busy.
        if (!this.ended) this.consume(message);
        this.settled(null);
      },
    );
  }

  private settled(err: unknown): void {
    this.tasks--;
    if (this.ended) {
      if (this.tasks === 0) this.stoppedNow();
      return;
    }
    this.readCpu();
    if (err !== null) {
      const error = fromIvmError(err, this.ex.limits);
      const recycle = error.type === 'memory_limit' ? 'memory_limit' : error.type === 'timeout' ? 'timeout' : 'run_failed';
      return this.end(error, recycle);
    }
    this.maybeEnd();
  }

  private maybeEnd(): void {
    if (this.done === null || this.ended) return;
    if (this.tasks > 0) {
      // The outcome is final but tasks queued before it (replies to refused calls) are still to settle:
      // they return at once; if they do not, answer anyway and replace the isolate rather than wait.
      this.graceTimer ??= setTimeout(() => this.finalize('busy_after_done'), DONE_GRACE_MS);
      return;
    }
    this.finalize(null);
  }

  private finalize(recycle: string | null): void {
    if (this.ended) return;
    if (recycle) {
      this.readCpu();
      try {
        this.iso.dispose();
      } catch {
        /* already gone */
      }
    }
    this.end(decodeOutcome(this.done, { sourceLines: lineCount(this.ex.source) }), recycle);
  }

  private checkCpu(): void {
    this.readCpu();
    const used = this.cpuMs;
    if (used >= this.ex.limits.cpuMs) this.kill('cpu');
    else this.cpuTimer = setTimeout(() => this.checkCpu(), Math.max(5, this.ex.limits.cpuMs - used));
  }

  /** Isolate CPU used so far, as of the last sample (a host process relays it: sandbox-process/channel.ts, heartbeat). */
  get cpuSoFar(): number {
    return this.cpuMs;
  }

  /** Never lowers the figure: once the isolate is gone the last sample stands. */
  private readCpu(): void {
    try {
      if (!this.iso.isDisposed) this.cpuMs = Math.max(this.cpuMs, Number(this.iso.cpuTime - this.cpu0) / 1e6);
    } catch {
      /* disposed */
    }
  }

  /** The hard stop: dispose the isolate now, whatever it is doing or waiting for. */
  kill(why: Kill, error?: ExecutionError): void {
    if (this.ended) return;
    this.readCpu();
    try {
      this.iso.dispose();
    } catch {
      /* already gone */
    }
    this.end(error ?? killError(why, this.ex.limits), why === 'wall' || why === 'cpu' ? 'timeout' : why);
  }

  private end(outcome: Outcome | ExecutionError, recycle: string | null): void {
    if (this.ended) return;
    this.ended = true;
    clearTimeout(this.wallTimer);
    clearTimeout(this.cpuTimer);
    clearTimeout(this.graceTimer);
    clearInterval(this.cpuSampler);
    this.readCpu();
    this.ex.close();
    // Host calls still pending: their promises stay unsettled in the isolate. Don't reuse it.
    if (!recycle && this.ex.inFlight > 0) recycle = 'abandoned_calls';
    if (this.tasks === 0) this.stoppedNow();
    this.onEnd({ outcome, recycle, wallMs: performance.now() - this.t0, cpuMs: this.cpuMs, stopped: this.stopped });
  }
}
