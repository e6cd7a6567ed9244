// Script engine throughput and latency beside its peers, in one run: our pool with its isolates in sandbox host
// processes (the default: pinned one per CPU where possible), the same unpinned, and in-process (ENGINE_HOSTS=0);
// isolated-vm with a new isolate per execution; node:vm with a fresh context; quickjs-emscripten with a fresh context;
// our pool with busy-loop scripts of another organization (and, for reference, of the same one) alongside; and a
// crash storm (BENCH_STORM_MS, default 60 s): one organization sending scripts that kill their host in a loop while
// another runs (b) at a steady rate; and two storms of one person with many organizations (a third of that each):
// twelve organizations with two spinning scripts each, and a host-killing script rotated over four organizations.
// Run: npm run bench -- engine
import ivm from 'isolated-vm';
import vm from 'node:vm';
import { availableParallelism } from 'node:os';
import { getQuickJS } from 'quickjs-emscripten';
import { createEngine, type Engine } from '../engine/index.ts';
import { loadConfig } from '../server/config.ts';
import { interleaved, measure, median, type Cell, type Runner } from './lib/interleave.ts';
import { BINDINGS, hostCall, SCRIPTS } from './lib/engine-scripts.ts';

const MEASURE_MS = Number(process.env.BENCH_MS ?? 1500);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 20);
const ROUND_MS = 500;
const WARMUP_MS = 300;
const HOSTILE_WALL_MS = 50;
const STORM_MS = Number(process.env.BENCH_STORM_MS ?? 60_000);
const STORM_RATE_MS = 20;
const FATAL = 'const s = new Set(); for (;;) s.add(Math.random())';
function poolRunner(name: string, engine: Engine): Runner {
  return {
    name,
    async run(source) {
      const r = await engine.execute({ source, bindings: BINDINGS, hostCall, tenant: 'org_benign' });
      if (!r.ok) throw new Error(`${name}: ${r.error?.type} ${r.error?.message}`);
      return r.result;
    },
    close: () => engine.close(),
  };
}

/** The naive isolated-vm design: an isolate built and disposed inside every request. */
function isolatePerExecution(): Runner {
  const install = `for (const n of $1.split(',')) globalThis[n] = async (a) =>
    JSON.parse(await $0.apply(undefined, [n, JSON.stringify(a === undefined ? null : a)], { result: { promise: true } }));`;
  return {
    name: 'isolated-vm, new isolate per execution',
    async run(source) {
      const isolate = new ivm.Isolate({ memoryLimit: 64 });
      try {
        const context = await isolate.createContext();
        const dispatch = new ivm.Reference(
          async (name: string, json: string) => ((await hostCall(name, json, new AbortController().signal)) as { json: string }).json,
        );
        await context.evalClosure(install, [dispatch, BINDINGS.join(',')]);
        const out = await context.eval(`(async () => {\n${source}\n})().then((v) => JSON.stringify(v))`, { promise: true, timeout: 5000 });
        return JSON.parse(out as string);
      } finally {
        isolate.dispose();
      }
    },
    close() {},
  };
}

/** node:vm, a fresh context per execution (a speed floor: Node says it is not a security boundary). */
function nodeVm(): Runner {
  const install = `for (const n of names.split(',')) globalThis[n] = async (a) => JSON.parse(await host(n, JSON.stringify(a === undefined ? null : a)));`;
  const host = async (name: string, json: string) => ((await hostCall(name, json, new AbortController().signal)) as { json: string }).json;
  return {
    name: 'node:vm, fresh context',
    async run(source) {
      const context = vm.createContext({ host, names: BINDINGS.join(',') });
      vm.runInContext(install, context);
      const out = await vm.runInContext(`(async () => {\n${source}\n})().then((v) => JSON.stringify(v))`, context, { timeout: 5000 });
      return JSON.parse(out);
    },
    close() {},
  };
}

/**
 * quickjs-emscripten (release sync build), a fresh context per execution on one warm runtime. Async host
 * calls: each binding returns a deferred promise (context.newPromise) settled when the host answers, then
 * runtime.executePendingJobs() runs the continuations.
 */
