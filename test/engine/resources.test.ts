// Issue 15 part B: nothing a script leaves behind runs on another tenant's time, and caches cannot tell one
// organization what another ran. Real isolates, a pool of one so both tenants share the same isolate.
import t from 'tap';
import { BINDINGS, FakeHost } from './helpers/fake-host.ts';
import { startEngine } from './helpers/engine.ts';

const run = (engine: Awaited<ReturnType<typeof startEngine>>, source: string, tenant: string, wallMs = 2000) =>
  engine.execute({ source, bindings: BINDINGS, hostCall: new FakeHost().hostCall, tenant, limits: { wallMs, cpuMs: wallMs } });

t.test("a GC callback of organization A never runs during organization B's execution", async (t) => {
  const engine = await startEngine({ poolSize: 1, maxPoolSize: 1 });
  t.teardown(() => engine.close());
  // 200,000 registrations of dead objects whose callbacks spin 1 ms each: ~200 s of work.
  const a = await run(engine, `
    const spin = () => { const t = Date.now(); while (Date.now() - t < 1) {} };
    const registry = new FinalizationRegistry(spin);
    for (let i = 0; i < 200000; i++) registry.register({ i }, i);
    // Collections during A queue the cleanup task; A returns before the isolate gets to run it.
    for (let i = 0; i < 40; i++) new Array(100000).fill(i);
    return 'registered';`, 'org_a');
  t.equal(a.ok, false, 'A cannot register GC callbacks');
  t.match(a.error?.message, /FinalizationRegistry is not defined/);
  // B allocates enough garbage to force full collections on the isolate A just used, and makes host calls:
  // cleanup tasks V8 posts after a collection run between an execution's tasks.
  const b = await run(engine, `
    let keep = 0;
    for (let i = 0; i < 40; i++) { keep += new Array(100000).fill(i).length; await context(); }
    return keep;`, 'org_b');
  t.equal(b.ok, true, `B's execution succeeds (${b.error?.type ?? 'ok'})`);
  t.equal(b.result, 4_000_000);
  t.ok(b.stats.wallMs < 1000, `B was not slowed by A's callbacks (${b.stats.wallMs} ms)`);
});

t.test('a WeakRef cannot observe collections caused by another execution', async (t) => {
  const engine = await startEngine({ poolSize: 1, maxPoolSize: 1 });
  t.teardown(() => engine.close());
  const r = await run(engine, 'return [typeof WeakRef, typeof FinalizationRegistry, typeof globalThis.WeakRef]', 'org_a');
  t.same(r.result, ['undefined', 'undefined', 'undefined']);
});
