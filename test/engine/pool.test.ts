// The pool as a user of the engine sees it: pre-warmed slots, one execution per isolate, a bounded FIFO
// queue answering engine_busy, a fresh context every time, isolates replaced when they should be.
import t, { type Test } from 'tap';
import { BINDINGS, FakeHost } from './helpers/fake-host.ts';
import { startEngine } from './helpers/engine.ts';
import type { ExecutionResult } from '../../engine/index.ts';

const host = () => new FakeHost().hostCall;

t.test('starts pre-warmed: every slot ready, one isolate each', async (t) => {
  const engine = await startEngine({ poolSize: 3 });
  t.teardown(() => engine.close());
  const s = engine.stats();
  t.equal(s.poolSize, 3);
  t.same(s.slots, { ready: 3, busy: 0, starting: 0 });
  t.equal(s.isolatesLive, 3);
  const r = await engine.execute({ source: 'return 1 + 1', bindings: [], hostCall: host() });
  t.equal(r.ok, true);
  t.equal(r.result, 2);
  t.ok(r.stats.queueMs < 50, 'no waiting when a slot is free');
});

t.test('one execution per isolate at a time; the rest wait in FIFO order', async (t) => {
  const engine = await startEngine({ poolSize: 1, maxPoolSize: 1, queueMax: 10 });
  t.teardown(() => engine.close());
  const order: number[] = [];
  const runs = Array.from({ length: 5 }, (_, i) =>
    engine
      .execute({
        source: `const t = Date.now(); while (Date.now() - t < 20) {} return ${i}`,
        bindings: [],
        hostCall: host(),
      })
      .then((r) => {
        order.push(r.result as number);
        return r;
      }),
  );
  t.equal(engine.stats().queued, 4, 'four wait while one runs');
  const results = await Promise.all(runs);
  t.same(order, [0, 1, 2, 3, 4], 'finished in arrival order');
  for (let i = 1; i < 5; i++) t.ok(results[i].stats.queueMs >= 15 * i, `#${i} waited about ${i} executions (${results[i].stats.queueMs} ms)`);
});

t.test('a full queue answers engine_busy at once', async (t) => {
  const engine = await startEngine({ poolSize: 1, maxPoolSize: 1, queueMax: 1 });
  t.teardown(() => engine.close());
  const slow = { source: 'const t = Date.now(); while (Date.now() - t < 100) {} return 1', bindings: [], hostCall: host() };
  const running = engine.execute(slow);
  const queued = engine.execute(slow);
  const t0 = performance.now();
  const refused = await engine.execute(slow);
  t.ok(performance.now() - t0 < 20, 'refused without waiting');
  t.equal(refused.ok, false);
  t.equal(refused.error?.type, 'engine_busy');
  t.same(refused.logs, []);
  t.same((await running).result, 1);
  t.same((await queued).result, 1);
  t.equal(engine.stats().busyRejections, 1);
});

t.test('waiting longer than queueWaitMs answers engine_busy', async (t) => {
  const engine = await startEngine({ poolSize: 1, maxPoolSize: 1, queueMax: 5, queueWaitMs: 50 });
  t.teardown(() => engine.close());
  const running = engine.execute({ source: 'const t = Date.now(); while (Date.now() - t < 300) {} return 1', bindings: [], hostCall: host() });
  const waiting = await engine.execute({ source: 'return 2', bindings: [], hostCall: host() });
  t.equal(waiting.error?.type, 'engine_busy');
  t.ok(waiting.stats.queueMs >= 45 && waiting.stats.queueMs < 250, `gave up after ~50 ms (${waiting.stats.queueMs})`);
  t.equal((await running).result, 1);
});

t.test('long executions get overflow isolates so short ones are not stuck behind them', async (t) => {
  const engine = await startEngine({ poolSize: 1, maxPoolSize: 2, overflowAfterMs: 50, idleRetireMs: 100 });
  t.teardown(() => engine.close());
  // Ordering, not a time budget: the short one must end while the long one still waits on its binding (1 s,
  // room for building the overflow isolate on a loaded machine).
  let longDone = false;
  const long = engine
    .execute({ source: 'await files_list({}); return "slow io"', bindings: BINDINGS, hostCall: new FakeHost({ delayMs: 1000 }).hostCall })
    .then((r) => {
      longDone = true;
      return r;
    });
  const t0 = performance.now();
  const short = await engine.execute({ source: 'return "quick"', bindings: [], hostCall: host() });
  t.equal(short.result, 'quick');
  t.notOk(longDone, `did not wait for the long one (${(performance.now() - t0).toFixed(0)} ms)`);
  t.equal(engine.stats().overflowSlots, 1);
  t.equal((await long).result, 'slow io');
  await new Promise((resolve) => setTimeout(resolve, 250));
  const s = engine.stats();
  t.equal(s.isolatesLive, 1, 'the overflow isolate is retired once idle');
  t.same(s.slots, { ready: 1, busy: 0, starting: 0 });
  const burst = await Promise.all(Array.from({ length: 9 }, () => engine.execute({ source: 'return 1', bindings: [], hostCall: host() })));
  t.equal(burst.filter((r) => r.ok).length, 9, 'one runs, eight wait in the queue');
  t.equal(engine.stats().overflowSlots, 1, 'a burst of short scripts does not grow the pool');
});

