// Heavy work the server does for a binding call (parsing a spreadsheet, say), shared fairly: at most one such task
// runs at a time for an organization and for a person, at most `slots` in all, and waiting tasks are served in turn
// across organizations (never first come, first served, which would let one organization's flood of calls hold every
// slot). A waiting task whose caller gave up (its execution ended) leaves the queue.
import { ServiceError } from '../errors.ts';

export interface WorkOwner {
  org: string;
  person: string;
}

interface Waiting {
  owner: WorkOwner;
  start: () => void;
  signal?: AbortSignal;
  onAbort?: () => void;
}

export function fairWorkGate(slots: number) {
  let running = 0;
  const busyOrgs = new Map<string, number>();
  const busyPeople = new Map<string, number>();
  /** Per organization, its waiting tasks in order. */
  const queues = new Map<string, Waiting[]>();

  const free = (owner: WorkOwner) => !busyOrgs.get(owner.org) && !busyPeople.get(owner.person);
  /** When each organization last got a turn (a tick), to serve the one that waited longest since. */
  const lastTurn = new Map<string, number>();
  let tick = 0;
  const take = (owner: WorkOwner) => {
    running++;
    busyOrgs.set(owner.org, (busyOrgs.get(owner.org) ?? 0) + 1);
    busyPeople.set(owner.person, (busyPeople.get(owner.person) ?? 0) + 1);
    lastTurn.delete(owner.org); // re-inserted last: the map stays in turn order, and small
    lastTurn.set(owner.org, ++tick);
  };
  const give = (owner: WorkOwner) => {
    running--;
    const o = busyOrgs.get(owner.org)! - 1;
    if (o) busyOrgs.set(owner.org, o);
    else busyOrgs.delete(owner.org);
    const p = busyPeople.get(owner.person)! - 1;
    if (p) busyPeople.set(owner.person, p);
    else busyPeople.delete(owner.person);
    if (!o && !queues.has(owner.org)) lastTurn.delete(owner.org);
  };
  const pump = () => {
    while (running < slots) {
      // Of the organizations with a task that may start, the one whose last turn is oldest (or that never had one).
      let best: { org: string; queue: Waiting[]; at: number; turn: number } | null = null;
      for (const [org, queue] of queues) {
        const at = queue.findIndex((w) => free(w.owner));
        if (at < 0) continue;
        const turn = lastTurn.get(org) ?? 0;
        if (!best || turn < best.turn) best = { org, queue, at, turn };
      }
      if (!best) return;
      const [next] = best.queue.splice(best.at, 1);
      if (!best.queue.length) queues.delete(best.org);
      if (next.onAbort) next.signal?.removeEventListener('abort', next.onAbort);
      take(next.owner);
      next.start();
    }
  };

  return {
    async run<T>(owner: WorkOwner, task: () => Promise<T>, signal?: AbortSignal): Promise<T> {
      signal?.throwIfAborted();
      if (running < slots && free(owner) && !queues.size) take(owner);
      else {
        await new Promise<void>((resolve, reject) => {
          const w: Waiting = { owner, start: resolve, signal };
          if (signal) {
            w.onAbort = () => {
              const queue = queues.get(owner.org);
              const at = queue?.indexOf(w) ?? -1;
              if (at >= 0) queue!.splice(at, 1);
              if (queue && !queue.length) queues.delete(owner.org);
              reject(signal.reason ?? new ServiceError('internal_error'));
            };
            signal.addEventListener('abort', w.onAbort, { once: true });
          }
          const queue = queues.get(owner.org);
          if (queue) queue.push(w);
          else queues.set(owner.org, [w]);
          pump();
        });
      }
      try {
        return await task();
      } finally {
        give(owner);
        pump();
      }
    },
    stats: () => ({ running, waiting: [...queues.values()].reduce((n, q) => n + q.length, 0) }),
  };
}

/** A binding call whose argument (JSON text) is at least this long waits its turn through `largeArgumentGate`. */
export const LARGE_ARGUMENT_CHARS = 32 * 1024;

/**
 * Binding calls with large arguments: parsing, validating and answering them is work on the server's event loop, so
 * one organization's (or person's) flood of them would take the loop from everyone else. At most one such call runs
 * at a time per organization and per person (the others wait here, holding no more than their text), a few in all,
 * and organizations take turns.
 */
export const largeArgumentGate = fairWorkGate(4);
