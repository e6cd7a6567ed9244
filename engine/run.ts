// One execution on one isolate: start it, carry host calls and replies, enforce the wall and CPU
// deadlines (disposing the isolate, even mid host call), and decide when it is really over.
import type ivm from 'isolated-vm';
import { SCRIPT_URL, FUNCTION_LINE_OFFSET, SENTINEL } from './prelude.ts';
import { decodeOutcome, fromIvmError, killError, stripLocation, syntaxLine, type Kill, type Outcome } from './errors.ts';
import type { Execution } from './bridge.ts';
import type { ExecutionError } from './result.ts';

/** How long a finished script's isolate may stay busy before it is replaced instead of awaited. */
const DONE_GRACE_MS = 50;

export interface RunEnd {
  outcome: Outcome | ExecutionError;
  /** Why the isolate must not be reused, or null. */
  recycle: string | null;
  wallMs: number;
  cpuMs: number;
}

export class Run {
  readonly ex: Execution;
  private readonly iso: ivm.Isolate;
  private readonly runRef: ivm.Reference;
  private readonly dispatcher: ivm.Reference;
  private readonly onEnd: (end: RunEnd) => void;
  private readonly t0 = performance.now();
  private readonly cpu0: bigint;
  private cpuMs = 0;
  private ended = false;
  /** Host→isolate tasks not yet settled: the run is only over once the isolate is idle again. */
  private tasks = 0;
  private done: string | null = null;
  private wallTimer: NodeJS.Timeout | undefined;
  private cpuTimer: NodeJS.Timeout | undefined;
  private graceTimer: NodeJS.Timeout | undefined;

  constructor(iso: ivm.Isolate, runRef: ivm.Reference, dispatcher: ivm.Reference, ex: Execution, onEnd: (end: RunEnd) => void) {
    this.iso = iso;
    this.runRef = runRef;
    this.dispatcher = dispatcher;
    this.ex = ex;
    this.onEnd = onEnd;
    this.cpu0 = iso.cpuTime;
  }

  start(): void {
    const { limits } = this.ex;
    this.wallTimer = setTimeout(() => this.kill('wall'), limits.wallMs);
    if (limits.cpuMs < limits.wallMs) this.cpuTimer = setTimeout(() => this.checkCpu(), limits.cpuMs);
    const ex = this.ex;
    this.task(this.runRef.apply(undefined,
      ['start', ex.id, ex.source, ex.names, this.dispatcher, limits.maxArgBytes, limits.maxResultBytes, limits.maxLogBytes,
        limits.maxLogLines, limits.maxHostCalls, limits.maxInFlight],
      { timeout: limits.wallMs }));
  }

  /** Fire-and-forget messages from the isolate (already filtered to this execution's id). */
  message(kind: unknown, a: unknown, b: unknown, c: unknown): void {
    if (this.ended) return;
    if (kind === 'log') this.ex.log(a, b);
    else if (kind === 'call') this.call(a, b, c);
    else if (kind === 'done' && this.done === null) {
      this.done = typeof a === 'string' ? a : '';
      this.ex.close();
      this.maybeEnd();
    }
  }

  private call(callId: unknown, name: unknown, json: unknown): void {
    const reply = this.ex.call(name, json);
    if (this.ex.breach) {
      const { code, message } = this.ex.breach;
      return this.kill('breach', { type: 'limit_exceeded', code, message });
    }
    if (typeof reply === 'string') return this.deliver(callId, reply);
    reply.then((r) => this.deliver(callId, r));
  }

  private deliver(callId: unknown, reply: string): void {
    if (this.ended || this.ex.closed) return;
    if (this.iso.isDisposed) return this.end(fromIvmError(new Error('disposed'), this.ex.limits), 'memory_limit');
    this.task(this.runRef.apply(undefined, ['deliver', callId, reply]));
  }

  /** Every task ends by rejecting with the sentinel (see prelude.ts); anything else is a real failure. */
  private task(promise: Promise<unknown>): void {
    this.tasks++;
    promise.then(() => this.settled(null), (err: unknown) => this.settled(err === SENTINEL ? null : err));
  }

  private settled(err: unknown): void {
    this.tasks--;
    if (this.ended) return;
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
      // The outcome is final but the isolate is still busy (user code running on after it): give the task
      // a moment to finish normally, then answer anyway and replace the isolate rather than wait for it.
      this.graceTimer ??= setTimeout(() => this.finalize('busy_after_done'), DONE_GRACE_MS);
      return;
    }
    this.finalize(null);
  }

  private finalize(recycle: string | null): void {
    if (this.ended) return;
    if (recycle) {
      this.readCpu();
      try { this.iso.dispose(); } catch { /* already gone */ }
    }
    const outcome = decodeOutcome(this.done);
    if (outcome.kind !== 'syntax' || recycle) return this.end(outcome, recycle);
    // Only on this error path: compile the same wrapper once more to learn the line V8 complains about.
    this.iso.compileScript(`(async function anonymous(\n) {\n${this.ex.source}\n})`, { filename: SCRIPT_URL, lineOffset: -FUNCTION_LINE_OFFSET })
      .then((script) => {
        script.release();
        this.end({ type: 'syntax_error', message: outcome.message }, null);
      }, (err: unknown) => {
        const msg = err instanceof Error ? err.message : '';
        const line = syntaxLine(msg, SCRIPT_URL);
        this.end({ type: 'syntax_error', message: stripLocation(msg) || outcome.message, ...(line ? { line } : {}) }, null);
      });
  }

  private checkCpu(): void {
    let used: number;
    try { used = Number(this.iso.cpuTime - this.cpu0) / 1e6; } catch { return; }
    if (used >= this.ex.limits.cpuMs) this.kill('cpu');
    else this.cpuTimer = setTimeout(() => this.checkCpu(), Math.max(5, this.ex.limits.cpuMs - used));
  }

  private readCpu(): void {
    try { if (!this.iso.isDisposed) this.cpuMs = Number(this.iso.cpuTime - this.cpu0) / 1e6; } catch { /* disposed */ }
  }

  /** The hard stop: dispose the isolate now, whatever it is doing or waiting for. */
  kill(why: Kill, error?: ExecutionError): void {
    if (this.ended) return;
    this.readCpu();
    try { this.iso.dispose(); } catch { /* already gone */ }
    this.end(error ?? killError(why, this.ex.limits), why === 'wall' || why === 'cpu' ? 'timeout' : why);
  }

  private end(outcome: Outcome | ExecutionError, recycle: string | null): void {
    if (this.ended) return;
    this.ended = true;
    clearTimeout(this.wallTimer);
    clearTimeout(this.cpuTimer);
    clearTimeout(this.graceTimer);
    this.readCpu();
    this.ex.close();
    // Host calls still pending: their promises stay unsettled in the isolate. Don't reuse it.
    if (!recycle && this.ex.inFlight > 0) recycle = 'abandoned_calls';
    this.onEnd({ outcome, recycle, wallMs: performance.now() - this.t0, cpuMs: this.cpuMs });
  }
}