async function quickjs(): Promise<Runner> {
  const QuickJS = await getQuickJS();
  const runtime = QuickJS.newRuntime();
  runtime.setMemoryLimit(64 * 1024 * 1024);
  const install = `for (const n of names.split(',')) globalThis[n] = async (a) => JSON.parse(await host(n, JSON.stringify(a === undefined ? null : a)));`;
  return {
    name: 'quickjs-emscripten, fresh context',
    async run(source) {
      const ctx = runtime.newContext();
      try {
        const host = ctx.newFunction('host', (nameH, jsonH) => {
          const deferred = ctx.newPromise();
          hostCall(ctx.getString(nameH), ctx.getString(jsonH), new AbortController().signal).then((r) => {
            const value = ctx.newString((r as { json: string }).json);
            deferred.resolve(value);
            value.dispose();
            deferred.dispose();
            runtime.executePendingJobs();
          });
          return deferred.handle;
        });
        ctx.setProp(ctx.global, 'host', host);
        host.dispose();
        const names = ctx.newString(BINDINGS.join(','));
        ctx.setProp(ctx.global, 'names', names);
        names.dispose();
        ctx.unwrapResult(ctx.evalCode(install)).dispose();
        const promise = ctx.unwrapResult(ctx.evalCode(`(async () => {\n${source}\n})().then((v) => JSON.stringify(v))`));
        const settled = ctx.resolvePromise(promise);
        promise.dispose();
        runtime.executePendingJobs();
        const out = ctx.unwrapResult(await settled);
        const json = ctx.getString(out);
        out.dispose();
        return JSON.parse(json);
      } finally {
        ctx.dispose();
      }
    },
    close: () => runtime.dispose(),
  };
}

/** Keep `count` busy-loop scripts of `tenant`, with a short deadline, running on the engine until stopped. */
function hostileLoad(engine: Engine, count: number, wallMs: number, tenant: string): { stop: () => Promise<number> } {
  let running = true;
  let runs = 0;
  const loops = Array.from({ length: count }, async () => {
    while (running) {
      const r = await engine.execute({ source: 'while (true) {}', bindings: [], hostCall, limits: { wallMs }, tenant });
      if (r.error?.type !== 'timeout') throw new Error(`hostile script was not stopped: ${JSON.stringify(r.error)}`);
      runs++;
    }
  });
  return {
    stop: async () => {
      running = false;
      await Promise.all(loops);
      return runs;
    },
  };
}

const fmt = (n: number, digits = 2) => n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });

/** (b) every STORM_RATE_MS for `ms`: latencies, and failures (any result not ok). */
async function steady(engine: Engine, ms: number, person?: string): Promise<{ p50: number; p99: number; n: number; failed: number }> {
  const latencies: number[] = [];
  let failed = 0;
  const pending: Promise<void>[] = [];
  const until = performance.now() + ms;
  while (performance.now() < until) {
    const t0 = performance.now();
    pending.push(
      engine
        .execute({ source: SCRIPTS.b, bindings: BINDINGS, repeatable: BINDINGS, hostCall, tenant: 'org_benign', ...(person ? { person } : {}) })
        .then((r) => {
          if (!r.ok) failed++;
          latencies.push(performance.now() - t0);
        }),
    );
    await new Promise((r) => setTimeout(r, STORM_RATE_MS));
  }
  await Promise.all(pending);
  latencies.sort((x, y) => x - y);
  const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * q))];
  return { p50: at(0.5), p99: at(0.99), n: latencies.length, failed };
}