t.test("one organization's long scripts cannot hold every isolate while another organization waits", async (t) => {
  // poolSize 2: each tenant runs at most 1 at once while others wait (half the pool), all of it when alone.
  const engine = await startEngine({ poolSize: 2, maxPoolSize: 2, queueMax: 10 });
  t.teardown(() => engine.close());
  const done: string[] = [];
  const spin = (name: string) =>
    engine
      .execute({
        source: `const t = Date.now(); while (Date.now() - t < 150) {} return '${name}'`,
        bindings: [],
        hostCall: host(),
        tenant: 'org_a',
      })
      .then((r) => {
        done.push(r.result as string);
        return r;
      });
  const a = ['a1', 'a2', 'a3', 'a4'].map(spin);
  t.same(engine.stats().slots.busy, 2, 'alone, org_a runs on both isolates');
  const b = engine.execute({ source: "return 'b'", bindings: [], hostCall: host(), tenant: 'org_b' }).then((r) => {
    done.push(r.result as string);
    return r;
  });
  const [ra, rb] = await Promise.all([Promise.all(a), b]);
  t.ok(ra[0].stats.queueMs < 50 && ra[1].stats.queueMs < 50, 'a1 and a2 started at once');
  t.equal(rb.ok, true);
  t.ok(done.indexOf('b') < done.indexOf('a3'), `the first freed isolate served org_b before org_a's third script (order ${done.join(', ')})`);
  t.same(done.slice().sort(), ['a1', 'a2', 'a3', 'a4', 'b'], 'every script ran');
});

/**
 * An engine of `poolSize` isolates (no overflow) with a history: org_long's scripts spun ~150 ms each, org_short's
 * took well under a millisecond. `run` spins for `ms` and returns `name`; `note` records completion order in `done`.
 */
async function tenantsWithHistory(t: Test, poolSize: number) {
  // A long queue wait: the grace test's stream of short scripts queues for ~4 s, and must not be refused while it does.
  const engine = await startEngine({ poolSize, maxPoolSize: poolSize, queueMax: 110, queueWaitMs: 30_000 });
  t.teardown(() => engine.close());
  const run = (tenant: string, ms: number, name = '') =>
    engine.execute({
      source: `const t = Date.now(); while (Date.now() - t < ${ms}) {} return '${name}'`,
      bindings: [],
      hostCall: host(),
      tenant,
    });
  for (let i = 0; i < 2; i++) await run('org_long', 150);
  for (let i = 0; i < 5; i++) await run('org_short', 0);
  // Holds an isolate for `ms` while using almost no CPU (awaiting a slow host call): its tenant stays 'short'.
  const hold = (tenant: string, ms: number, name: string) =>
    engine.execute({
      source: `await pause(); return '${name}'`,
      bindings: ['pause'],
      tenant,
      hostCall: async () => {
        await new Promise((r) => setTimeout(r, ms));
        return { ok: true, json: 'null' };
      },
    });
  const done: string[] = [];
  const note = (p: Promise<ExecutionResult>) =>
    p.then((r) => {
      done.push(r.result as string);
      return r;
    });
  return { run, hold, note, done };
}

t.test('when every waiting organization has its share, a freed isolate goes to the one whose scripts are short', async (t) => {
  // poolSize 3: each tenant runs at most 1 at once while others wait.
  const { run, note, done } = await tenantsWithHistory(t, 3);
  const held = [note(run('org_long', 300, 'long1')), note(run('org_short', 300, 'short1')), note(run('org_other', 100, 'other1'))];
  // Both wait with their organization at its share; org_long's is older. org_other's isolate frees first.
  const waiting = [note(run('org_long', 0, 'long2')), note(run('org_short', 0, 'short2'))];
  await Promise.all([...held, ...waiting]);
  t.ok(done.indexOf('short2') < done.indexOf('long2'), `org_short's script went first although org_long's waited longer (order ${done.join(', ')})`);
});

