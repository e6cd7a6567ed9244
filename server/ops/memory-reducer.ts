// Gives the server's memory back after a burst of work. Host work done for scripts (a spreadsheet's cells as JSON,
// 250 KB binding arguments parsed by the thousand) leaves V8's heap far larger than what stays live, and V8 returns
// those pages only at a full collection, which an idle server never triggers: after a 30 s flood of such work the
// server kept 165 MB of garbage pages for as long as it stayed idle (measured with `npm run soak`: RSS 230 MB before,
// 430-470 MB after 20 s idle; a forced full collection took the heap's pages from 204 MB to 39 MB). Every few
// seconds this looks at the heap: grown by GROWTH_BYTES since the last collection it made, with the event loop
// nearly idle meanwhile, it collects once (50 ms or so, at a moment nobody waits), and what stays live becomes the
// new mark. A busy server is never interrupted, and a heap that is live is not collected again until it grows.
import v8 from 'node:v8';
import vm from 'node:vm';
import { performance } from 'node:perf_hooks';

const EVERY_MS = 5000;
const GROWTH_BYTES = 64 * 1024 * 1024;
/** The event loop's utilization over the last EVERY_MS below which the server counts as idle. */
const IDLE_UTILIZATION = 0.05;

export interface ReducerState {
  mark: number;
}

/**
 * One look: collect when the heap has grown by GROWTH_BYTES past the mark and the loop was idle. Returns whether it
 * collected; the mark becomes the heap's size after it.
 */
export function reduceOnce(state: ReducerState, heapBytes: () => number, utilization: number, collect: () => void): boolean {
  if (utilization > IDLE_UTILIZATION || heapBytes() < state.mark + GROWTH_BYTES) return false;
  collect();
  state.mark = heapBytes();
  return true;
}

/** Starts the timer (unref'd: it never keeps the process up); returns the function that stops it. */
export function startMemoryReducer(): () => void {
  // V8's gc function, without exposing it as a global: the flag set now gives it to contexts made after.
  v8.setFlagsFromString('--expose-gc');
  const collect = vm.runInNewContext('gc') as () => void;
  const heapBytes = () => v8.getHeapStatistics().total_heap_size;
  const state: ReducerState = { mark: heapBytes() };
  let since = performance.eventLoopUtilization();
  const timer = setInterval(() => {
    const { utilization } = performance.eventLoopUtilization(since);
    since = performance.eventLoopUtilization();
    reduceOnce(state, heapBytes, utilization, collect);
  }, EVERY_MS);
  timer.unref();
  return () => clearInterval(timer);
}
