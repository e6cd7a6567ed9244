// Every hostile script (fixtures/scripts/hostile) against real isolates: the outcome its
// header expects, no host call after the end, the host alive, and the pool whole afterwards, first one
// at a time and then all at once beside benign scripts.
import t, { type Test } from 'tap';
import { BINDINGS, FakeHost } from './helpers/fake-host.ts';
import { checkOutcome, isolatesRss, loadFixtures, startEngine, type Fixture } from './helpers/engine.ts';
import type { Engine, ExecutionResult } from '../../engine/index.ts';

const POOL = 2;
const WALL_MS = 300;
const fixtures = loadFixtures('hostile');

async function runFixture(
  engine: Engine,
  fx: Fixture,
  host = new FakeHost(),
  wallMs = WALL_MS,
): Promise<{ result: ExecutionResult; host: FakeHost; endedAt: number }> {
  // Hostile scripts run for one organization; the benign ones beside them for another (checkHealthy).
  const request = {
    source: fx.source,
    bindings: BINDINGS,
    hostCall: host.hostCall,
    limits: { wallMs, cpuMs: wallMs, ...fx.limits },
    tenant: 'org_hostile',
    ...fx.options,
  };
  const result = await engine.execute(request);
  return { result, host, endedAt: performance.now() };
}

function checkHost(t: Test, fx: Fixture, host: FakeHost, endedAt: number): void {
  const late = host.calls.filter((c) => c.at > endedAt);
  t.same(
    late.map((c) => c.name),
    [],
    `${fx.file}: no host call after the execution ended`,
  );
  if (fx.neverCalled) t.equal(host.called(fx.neverCalled).length, 0, `${fx.file}: ${fx.neverCalled} never reached the host`);
  if (fx.received) {
    t.ok(
      host.calls.some((c) => c.name === fx.received!.name && c.argsJson === fx.received!.argsJson),
      `${fx.file}: host received ${fx.received.name} ${fx.received.argsJson}`,
    );
  }
}

async function checkHealthy(t: Test, engine: Engine): Promise<void> {
  await engine.ready();
  const stats = engine.stats();
  t.ok(stats.slots.ready >= POOL && stats.slots.busy === 0 && stats.slots.starting === 0, `every slot is usable again (${stats.slots.ready})`);
  t.ok(stats.isolatesLive <= 2 * POOL, 'no isolate outlives its slot; overflow stays within maxPoolSize');
  const benign = await engine.execute({
    source: 'const r = await files_list({ limit: 2 }); return r.items.map((f) => f.name)',
    bindings: BINDINGS,
    hostCall: new FakeHost().hostCall,
    tenant: 'org_benign',
  });
  t.same(benign.result, ['report-1.csv', 'report-2.csv'], 'a benign script runs');
}

// 35 cases of the first hostile checklist, then the allocation and scheduling paths found later (36-52). Patterns that end in a
// V8 fatal error, or that only a host process's memory cap bounds, are in fixtures/scripts/hostile/fatal/.
const COUNT = 52;

t.test(`the fixture set covers all ${COUNT} cases`, async (t) => {
  t.equal(fixtures.length, COUNT);
  t.same(
    fixtures.map((f) => f.file.slice(0, 2)),
    Array.from({ length: COUNT }, (_, i) => String(i + 1).padStart(2, '0')),
  );
  for (const fx of fixtures) t.ok(fx.expect.length > 0 && fx.source.startsWith('// expect: '), `${fx.file} states its outcome`);
});

