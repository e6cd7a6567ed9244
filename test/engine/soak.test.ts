// 10,000 executions mixing every hostile fixture with benign scripts and the examples. Each
// outcome is checked; host RSS, live isolates and isolated-vm reference counts must stay flat.
import t from 'tap';
import v8 from 'node:v8';
import vm from 'node:vm';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { BINDINGS, FakeHost } from './helpers/fake-host.ts';
import { checkOutcome, loadFixtures, ROOT, startEngine, type Fixture } from './helpers/engine.ts';

const TOTAL = 10_000;
const POOL = 2;
const CONCURRENCY = 4;
const HOSTILE_WALL_MS = 200;

v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc') as () => void;
const settle = async () => {
  for (let i = 0; i < 3; i++) {
    gc();
    await new Promise((r) => setTimeout(r, 20));
  }
};

const hostile = loadFixtures('hostile');
const examplesDir = join(ROOT, 'fixtures/scripts/examples');
const benign: Fixture[] = [
  ...readdirSync(examplesDir).map((file) => ({ file, source: readFileSync(join(examplesDir, file), 'utf8'), expect: ['ok'], repeat: 1 })),
  { file: 'trivial', source: 'return 1 + 1', expect: ['ok'], result: 2, repeat: 1 },
  {
    file: 'two-calls',
    source: 'const a = await files_list({ limit: 2 }); const c = await context(); return a.items.length + c.scopes.length',
    expect: ['ok'],
    result: 5,
    repeat: 1,
  },
  { file: 'logs', source: 'for (let i = 0; i < 20; i++) console.log("line", i); return "logged"', expect: ['ok'], result: 'logged', repeat: 1 },
];

t.test(`${TOTAL} mixed executions keep memory and handles flat`, async (t) => {
  const engine = await startEngine({ poolSize: POOL, queueMax: 100, queueWaitMs: 60_000, maxExecutionsPerIsolate: 500, idleRetireMs: 100 });
  // Idle long enough for overflow isolates to be retired: back to exactly POOL slots.
  const quiesce = async () => {
    await engine.ready();
    await new Promise((r) => setTimeout(r, 250));
    await settle();
  };
  t.teardown(() => engine.close());
  // Short deadlines for scripts meant to hit them; the rest may need more under this load.
  const limitsFor = (fx: Fixture) => {
    const wallMs = fx.expect.includes('timeout') ? HOSTILE_WALL_MS : 2000;
    return { wallMs, cpuMs: wallMs, ...fx.limits };
  };
  const runOne = async (fx: Fixture) => {
    const request = { source: fx.source, bindings: BINDINGS, hostCall: new FakeHost().hostCall, limits: limitsFor(fx), ...fx.options };
    return engine.execute(request);
  };

  // Calibrate: scripts that take long (deadlines, memory bombs, heavy CPU) are mixed in rarely.
  const slow: Fixture[] = [];
  const fast: Fixture[] = [];
  for (const fx of hostile) {
    const r = await runOne(fx);
    (r.stats.wallMs > 25 || (!r.ok && ['timeout', 'memory_limit'].includes(r.error!.type)) ? slow : fast).push(fx);
  }
  t.ok(slow.length > 10 && fast.length > 10, `${slow.length} slow and ${fast.length} fast hostile fixtures`);

  const plan: Fixture[] = Array.from({ length: TOTAL }, (_, i) => {
    if (i % 250 === 125) return slow[((i / 250) | 0) % slow.length];
    if (i % 10 === 5) return fast[((i / 10) | 0) % fast.length];
    return benign[i % benign.length];
  });
  const problems: string[] = [];
  const counts: Record<string, number> = {};
  let baseline: { rss: number; refs: number } | undefined;
  let next = 0;
  let pause: Promise<void> | null = null;
  const t0 = performance.now();
  const worker = async () => {
    while (next < plan.length) {
      if (pause) await pause;
      const i = next++;
      const fx = plan[i];
      if (i === 1000 && !baseline) {
        // Warmed up: record the baseline once the pool is idle. RSS as the other workers go on; references
        // once every worker waits and nothing runs (a busy slot also holds its next execution's context).
        await quiesce();
        const rss = process.memoryUsage.rss();
        pause = quiesce().then(() => {
          const s = engine.stats();
          baseline = { rss, refs: s.referenceCount - s.cachedScripts };
          pause = null;
        });
        await pause;
      }
      const r = await runOne(fx);
      const key = r.ok ? 'ok' : r.error!.type;
      counts[key] = (counts[key] ?? 0) + 1;
      const allowed = fx.expect.includes('memory_limit') ? { ...fx, expect: [...fx.expect, 'timeout'] } : fx;
      for (const p of checkOutcome(allowed, r)) problems.push(`#${i} ${fx.file}: ${p}`);
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  const seconds = (performance.now() - t0) / 1000;
  t.same(problems.slice(0, 10), [], 'every execution had its expected outcome');
  t.equal(
    Object.values(counts).reduce((a, b) => a + b, 0),
    TOTAL,
    `${TOTAL} executions in ${seconds.toFixed(1)} s: ${JSON.stringify(counts)}`,
  );

  await quiesce();
  const stats = engine.stats();
  const rssGrowth = (process.memoryUsage.rss() - baseline!.rss) / 1048576;
  t.ok(rssGrowth < 64, `host RSS grew ${rssGrowth.toFixed(1)} MB over ${TOTAL - 1000} executions`);
  // Each cached compiled script holds one reference; everything else must be back to where it was.
  t.equal(
    stats.referenceCount - stats.cachedScripts,
    baseline!.refs,
    `isolated-vm references flat (${stats.referenceCount}, ${stats.cachedScripts} cached scripts)`,
  );
  t.ok(stats.cachedScripts <= POOL * 64, 'the script cache stays bounded');
  t.equal(stats.isolatesLive, POOL, 'one live isolate per slot');
  t.same(stats.slots, { ready: POOL, busy: 0, starting: 0 });
  t.comment(`recycled: ${JSON.stringify(stats.recycled)}; isolates built: ${stats.isolatesBuilt}`);
});
