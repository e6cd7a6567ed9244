// The entry of a sandbox host process (started by ../sandbox-env.ts): owns isolates (engine Slots) and runs
// executions for the server's engine, speaking the messages of ../channel.ts on fd 3. It holds no bindings and no
// secrets: every host call and log line goes back to the server, which owns the Execution (caps, logs, abort).
import net from 'node:net';
import { writeSync } from 'node:fs';
import { Slot, type SlotHooks } from '../../slot.ts';
import type { RunEnd, RunTarget } from '../../run.ts';
import type { ResolvedConfig } from '../../limits.ts';
import { FrameWriter, MAX_SERVER_FRAME, readFrames } from '../frames.ts';
import { HEARTBEAT_MS, culpritLine, decodeServerToHost, encodeHostToServer, type HostToServer, type RunMessage, type RunSample } from '../channel.ts';
import { OVER_LIMITS, hostMemoryCapBytes } from '../memory-cap.ts';
import { pinSelf } from '../cpu-pinning.ts';
import { Target } from './target.ts';
import { applyIsolateFlags } from '../../v8-flags.ts';

applyIsolateFlags();
const FD = 3;
const config = JSON.parse(process.argv[2]) as ResolvedConfig;
const socket = new net.Socket({ fd: FD, readable: true, writable: true });
const out = new FrameWriter(socket);
const send = (msg: HostToServer) => out.send(encodeHostToServer(msg));
const slots = new Map<number, Slot>();
const slotIds = new Map<Slot, number>();
const targets = new Map<number, Target>();
/**
 * After a clean end the server counts the slot as ready at once (remote-slot.ts): an execution that arrives before
 * the next context is ready waits here for it. The ready frame then only tells the server that the slot is warm,
 * and is not sent when the next execution is already here (read in the next turn of the event loop).
 */
const waiting = new Map<number, RunMessage>();
/** V8 gave up on an isolate here: no new work, and the process ends once its other executions have. */
let draining = false;
const POLL_MS = 25;
/** Longest wait for an isolate that ended over its limits to give its memory back before a looser bound counts. */
const CLEAR_PATIENCE_MS = 10_000;
/** Longest an isolate may keep running after its execution ended at a limit (see watchClear). */
const STOP_PATIENCE_MS = 1500;
/** Longest a host keeps running its other executions after it lost an isolate (see drain). */
const DRAIN_MS = 2000;
const MIB = 1024 * 1024;
/** How old a reading of this process's resident memory may be when an execution starts (see rss). */
const RSS_FRESH_MS = 20;
let rssRead = 0;
let rssReadAt = -Infinity;
/**
 * This process's resident memory. Reading it is a system call and a parse of /proc (about 25 us, a tenth of a short
 * execution's whole cost here), and every execution's start asks: a start takes a reading up to RSS_FRESH_MS old,
 * which only shifts its "memory is back" bound (already one isolate's limit wide) by what changed meanwhile.
 */
const rss = (fresh: boolean) => {
  const now = performance.now();
  if (fresh || now - rssReadAt > RSS_FRESH_MS) {
    rssRead = process.memoryUsage.rss();
    rssReadAt = now;
  }
  return rssRead;
};

const hooks: SlotHooks = {
  // The isolate gauges ride along, so the server's stats() are current whenever a slot is.
  ready: (slot) => {
    const id = slotIds.get(slot as Slot)!;
    const next = waiting.get(id);
    if (next) {
      waiting.delete(id);
      return start(slot as Slot, next);
    }
    const runs = (slot as Slot).executions;
    // After this turn's check phase, the next one's poll phase reads what the server sent during the preparation.
    setImmediate(() =>
      setImmediate(() => {
        if (slot.state !== 'ready' || (slot as Slot).executions !== runs || slots.get(id) !== slot) return;
        send({ type: 'ready', slot: id });
        heartbeat(false);
      }),
    );
  },
  recycled: (reason) => send({ type: 'recycled', reason }),
  // V8 gave up on an isolate (its thread is stuck for good, with whatever memory it holds): name the execution that
  // last ran on it, take no more work, let the executions of the other slots finish (see drain), then end; the
  // server reports the death against the named execution alone and replaces the process. isolated-vm's other
  // isolates are not affected by one isolate's failure; what this process can no longer do is free that isolate.
  catastrophic: (message, execId) => condemn(execId, message),
  // Sent before the slot prepares its next context, so the server always sees an execution's end before the
  // slot's next ready.
  // The gauges go first: the server then sees this run's cache entry before its caller sees the result.
  finished: (ex: RunTarget, end: RunEnd) => {
    targets.delete(ex.id);
    // The gauges only: the running isolates' heaps are asked on the timer's beats.
    heartbeat(false);
    send({ type: 'end', id: ex.id, end });
    if (end.recycle !== null && OVER_LIMITS.has(end.recycle)) watchClear(ex.id, (ex as Target).rssAtStart, end.stopped);
    // The result leaves now: the slot prepares its next context synchronously right after this.
    out.flush();
  },
};

/** Name the execution whose isolate is lost for good (on stderr too, read if the process dies first), and drain. */
function condemn(execId: number | undefined, message: string): void {
  send({ type: 'fatal', id: execId ?? null, message });
  try {
    writeSync(2, culpritLine(execId ?? null));
  } catch {
    /* the frame says it too */
  }
  if (draining) return;
  draining = true;
  setImmediate(drain);
}