t.test('each hostile script alone', async (t) => {
  const engine = await startEngine({ poolSize: POOL });
  t.teardown(() => engine.close());
  for (const fx of fixtures) {
    const host = new FakeHost();
    for (let i = 0; i < fx.repeat; i++) {
      const rssBefore = isolatesRss(engine);
      let peak = rssBefore;
      const sampler = setInterval(() => {
        peak = Math.max(peak, isolatesRss(engine));
      }, 5);
      const { result, endedAt } = await runFixture(engine, fx, host);
      clearInterval(sampler);
      t.same(checkOutcome(fx, result), [], `${fx.file}${fx.repeat > 1 ? ` #${i + 1}` : ''}: ${result.ok ? 'ok' : result.error!.type}`);
      checkHost(t, fx, host, endedAt);
      // Logs are capped in bytes whatever the script does.
      t.ok(result.logs.reduce((n, l) => n + Buffer.byteLength(l.message), 0) <= 65536 + 200, `${fx.file}: logs stay within budget`);
      // the host grows by about the isolate's limit at most (64 MB heap, V8 may overshoot); the later
      // fixtures state their own bound beside the figure measured before the prelude's guards.
      const maxRssMb = fx.maxRssMb ?? (fx.file.startsWith('06') || fx.file.startsWith('07') ? 200 : undefined);
      if (maxRssMb !== undefined) {
        t.ok(peak - rssBefore < maxRssMb * 1024 * 1024, `${fx.file}: host RSS grew ${((peak - rssBefore) / 1048576).toFixed(0)} MB (bound ${maxRssMb} MB)`);
      }
      if (result.error?.type === 'timeout') {
        // The fixture's own deadline when it sets one (memory bombs get 3 s; under load they may reach it).
        const deadline = fx.limits?.wallMs ?? WALL_MS;
        t.ok(result.stats.wallMs < deadline + 250, `${fx.file}: stopped near its ${deadline} ms deadline (${result.stats.wallMs} ms)`);
      }
    }
  }
  await checkHealthy(t, engine);
});

t.test('hostile scripts all at once beside benign ones', async (t) => {
  const engine = await startEngine({ poolSize: POOL, queueMax: 200, queueWaitMs: 60_000 });
  t.teardown(() => engine.close());
  const hostile = fixtures.filter((fx) => fx.repeat === 1);
  const extra = Array.from({ length: 20 }, (_, i) => hostile[i % hostile.length]);
  const benignHost = new FakeHost();
  const benign = Array.from({ length: 60 }, (_, i) =>
    engine.execute({
      source: `const r = await files_list({ limit: 3 }); await context(); return ${i} + r.items.length`,
      bindings: BINDINGS,
      hostCall: benignHost.hostCall,
      tenant: 'org_benign',
    }),
  );
  // Scripts meant to finish get more time here: they share two cores with 50 other scripts and, under `npm test`,
  // with another test file. 1.5 s was once not enough for the 100,000-call flood to reach its in-flight cap under a
  // full-suite run (it passes alone); the outcome asserted is unchanged, only the wall budget reflects the sharing.
  const runs = [...hostile, ...extra].map(async (fx) => ({
    fx,
    ...(await runFixture(engine, fx, new FakeHost(), fx.expect.includes('timeout') ? WALL_MS : 3000)),
  }));
  const outcomes = await Promise.all(runs);
  for (const { fx, result, host, endedAt } of outcomes) {
    // Under this load a memory bomb may reach its deadline before its heap limit: both stop it.
    const allowed = fx.expect.includes('memory_limit') ? { ...fx, expect: [...fx.expect, 'timeout'] } : fx;
    t.same(checkOutcome(allowed, result), [], `${fx.file} (concurrent): ${result.ok ? 'ok' : result.error!.type}`);
    checkHost(t, fx, host, endedAt);
  }
  const benignResults = await Promise.all(benign);
  t.same(
    benignResults.map((r) => r.result),
    Array.from({ length: 60 }, (_, i) => i + 3),
    'every benign script got its own result',
  );
  await checkHealthy(t, engine);
});

t.test('a host call pending at a kill is aborted and never answered into the next execution', async (t) => {
  const engine = await startEngine({ poolSize: 1 });
  t.teardown(() => engine.close());
  const host = new FakeHost({ delayMs: 'never' });
  const r = await engine.execute({ source: 'await files_list({}); return 1', bindings: BINDINGS, hostCall: host.hostCall, limits: { wallMs: 150 } });
  t.equal(r.error?.type, 'timeout');
  t.equal(host.calls[0].signal.aborted, true, 'the pending call was told to stop');
  const next = await engine.execute({ source: 'return typeof files_list', bindings: BINDINGS, hostCall: new FakeHost().hostCall });
  t.same(next.result, 'function');
});