/** Quiet, then the same steady benign load while org_storm sends fatal scripts from two loops. */
async function crashStorm(config: Parameters<typeof createEngine>[0], ms: number): Promise<string> {
  const engine = createEngine(config);
  await engine.ready();
  const quiet = await steady(engine, Math.min(ms, 10_000));
  let storming = true;
  let crashed = 0;
  let refused = 0;
  const storm = [1, 2].map(async () => {
    while (storming) {
      const r = await engine.execute({ source: FATAL, bindings: [], hostCall, tenant: 'org_storm' });
      // V8's out-of-memory ends the script as its memory_limit, and its host after it.
      if (r.error?.type === 'crashed' || r.error?.type === 'memory_limit') crashed++;
      else if (r.error?.type === 'quarantined') {
        refused++;
        await new Promise((res) => setTimeout(res, 50));
      }
    }
  });
  const during = await steady(engine, ms);
  storming = false;
  await Promise.all(storm);
  const hosts = engine.stats().hosts!;
  await engine.close();
  const q = config.quarantineAfter ? `quarantine after ${config.quarantineAfter}` : 'quarantine after 3 (default)';
  return (
    `| ${fmt(ms / 1000, 0)} s, ${q} | ${fmt(quiet.p50)} / ${fmt(quiet.p99)} | ${fmt(during.p50)} / ${fmt(during.p99)} | ${fmt(during.p99 / quiet.p99)}× | ${during.failed} of ${during.n} ` +
    `| ${crashed} ended (crashed or memory_limit), ${refused} refused | ${JSON.stringify(hosts.crashes)} |`
  );
}

/**
 * One person, many organizations (each request names the person, as the server does): quiet, then the same steady
 * benign load of another person while the storm runs. `spin`: twelve organizations with two scripts each spinning to
 * their deadline; `rotate`: a host-killing script rotated over four organizations from two loops.
 */
async function personStorm(config: Parameters<typeof createEngine>[0], kind: 'spin' | 'rotate', ms: number): Promise<string> {
  const engine = createEngine(config);
  await engine.ready();
  // Both persons have run a clean script before (a person new to the engine runs in the cordon; see pool.ts).
  for (const [tenant, person] of [
    ['org_benign', 'usr_benign'],
    ['org_storm1', 'usr_storm'],
  ]) {
    await engine.execute({ source: 'return 1', bindings: [], hostCall, tenant, person });
  }
  const quiet = await steady(engine, Math.min(ms, 10_000), 'usr_benign');
  let storming = true;
  const counts: Record<string, number> = {};
  const orgs = kind === 'spin' ? 12 : 4;
  const loops = Array.from({ length: kind === 'spin' ? 2 * orgs : 2 }, async (_, i) => {
    for (let n = i; storming; n += 2) {
      const tenant = `org_storm${1 + (kind === 'spin' ? i % orgs : n % orgs)}`;
      const r = await engine.execute({ source: kind === 'spin' ? 'while (true) {}' : FATAL, bindings: [], hostCall, tenant, person: 'usr_storm' });
      const type = r.error?.type ?? 'ok';
      counts[type] = (counts[type] ?? 0) + 1;
      if (type === 'quarantined' || type === 'engine_busy') await new Promise((res) => setTimeout(res, 50));
    }
  });
  const during = await steady(engine, ms, 'usr_benign');
  storming = false;
  await Promise.all(loops);
  const hosts = engine.stats().hosts!;
  await engine.close();
  const label =
    kind === 'spin'
      ? `${fmt(ms / 1000, 0)} s, 12 organizations × 2 spinning to their deadline`
      : `${fmt(ms / 1000, 0)} s, the crash storm's script rotated over 4 organizations`;
  const storm = Object.entries(counts)
    .map(([type, n]) => `${n} ${type}`)
    .join(', ');
  return (
    `| ${label} | ${fmt(quiet.p50)} / ${fmt(quiet.p99)} | ${fmt(during.p50)} / ${fmt(during.p99)} | ${fmt(during.p99 / quiet.p99)}× | ${during.failed} of ${during.n} ` +
    `| ${storm} | ${JSON.stringify(hosts.crashes)} |`
  );
}