t.test("an organization whose scripts run long gets its share only after a short grace while others' short scripts wait", async (t) => {
  const { run, hold, note, done } = await tenantsWithHistory(t, 2);
  const held = [note(hold('org_short', 60, 'short1')), note(hold('org_short', 400, 'short2'))];
  // At ~60 ms one isolate frees. org_long runs nothing (under its share) but has waited far less than its grace
  // (5 x ~150 ms): short3 (30 ms) takes the isolate, and long follows it there at ~90 ms.
  const waiting = [note(run('org_long', 0, 'long')), note(hold('org_short', 30, 'short3'))];
  await Promise.all([...held, ...waiting]);
  t.ok(done.indexOf('short3') < done.indexOf('long'), `org_short's quick script went first (order ${done.join(', ')})`);
  // Once it has waited the grace (~750 ms: 5 x its mean CPU per execution), org_long is served ahead of the rest of a stream of short
  // scripts (~4 s: 100 host calls of 80 ms on two isolates, so a loaded machine's scheduling delays stay small
  // beside the grace; s90 is ~3.6 s in, far past any grace).
  const stream = Array.from({ length: 100 }, (_, i) => note(hold('org_short', 80, `s${i}`)));
  const late = note(run('org_long', 0, 'long-late'));
  const results = await Promise.all([...stream, late]);
  t.same(
    results.filter((r) => !r.ok).map((r) => r.error?.type),
    [],
    'every script of the stream ran',
  );
  const at = done.indexOf('long-late');
  t.ok(at > done.indexOf('s3'), `not before its grace (after ${at - 4} of the stream)`);
  t.ok(at < done.indexOf('s90'), 'but well before the short stream ran out');
});

t.test('every execution gets a fresh context on a reused isolate', async (t) => {
  const engine = await startEngine({ poolSize: 1 });
  t.teardown(() => engine.close());
  const source = 'const before = [typeof globalThis.mark, typeof Array.prototype.extra]; globalThis.mark = 1; Array.prototype.extra = 1; return before';
  for (let i = 0; i < 5; i++) {
    const r = await engine.execute({ source, bindings: [], hostCall: host() });
    t.same(r.result, ['undefined', 'undefined'], `execution ${i + 1} starts clean`);
  }
  t.equal(engine.stats().isolatesBuilt, 1, 'on the same isolate');
});

t.test('an isolate is replaced after N executions, after a timeout and after a memory kill', async (t) => {
  const engine = await startEngine({ poolSize: 1, maxPoolSize: 1, maxExecutionsPerIsolate: 3 });
  t.teardown(() => engine.close());
  for (let i = 0; i < 7; i++) await engine.execute({ source: 'return 1', bindings: [], hostCall: host() });
  await engine.ready();
  t.equal(engine.stats().recycled.max_executions, 2, 'every 3 executions');
  await engine.execute({ source: 'while (true) {}', bindings: [], hostCall: host(), limits: { wallMs: 50 } });
  await engine.execute({ source: 'const a = []; for (;;) a.push({ x: a.length })', bindings: [], hostCall: host() });
  await engine.ready();
  const s = engine.stats();
  t.equal(s.recycled.timeout, 1);
  t.equal(s.recycled.memory_limit, 1);
  t.equal(s.isolatesLive, 1, 'old isolates are disposed');
  t.equal((await engine.execute({ source: 'return "fine"', bindings: [], hostCall: host() })).result, 'fine');
});

t.test('an execution that leaves host calls pending gets a new isolate', async (t) => {
  const engine = await startEngine({ poolSize: 1 });
  t.teardown(() => engine.close());
  const slow = new FakeHost({ delayMs: 100 });
  const r = await engine.execute({ source: 'files_list({}); return "left it"', bindings: BINDINGS, hostCall: slow.hostCall });
  t.equal(r.result, 'left it');
  await engine.ready();
  t.equal(engine.stats().recycled.abandoned_calls, 1);
  await new Promise((resolve) => setTimeout(resolve, 150));
  t.equal(slow.calls[0].signal.aborted, true, 'the abandoned call was aborted');
});

t.test('requests are validated before anything runs', async (t) => {
  const engine = await startEngine({ poolSize: 1 });
  t.teardown(() => engine.close());
  const bad = [
    { source: 1, bindings: [], hostCall: host() },
    { source: '1', bindings: ['Files-List'], hostCall: host() },
    { source: '1', bindings: ['console'], hostCall: host() },
    { source: '1', bindings: [], hostCall: 'nope' },
    { source: '1', bindings: [], hostCall: host(), limits: { wallMs: -1 } },
    { source: '1', bindings: [], hostCall: host(), limits: { memoryMb: 1024 } },
    { source: '1', bindings: [], hostCall: host(), snapshot: 'AAAA' },
  ];
  for (const request of bad) {
    const r = await engine.execute(request as never);
    t.equal(r.error?.type, 'internal_error', JSON.stringify(Object.keys(request)));
  }
  t.equal(engine.stats().executions, 0, 'none reached an isolate');
});

t.test('close() refuses queued work and ends running executions', async (t) => {
  const engine = await startEngine({ poolSize: 1, maxPoolSize: 1, queueMax: 5 });
  const running = engine.execute({ source: 'while (true) {}', bindings: [], hostCall: host() });
  const queued = engine.execute({ source: 'return 1', bindings: [], hostCall: host() });
  await engine.close();
  t.equal((await running).error?.type, 'internal_error');
  t.equal((await queued).error?.type, 'engine_busy');
  t.equal((await engine.execute({ source: 'return 1', bindings: [], hostCall: host() })).error?.type, 'internal_error');
  t.equal(engine.stats().isolatesLive, 0);
});