/**
 * An execution ended over its limits: its isolate may still be running (termination has not taken yet) or holding
 * memory, and the server keeps other organizations' work off this host until it hears that the isolate has stopped
 * and this process's memory is back where it was when the execution started (give or take one isolate's limit; after
 * CLEAR_PATIENCE_MS, half the memory cap, so that memory the allocator keeps does not cordon the host for good).
 * An isolate still running STOP_PATIENCE_MS after its end is lost (V8 thrashing in garbage collection near its
 * limit ignores termination; isolated-vm gives up on it only after 5 s, growing meanwhile): the host is condemned
 * for it at once, as when V8 gives up.
 */
function watchClear(id: number, rssAtStart: number, stopped: Promise<void> | undefined): void {
  const since = performance.now();
  let done = false;
  const check = () => {
    if (draining) return;
    const bound = performance.now() - since < CLEAR_PATIENCE_MS ? rssAtStart + config.memoryMb * MIB : hostMemoryCapBytes(config, slots.size) / 2;
    if (rss(true) <= bound) send({ type: 'cleared', id });
    else setTimeout(check, POLL_MS);
  };
  const stuck = setTimeout(() => {
    if (!done) condemn(id, `The isolate did not stop within ${STOP_PATIENCE_MS} ms of reaching its limits`);
  }, STOP_PATIENCE_MS);
  void (stopped ?? Promise.resolve()).then(() => {
    done = true;
    clearTimeout(stuck);
    check();
  });
}

/**
 * After V8 gave up on an isolate: once no execution runs here, or DRAIN_MS have passed, end the process; the frames
 * already sent leave first. The lost isolate may go on thrashing in garbage collection, and V8's worker threads are
 * shared by every isolate here and by this process's own heap: kept for long, it slows the others until this
 * process misses its heartbeat. Executions still running at the end run again when they only read, or end saying
 * another tenant's script took their host down.
 */
function drain(): void {
  const until = performance.now() + DRAIN_MS;
  const check = () => {
    if (targets.size > 0 && performance.now() < until) return void setTimeout(check, POLL_MS);
    out.flush();
    setTimeout(() => process.kill(process.pid, 'SIGKILL'), 1000).unref();
    socket.end(() => process.kill(process.pid, 'SIGKILL'));
  };
  check();
}

/** Runs an execution on its (ready) slot. */
function start(slot: Slot, run: RunMessage): void {
  const target = new Target(run, rss(false), send);
  targets.set(target.id, target);
  void slot.run(target);
}

function onFrame(frame: string): void {
  const msg = decodeServerToHost(frame);
  switch (msg?.type) {
    case 'run': {
      // Sent before the server heard that this host is going: it never starts, and runs again elsewhere.
      if (draining) return;
      const slot = slots.get(msg.slot);
      if (slot?.state === 'ready') return start(slot, msg);
      if (slot && slot.state === 'starting' && !waiting.has(msg.slot)) {
        waiting.set(msg.slot, msg);
        return;
      }
      send({
        type: 'end',
        id: msg.id,
        end: { outcome: { type: 'internal_error', message: 'The sandbox slot was not ready.' }, recycle: null, wallMs: 0, cpuMs: 0 },
      });
      return;
    }
    case 'reply':
      targets.get(msg.id)?.replied(msg.call, msg.reply);
      return;
    case 'kill':
      slots.get(msg.slot)?.killRun(msg.id, msg.error);
      return;
    case 'pin': // sent before any slot opens; say whether it could
      send({ type: 'pinned', cpu: pinSelf(msg.cpu) ? msg.cpu : null });
      return;
    case 'open': {
      const slot = new Slot(config, hooks, { syncPrepare: true });
      slots.set(msg.slot, slot);
      slotIds.set(slot, msg.slot);
      slot.start();
      return;
    }
    case 'close': {
      const slot = slots.get(msg.slot);
      slots.delete(msg.slot);
      waiting.delete(msg.slot);
      void slot?.close();
      return;
    }
    case 'quit': // running executions end as closed
      void Promise.all([...slots.values()].map((s) => s.close())).then(() => {
        out.flush();
        socket.end(() => process.exit(0));
      });
      return;
  }
}

readFrames(socket, MAX_SERVER_FRAME, onFrame, () => process.kill(process.pid, 'SIGKILL'));
// The server is gone (or closed the channel): nothing here is worth keeping.
socket.on('close', () => process.kill(process.pid, 'SIGKILL'));
socket.on('error', () => process.kill(process.pid, 'SIGKILL'));
/**
 * Isolate gauges, and each running execution's CPU so far (the server's figure for it if this process dies), with,
 * when its isolate is idle under its memory limit (Slot.idleUnderLimit), the replies it had received by then: until
 * the server sends it another, it allocates nothing, and is no suspect if this process is killed for its memory cap.
 */
function heartbeat(askHeaps = true): void {
  const isolates = { built: 0, refs: 0, cached: 0, live: 0 };
  const runs: RunSample[] = [];
  for (const s of slots.values()) {
    isolates.built += s.isolatesBuilt;
    isolates.refs += s.referenceCount;
    isolates.cached += s.cachedScripts;
    isolates.live += s.live ? 1 : 0;
    const run = s.running;
    if (!run) continue;
    const target = targets.get(run.id);
    runs.push({ id: run.id, cpuMs: run.cpuMs, replies: target && s.idleUnderLimit(askHeaps) ? target.received : null });
  }
  send({ type: 'heartbeat', isolates, runs });
}
setInterval(() => heartbeat(), HEARTBEAT_MS);