export async function main(): Promise<void> {
  // The server's defaults (one isolate and one host process per core), with a queue deep enough for 8 benign + 2
  // hostile callers; the in-process pool is the same with hosts: 0.
  const config = { ...loadConfig({}).engine, queueMax: 32, onHostCrash: (d: unknown) => process.stderr.write(`host died: ${JSON.stringify(d)}\n`) };
  const pool = createEngine(config);
  const inProcess = createEngine({ ...config, hosts: 0 });
  // The default pins each host to a CPU where it can (engine/sandbox-process/cpu-pinning.ts); the same pool unpinned, for reference.
  const unpinned = createEngine({ ...config, pinHosts: false });
  await Promise.all([pool.ready(), inProcess.ready(), unpinned.ready()]);
  const size = `${config.poolSize} isolates, up to ${2 * config.poolSize}`;
  const cpus = pool.stats().hosts!.cpus;
  const placement = cpus.every((c) => c !== null) ? `pinned to CPUs ${cpus.join(', ')}` : 'not pinned';
  const runners: Runner[] = [
    poolRunner(`our pool, ${config.hosts} host processes ${placement} (${size})`, pool),
    poolRunner(`our pool, in-process (${size})`, inProcess),
    poolRunner(`our pool, ${config.hosts} host processes not pinned (${size}), for reference`, unpinned),
    isolatePerExecution(),
    nodeVm(),
    await quickjs(),
  ];
  const rows: string[] = [];
  const cells = new Map<string, Cell>();
  for (const runner of runners) {
    for (const [label, source] of Object.entries(SCRIPTS)) {
      for (const concurrency of [1, 8]) {
        await measure(runner, source, concurrency, WARMUP_MS);
        const cell = await measure(runner, source, concurrency, MEASURE_MS);
        cells.set(`${runner.name}|${label}|${concurrency}`, cell);
        rows.push(`| ${runner.name} | (${label}) | ${concurrency} | ${fmt(cell.execPerSec, 0)} | ${fmt(cell.p50)} | ${fmt(cell.p99)} |`);
      }
    }
  }
  // Benign (b) at concurrency 8 while two busy loops (50 ms deadline) of another organization keep hitting the same
  // pool: as many as there are cores, each holding its isolate (and a core) until killed.
  // For reference, the same busy loops sent by the benign scripts' own organization (the pool shares isolates
  // fairly between organizations; within one, it is first come, first served).
  let alongside: Cell | undefined;
  for (const [tenant, label] of [
    ['org_hostile', 'another organization'],
    ['org_benign', 'the same organization (for reference)'],
  ]) {
    await measure(runners[0], SCRIPTS.b, 8, WARMUP_MS);
    const hostile = hostileLoad(pool, 2, HOSTILE_WALL_MS, tenant);
    const cell = await measure(runners[0], SCRIPTS.b, 8, MEASURE_MS);
    const killed = await hostile.stop();
    alongside ??= cell;
    rows.push(
      `| our pool (hosts), with 2 busy loops from ${label} alongside (${killed} killed at ${HOSTILE_WALL_MS} ms) | (b) | 8 | ${fmt(cell.execPerSec, 0)} | ${fmt(cell.p50)} | ${fmt(cell.p99)} |`,
    );
  }
  // The targets' figures: hosts and in-process alternating in short rounds (the table's cells are one stretch each).
  const paired = new Map<string, { ratios: number[]; gaps: number[] }>();
  for (const label of ['a', 'b'] as const) {
    for (const concurrency of [8, 1])
      paired.set(`${label}|${concurrency}`, await interleaved(runners[0], runners[1], SCRIPTS[label], concurrency, ROUNDS, ROUND_MS));
  }
  for (const runner of runners) await runner.close();
  // The crash storm as configured, then (shorter) with quarantine out of reach: containment by host processes alone.
  const storms = [await crashStorm(config, STORM_MS), await crashStorm({ ...config, quarantineAfter: 1_000_000 }, Math.max(5000, STORM_MS / 6))];
  const personStorms = [await personStorm(config, 'spin', Math.max(5000, STORM_MS / 3)), await personStorm(config, 'rotate', Math.max(5000, STORM_MS / 3))];

  const hosted = (label: string, c: number) => cells.get(`${runners[0].name}|${label}|${c}`)!;
  const local = (label: string, c: number) => cells.get(`${runners[1].name}|${label}|${c}`)!;
  const base = hosted('b', 8);
  const free = (label: string, c: number) => cells.get(`${runners[2].name}|${label}|${c}`)!;
  const signed = (d: number) => `${d >= 0 ? '+' : '−'}${fmt(Math.abs(d))}`;
  const ratio = (label: string) => `${label} ${fmt(100 * median(paired.get(`${label}|8`)!.ratios), 0)} %`;
  const freeRatio = (label: string) => `${label} ${fmt((100 * free(label, 8).execPerSec) / local(label, 8).execPerSec, 0)} %`;
  const p50gap = (label: string) => `${label} ${signed(median(paired.get(`${label}|1`)!.gaps))} ms`;
  const pairedRows = [...paired].map(([key, { ratios, gaps }]) => {
    const [label, concurrency] = key.split('|');
    return (
      `| (${label}) | ${concurrency} | ${fmt(100 * median(ratios), 0)} % (${fmt(100 * ratios[0], 0)}–${fmt(100 * ratios[ratios.length - 1], 0)}) ` +
      `| ${signed(median(gaps))} (${signed(gaps[0])} to ${signed(gaps[gaps.length - 1])}) |`
    );
  });
  const lines = [
    `Node ${process.version}, ${availableParallelism()} cores, ${MEASURE_MS} ms per cell after ${WARMUP_MS} ms warm-up; (a) \`${SCRIPTS.a}\`, ` +
      '(b) two host calls answered at once, (c) build, sort and group 2,000 rows. Latency is per execution, queueing included.',
    '',
    '| engine | script | concurrency | exec/s | p50 ms | p99 ms |',
    '|---|---|---:|---:|---:|---:|',
    ...rows,
    '',
    `Host processes (${placement}) against the in-process pool, ${ROUNDS} rounds of ${ROUND_MS} ms alternating between them ` +
      '(the targets below use these medians: one stretch per cell, as in the table above, moves by up to 30 % on this kind of VM):',
    '',
    '| script | concurrency | throughput, hosts / in-process: median (range) | p50 ms, hosts − in-process: median (range) |',
    '|---|---:|---:|---:|',
    ...pairedRows,
    '',
    `Crash storm: org_storm sends \`${FATAL}\` from two loops while org_benign runs (b) every ${STORM_RATE_MS} ms.`,
    '',
    '| storm | benign p50 / p99 quiet (ms) | p50 / p99 during (ms) | p99 ratio | benign failed | storm scripts | host deaths |',
    '|---|---:|---:|---:|---:|---|---|',
    ...storms,
    '',
    "One person with many organizations (every request names its person, as the server does) while another person's organization runs (b) every " +
      `${STORM_RATE_MS} ms; both persons ran a clean script before. Targets: benign p99 ≤ 3× quiet, 0 failed.`,
    '',
    '| storm | benign p50 / p99 quiet (ms) | p50 / p99 during (ms) | p99 ratio | benign failed | storm scripts | host deaths |',
    '|---|---:|---:|---:|---:|---|---|',
    ...personStorms,
    '',
    `Targets: host processes vs in-process at concurrency 8 ≥ 85 %: ${ratio('a')}, ${ratio('b')} (not pinned, from the table: ${freeRatio('a')}, ${freeRatio('b')}); ` +
      `p50 at concurrency 1 ≤ +0.2 ms: ${p50gap('a')}, ${p50gap('b')}; ` +
      `during a crash storm benign p99 ≤ 3× quiet (table above, 0 failed). ` +
      `(b) at concurrency 8 ≥ 1,500 exec/s with p99 ≤ 10 ms: ${fmt(base.execPerSec, 0)} exec/s, p99 ${fmt(base.p99)} ms; ` +
      `benign p99 with another organization's hostile scripts alongside ≤ 2× (${fmt(2 * base.p99)} ms): ${fmt(alongside!.p99)} ms.`,
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await main();
  process.exit(0);
}
