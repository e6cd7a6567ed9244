// One sandbox host process seen from the server: spawning it (scrubbed environment, empty cwd, unprivileged user),
// the frames to and from it, its memory and heartbeat watchdog, the executions a death would be blamed on (named by
// V8, ended over their limits and not yet cleared, or not idle under their limit at a memory-cap kill), and what
// happens when it dies: the guilty ones end (as memory_limit when memory killed it), the others run again when they
// only read, or end as `crashed`, the death is reported with its reason and the principals to blame, and a
// replacement starts with the same slots.
import type { ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import type { Socket } from 'node:net';
import type { Execution } from '../bridge.ts';
import { tenantTag } from '../compile.ts';
import type { ResolvedConfig } from '../limits.ts';
import type { ExecutionError } from '../result.ts';
import { FrameWriter, readFrames } from './frames.ts';
import { CLOSED_REPLY, culpritOnStderr, decodeHostToServer, encodeServerToHost, type CallMessage, type FatalMessage, type ServerToHost } from './channel.ts';
import { OVER_LIMITS, hostMemoryCapBytes } from './memory-cap.ts';
import { MEMORY_LIMIT } from '../errors.ts';
import type { RemoteSlot, SlotHost } from './remote-slot.ts';

const PAGE = 4096;
/** A host dying this soon after its start is restarted after a growing pause (a host that cannot start at all). */
const EARLY_DEATH_MS = 2000;
const MAX_BACKOFF_MS = 5000;
const QUIT_WAIT_MS = 2500;
const STDERR_TAIL = 1024;
/** Executions a host ran lately, kept so that a death after one of them ended can still be blamed on it. */
const RECENT_RUNS = 64;

export const CRASHED: ExecutionError = {
  type: 'crashed',
  message: 'The sandbox process running the script failed (a fatal engine error, its memory cap, or it was stopped or hung); the script did not finish.',
};
/** An execution whose host another tenant's script took down, and which could not run again (it may have written). */
export const BYSTANDER: ExecutionError = {
  type: 'crashed',
  message:
    "Another tenant's script took down the sandbox process running this script. It had called a binding that may have changed something, so it was not run again; nothing of this is counted against you.",
};

/** Who an execution ran for: what a host's death is counted against. */
interface Principal {
  tenant: string;
  person: string;
}

export interface HostDeath {
  reason: string;
  /**
   * Tenants to blame: those of the executions V8 named, else of those that ended over their limits on that host and
   * had not yet cleared, else of the executions running there that did not run again on probation.
   */
  tenants: string[];
  /** The persons behind the blamed executions (those that named one): their crash budget counts it too. */
  persons: string[];
  detail?: string;
  /** The last of what the host wrote to stderr (V8 prints its fatal-error reports there). */
  stderr?: string;
}

export interface HostEvents {
  recycled(reason: string): void;
  died(death: HostDeath): void;
  /** A started host process with no slots yet (a warm spare if one is ready, else a new one). */
  takeProcess(): ChildProcess;
  /** The tenant's scripts lately killed a host. */
  suspect(tenant: string): boolean;
}

export class HostProcess implements SlotHost {
  readonly index: number;
  readonly slots = new Map<number, RemoteSlot>();
  private readonly running = new Map<number, RemoteSlot>();
  private child: ChildProcess | null = null;
  private writer: FrameWriter | null = null;
  private generation = 0;
  private startedAt = 0;
  private backoffMs = 100;
  private lastSeen = 0;
  /** What V8 said when it gave up on an isolate here (the last F frame, else the stderr line), naming an execution. */
  private culprit: FatalMessage | null = null;
  /** Executions V8 gave up on an isolate of (F frames): the process is going, after its other executions. */
  private readonly culprits = new Set<number>();
  /** V8 gave up on an isolate here: no new work goes to this host, which ends once its other executions have. */
  draining = false;
  /**
   * Executions that ended over their limits (timeout, memory, fatal) and whose isolate the host has not yet reported
   * stopped with its memory back: until then, a death of this host is theirs, and no other tenant's work goes here.
   */
  private readonly marks = new Map<number, Principal>();
  /** The last RECENT_RUNS executions that ended here, by id. */
  private readonly recent = new Map<number, Principal>();
  private killedFor: string | null = null;
  private closing: Promise<void> | null = null;
  private stderrTail = '';
  /** The CPU this host's processes are to run on (cpu-pinning.ts), or null. */
  readonly cpu: number | null;
  /** Where the current process says it runs: `cpu` once it has moved there, else null. */
  pinned: number | null = null;
  /** Spawned and not yet heard from / heard from. */
  up = false;
  rssBytes = 0;
  isolates = { built: 0, refs: 0, cached: 0, live: 0 };
  /** Isolates built by this host's earlier processes (stats count since the engine started). */
  private builtEarlier = 0;
  private readonly config: ResolvedConfig;
  private readonly events: HostEvents;
  private readonly maxFrame: number;

  constructor(index: number, config: ResolvedConfig, events: HostEvents, cpu: number | null = null) {
    this.index = index;
    this.cpu = cpu;
    this.config = config;
    this.events = events;
    // What a host legitimately sends: a result, a binding argument or a log line, and their framing.
    this.maxFrame = 2 * (config.maxResultBytes + config.maxArgBytes + config.maxLogBytes) + 64 * 1024;
  }

  get live(): boolean {
    return this.child !== null && this.closing === null;
  }

  get pid(): number {
    return this.child?.pid ?? 0;
  }

  get starting(): boolean {
    return this.live && !this.up;
  }

  /** Take a process (a warm spare when there is one) and give it this host's slots. */
  spawn(): void {
    if (this.closing) return;
    const gen = ++this.generation;
    const child = this.events.takeProcess();
    this.child = child;
    this.up = false;
    this.culprit = null;
    this.culprits.clear();
    this.draining = false;
    this.marks.clear();
    this.recent.clear();
    this.killedFor = null;
    this.pinned = null;
    this.startedAt = this.lastSeen = performance.now();
    const socket = child.stdio[3] as Socket;
    this.stderrTail = '';
    child.stderr?.setEncoding('utf8');
    child.stderr?.on('data', (text: string) => {
      this.stderrTail = (this.stderrTail + text).slice(-STDERR_TAIL);
    });
    this.writer = new FrameWriter(socket);
    readFrames(
      socket,
      this.maxFrame,
      (frame) => this.onFrame(gen, frame),
      () => this.kill('protocol'),
    );
    // EPIPE / ECONNRESET: the host is dying; 'close' follows and says why.
    socket.on('error', () => {});
    const closed = (code: number | null, signal: NodeJS.Signals | null) => this.onClose(gen, code, signal);
    if (child.exitCode !== null || child.signalCode !== null) setImmediate(() => closed(child.exitCode, child.signalCode));
    else child.on('close', closed);
    // First, so that the host moves to its CPU before it builds any isolate (a spare was started unpinned).
    if (this.cpu !== null) this.send({ type: 'pin', cpu: this.cpu });
    for (const slot of this.slots.values()) this.send({ type: 'open', slot: slot.id });
  }

  private send(msg: ServerToHost): void {
    this.writer?.send(encodeServerToHost(msg));
  }

  open(slot: RemoteSlot): void {
    this.slots.set(slot.id, slot);
    if (this.child) this.send({ type: 'open', slot: slot.id });
  }

  release(slot: RemoteSlot): void {
    this.slots.delete(slot.id);
    if (this.child) this.send({ type: 'close', slot: slot.id });
  }

  dispatch(slot: RemoteSlot, ex: Execution): void {
    this.running.set(ex.id, slot);
    this.send({ type: 'run', slot: slot.id, id: ex.id, tenant: tenantTag(ex.tenant), names: ex.names, limits: ex.limits, source: ex.source });
  }

  /**
   * An execution of a suspect tenant, or one on probation (bridge.ts), runs here, or an isolate that ended over its
   * limits is not yet cleared, or V8 gave up on one: this host may die any moment.
   */
  atRisk(): boolean {
    if (this.draining || this.marks.size > 0) return true;
    for (const slot of this.running.values()) {
      if (slot.current && (slot.current.ex.probation || this.events.suspect(slot.current.ex.tenant))) return true;
    }
    return false;
  }

  forget(execId: number): void {
    this.running.delete(execId);
  }

  /** An execution's end arrived: remember whom it ran for, and mark the host if its isolate ended over its limits. */
  private ended(id: number, recycle: string | null): void {
    const ex = this.running.get(id)?.current?.ex;
    if (!ex) return;
    const who = { tenant: ex.tenant, person: ex.person };
    this.recent.set(id, who);
    if (this.recent.size > RECENT_RUNS) this.recent.delete(this.recent.keys().next().value!);
    if (recycle !== null && OVER_LIMITS.has(recycle)) this.marks.set(id, who);
  }

  /** Whom execution `id` ran for, if it runs or ran here lately. */
  private principal(id: number): Principal | undefined {
    const ex = this.running.get(id)?.current?.ex;
    return ex ? { tenant: ex.tenant, person: ex.person } : (this.marks.get(id) ?? this.recent.get(id));
  }

  private onFrame(gen: number, frame: string): void {
    if (gen !== this.generation) return;
    this.lastSeen = performance.now();
    this.up = true;
    const msg = decodeHostToServer(frame);
    if (!msg) return this.kill('protocol');
    switch (msg.type) {
      case 'call':
        return this.call(gen, msg);
      case 'log':
        return this.running.get(msg.id)?.current?.ex.log(msg.level, msg.message);
      case 'unanswered':
        return this.running.get(msg.id)?.current?.ex.unansweredAtEnd(msg.names);
      case 'end':
        this.ended(msg.id, msg.end.recycle);
        return this.running.get(msg.id)?.onEnd(msg.end);
      case 'cleared':
        this.marks.delete(msg.id);
        // Cleared: its free slots may take others' work again.
        if (this.marks.size === 0 && !this.draining) for (const slot of this.slots.values()) slot.offer();
        return;
      case 'ready':
        return this.slots.get(msg.slot)?.onReady();
      case 'pinned':
        this.pinned = msg.cpu === this.cpu ? this.cpu : null;
        return;
      case 'recycled':
        return this.events.recycled(msg.reason);
      case 'heartbeat': {
        const { built, refs, cached, live } = msg.isolates;
        this.isolates = { built: this.builtEarlier + built, refs, cached, live };
        for (const run of msg.runs) this.running.get(run.id)?.sampledCpu(run.cpuMs, run.replies);
        return;
      }
      case 'fatal':
        this.culprit = msg;
        if (msg.id !== null) this.culprits.add(msg.id);
        this.draining = true;
        for (const slot of this.slots.values()) slot.hold();
        return;
    }
  }

  /** A binding call: the server's Execution runs it (caps, scope, abort) and the reply string goes back as is. */
  private call(gen: number, { id, call, name, args }: CallMessage): void {
    const slot = this.running.get(id);
    const ex = slot?.current?.ex;
    const reply = ex ? ex.call(name, args) : CLOSED_REPLY;
    if (ex?.breach) {
      const error: ExecutionError = { type: 'limit_exceeded', code: ex.breach.code, message: ex.breach.message };
      this.send({ type: 'kill', id, slot: slot!.id, error });
    }
    if (typeof reply === 'string') {
      slot?.replied();
      this.send({ type: 'reply', id, call, reply });
    } else {
      void reply.then((r) => {
        if (gen !== this.generation) return;
        this.running.get(id)?.replied();
        this.send({ type: 'reply', id, call, reply: r });
      });
    }
  }

  /**
   * The memory cap is a resident-set watchdog: /proc/<pid>/statm read from here every 100 ms (a few microseconds,
   * no privilege needed), SIGKILL over the cap. Measured alternatives: RLIMIT_AS (ulimit -v) cannot be set low
   * enough to matter, as V8 reserves address space far beyond what it uses (a host with two isolates: VmSize 10.5 GB
   * for 85 MB resident), and --max-old-space-size bounds only the host's own Node heap, not isolates or off-heap
   * buffers; cgroups need privileges we cannot assume.
   *
   * Called by the engine's watchdog: kill a host over its memory cap or silent past the heartbeat timeout (unless
   * the silence may be ours: see HostSet).
   */
  watch(now: number, judgeSilence: boolean): void {
    const child = this.child;
    if (!child?.pid || this.closing || this.killedFor) return;
    if (judgeSilence && now - this.lastSeen > this.config.heartbeatTimeoutMs) return this.kill('heartbeat');
    try {
      this.rssBytes = Number(readFileSync(`/proc/${child.pid}/statm`, 'latin1').split(' ')[1]) * PAGE;
    } catch {
      return;
    }
    if (this.rssBytes > this.memoryCapBytes()) this.kill('memory');
  }

  memoryCapBytes(): number {
    return hostMemoryCapBytes(this.config, this.slots.size);
  }

  kill(reason: string): void {
    if (!this.child || this.killedFor) return;
    this.killedFor = reason;
    this.child.kill('SIGKILL');
  }

  private onClose(gen: number, code: number | null, signal: NodeJS.Signals | null): void {
    if (gen !== this.generation) return;
    this.child = null;
    this.writer = null;
    this.up = false;
    this.builtEarlier = this.isolates.built;
    this.isolates = { built: this.builtEarlier, refs: 0, cached: 0, live: 0 };
    if (this.closing) return;
    const culprit = this.culprit ?? culpritOnStderr(this.stderrTail);
    const reason =
      this.killedFor ??
      (culprit
        ? 'fatal'
        : signal === 'SIGKILL'
          ? 'killed'
          : signal === 'SIGABRT'
            ? 'abort'
            : signal === 'SIGSEGV' || signal === 'SIGBUS'
              ? 'segfault'
              : 'exit');
    const victims = [...this.running.values()];
    const guilty = this.guilty(culprit);
    const blamed = new Set<string>();
    const blamedPersons = new Set<string>();
    const blame = (who: Principal) => {
      blamed.add(who.tenant);
      if (who.person) blamedPersons.add(who.person);
    };
    if (guilty) {
      // The death is known to be these executions' (named by V8, or ended over their limits and not yet cleared):
      // they alone count it; every other execution here is a bystander, whatever its tenant.
      for (const who of guilty.values()) blame(who);
      const outOfMemory = reason === 'memory' || /out-of-memory/i.test(culprit?.message ?? '');
      for (const slot of victims) {
        const ex = slot.current!.ex;
        if (guilty.has(ex.id)) slot.crashed(outOfMemory ? MEMORY_LIMIT : CRASHED, false);
        // Nothing it did changed anything (no call, or only reads): running it again elsewhere is invisible and safe.
        else slot.crashed(ex.repeatable || blamed.has(ex.tenant) ? CRASHED : BYSTANDER, ex.repeatable);
      }
    } else {
      // Nothing named the script to blame (memory cap, missed heartbeat, a V8 check that stops the process without
      // isolated-vm's handler, a signal). Killed for its memory cap, the host was not killed by a script whose
      // isolate sat idle under its limit (RemoteSlot.idleUnderLimit): those are bystanders, and the others' outcome
      // is their memory limit. If the rest are of several organizations, any of them may be the culprit: each that is
      // safe to run again runs again once, on probation (alone on a host), where a culprit dies again, named by being
      // alone, and an innocent one just succeeds. The others are blamed, as a lone suspect is.
      // Silent while over half its memory cap, it was stalled by memory too (V8's collector in a huge heap).
      const memory = reason === 'memory' || (reason === 'heartbeat' && this.rssBytes > this.memoryCapBytes() / 2);
      const cleared = new Set(memory ? victims.filter((s) => s.idleUnderLimit) : []);
      // Read before the loop: ending a slot (crashed) clears its current execution.
      const suspectTenants = new Set(victims.filter((s) => !cleared.has(s)).map((s) => s.current!.ex.tenant));
      const ambiguous = suspectTenants.size > 1;
      for (const slot of victims) {
        const ex = slot.current!.ex;
        if (cleared.has(slot)) {
          slot.crashed(ex.repeatable || suspectTenants.has(ex.tenant) ? CRASHED : BYSTANDER, ex.repeatable);
          continue;
        }
        const probation = ambiguous && ex.repeatable && !ex.probation;
        if (probation) ex.probation = true;
        else blame({ tenant: ex.tenant, person: ex.person });
        slot.crashed(memory && !probation ? MEMORY_LIMIT : CRASHED, probation);
      }
    }
    this.running.clear();
    for (const slot of this.slots.values()) slot.crashed(CRASHED, false);
    const detail = culprit?.message ?? (signal ? `signal ${signal}` : `exit code ${code}`);
    this.events.died({
      reason,
      tenants: [...blamed],
      persons: [...blamedPersons],
      detail,
      ...(this.stderrTail.trim() ? { stderr: this.stderrTail.trim() } : {}),
    });
    const early = performance.now() - this.startedAt < EARLY_DEATH_MS;
    this.backoffMs = early ? Math.min(this.backoffMs * 2, MAX_BACKOFF_MS) : 100;
    if (early) setTimeout(() => this.spawn(), this.backoffMs).unref();
    else this.spawn();
  }

  /**
   * The executions a death is known to be caused by, or null: those V8 named (the F frames, or stderr when they could
   * not be sent) if they ran here, else those whose isolates ended over their limits and were not yet cleared.
   */
  private guilty(culprit: FatalMessage | null): Map<number, Principal> | null {
    const named = new Map<number, Principal>();
    for (const id of culprit?.id != null ? [...this.culprits, culprit.id] : this.culprits) {
      const who = this.principal(id);
      if (who) named.set(id, who);
    }
    if (named.size > 0) return named;
    if (this.marks.size > 0) return new Map(this.marks);
    // V8 gave up on an isolate that no execution of a tenant had run on: nobody's doing.
    return culprit ? named : null;
  }

  /** Ask the host to close its isolates and exit; kill it if it has not within QUIT_WAIT_MS. */
  close(): Promise<void> {
    if (this.closing) return this.closing;
    const child = this.child;
    this.closing = new Promise((resolve) => {
      if (!child || child.exitCode !== null || child.signalCode !== null) return resolve();
      const force = setTimeout(() => child.kill('SIGKILL'), QUIT_WAIT_MS);
      child.once('close', () => {
        clearTimeout(force);
        resolve();
      });
      this.send({ type: 'quit' });
    });
    return this.closing;
  }
}
