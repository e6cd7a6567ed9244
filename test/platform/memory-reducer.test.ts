// The server gives its heap's garbage pages back after a burst of work, once idle (server/ops/memory-reducer.ts):
// the rule, step by step, and the real collection on this process's heap. `npm run soak` measures the effect on a
// real server (its host-work flood: RSS back within 50 MB of where it was before).
import t from 'tap';
import v8 from 'node:v8';
import vm from 'node:vm';
import { reduceOnce, startMemoryReducer } from '../../server/ops/memory-reducer.ts';

const MB = 1024 * 1024;

t.test('collects once the heap has grown and the server is idle, and only then', async (t) => {
  let heap = 100 * MB;
  let collections = 0;
  const state = { mark: heap };
  const collect = () => {
    collections++;
    heap = 110 * MB;
  };
  heap = 150 * MB;
  t.notOk(
    reduceOnce(state, () => heap, 0.01, collect),
    'grown by 50 MB: not yet',
  );
  heap = 170 * MB;
  t.notOk(
    reduceOnce(state, () => heap, 0.5, collect),
    'grown by 70 MB but busy: never interrupted',
  );
  t.ok(
    reduceOnce(state, () => heap, 0.01, collect),
    'grown by 70 MB and idle: collected',
  );
  t.equal(state.mark, 110 * MB, 'what stayed live is the new mark');
  t.notOk(
    reduceOnce(state, () => heap, 0.01, collect),
    'a live heap is not collected again until it grows',
  );
  heap = 175 * MB;
  t.ok(
    reduceOnce(state, () => heap, 0, collect),
    'grown again past the new mark: collected again',
  );
  t.equal(collections, 2);
});

t.test('the collection it makes gives garbage pages back', async (t) => {
  const stop = startMemoryReducer(); // gets V8's gc function as the server does, without a global
  t.teardown(stop);
  t.equal(typeof (globalThis as { gc?: unknown }).gc, 'undefined', 'no gc global appears');
  // Garbage the size of a flood's leftovers, dropped at once.
  let junk: unknown[] | null = Array.from({ length: 200 }, (_, i) => new Array(50_000).fill(i));
  const grown = v8.getHeapStatistics().total_heap_size;
  junk = null;
  void junk;
  // V8's gc function, as the reducer obtains it (it set the flag above).
  const collect = vm.runInNewContext('gc') as () => void;
  t.ok(
    reduceOnce({ mark: 0 }, () => v8.getHeapStatistics().total_heap_size, 0, collect),
    'collected',
  );
  const after = v8.getHeapStatistics().total_heap_size;
  t.comment(`heap ${Math.round(grown / MB)} MB with the garbage, ${Math.round(after / MB)} MB after`);
  t.ok(after < grown - 40 * MB, 'the heap shrank by the garbage (80 MB of it)');
});
