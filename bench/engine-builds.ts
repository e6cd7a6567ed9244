// This build's engine against another checkout's, in one run: what a change to the engine (a prelude guard runs in
// every script) costs (a), (b) and (c) of the engine bench, as medians of interleaved rounds of both builds.
// Run: git worktree add /tmp/base <commit> && ln -s "$PWD/node_modules" /tmp/base/node_modules
//      BENCH_BASELINE=/tmp/base npm run bench -- engine-builds
// Without BENCH_BASELINE it prints how to run it and measures nothing.
import { resolve } from 'node:path';
import { availableParallelism } from 'node:os';
import { createEngine, type Engine } from '../engine/index.ts';
import { loadConfig } from '../server/config.ts';
import { interleaved, median, type Runner } from './lib/interleave.ts';
import { fmt } from './lib/load.ts';
import { BINDINGS, hostCall, SCRIPTS } from './lib/engine-scripts.ts';
import ivm from 'isolated-vm';
import { PRELUDE, PRELUDE_FILENAME } from '../engine/prelude.ts';
import { prepareContextSync } from '../engine/slot.ts';
import { applyIsolateFlags } from '../engine/v8-flags.ts';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 16);
const ROUND_MS = Number(process.env.BENCH_ROUND_MS ?? 400);
function runner(name: string, engine: Engine): Runner {
  return {
    name,
    async run(source) {
      const r = await engine.execute({ source, bindings: BINDINGS, hostCall, tenant: 'org_bench' });
      if (!r.ok) throw new Error(`${name}: ${r.error?.type} ${r.error?.message}`);
      return r.result;
    },
    close: () => engine.close(),
  };
}

/**
 * What a host does before each execution, alone: a fresh context with the prelude run in it (prepareContextSync), in
 * one isolate per build with the hosts' V8 flags, in interleaved rounds. The figure every guard's installation cost
 * lands in, without the noise of a whole execution. Medians of the rounds' mean microseconds, this build first.
 */
async function freshContexts(dir: string): Promise<[number, number]> {
  applyIsolateFlags();
  const theirs = ((await import(`${dir}/engine/prelude.ts`)) as { PRELUDE: string }).PRELUDE;
  const sides = [PRELUDE, theirs].map((text) => {
    const iso = new ivm.Isolate({ memoryLimit: 64 });
    return { iso, script: iso.compileScriptSync(text, { filename: PRELUDE_FILENAME }), us: [] as number[] };
  });
  for (let round = 0; round < 30; round++) {
    for (const side of round % 2 ? [...sides].reverse() : sides) {
      const t0 = performance.now();
      for (let i = 0; i < 200; i++) {
        const { ctx, run } = prepareContextSync(side.iso, side.script);
        run.release();
        ctx.release();
      }
      side.us.push(((performance.now() - t0) * 1000) / 200);
    }
  }
  for (const side of sides) side.iso.dispose();
  return [median(sides[0].us.sort((x, y) => x - y)), median(sides[1].us.sort((x, y) => x - y))];
}

export async function main(): Promise<void> {
  const baseline = process.env.BENCH_BASELINE;
  if (!baseline) {
    process.stdout.write('Set BENCH_BASELINE to another checkout of this repository (see the header of bench/engine-builds.ts).\n');
    return;
  }
  const dir = resolve(baseline);
  const other = (await import(`${dir}/engine/index.ts`)) as { createEngine: typeof createEngine };
  const otherConfig = (await import(`${dir}/server/config.ts`)) as { loadConfig: typeof loadConfig };
  const mine = createEngine(loadConfig({}).engine);
  const theirs = other.createEngine(otherConfig.loadConfig({}).engine);
  await Promise.all([mine.ready(), theirs.ready()]);
  const a = runner('this build', mine);
  const b = runner(`baseline (${dir})`, theirs);
  const rows: string[] = [];
  for (const [label, source] of Object.entries(SCRIPTS)) {
    for (const concurrency of [1, 8]) {
      const { ratios, gaps } = await interleaved(a, b, source, concurrency, ROUNDS, ROUND_MS);
      rows.push(
        `| (${label}) | ${concurrency} | ${fmt(100 * median(ratios), 0)} % (${fmt(100 * ratios[0], 0)}–${fmt(100 * ratios[ratios.length - 1], 0)}) ` +
          `| ${fmt(median(gaps))} (${fmt(gaps[0])} to ${fmt(gaps[gaps.length - 1])}) |`,
      );
    }
  }
  await a.close();
  await b.close();
  const [mineUs, theirsUs] = await freshContexts(dir);
  process.stdout.write(
    [
      `Node ${process.version}, ${availableParallelism()} cores; the server's default engine (host processes) in both builds; ` +
        `${ROUNDS} rounds of ${ROUND_MS} ms alternating between them. (a) \`${SCRIPTS.a}\`, (b) two host calls answered at once, (c) build, sort and group 2,000 rows.`,
      '',
      '| script | concurrency | throughput, this build / baseline: median (range) | p50 ms, this build − baseline: median (range) |',
      '|---|---:|---:|---:|',
      ...rows,
      '',
      `A fresh context with the prelude run in it (what a host does before each execution; one isolate per build, 30 interleaved rounds of 200): ` +
        `this build ${fmt(mineUs, 0)} us, baseline ${fmt(theirsUs, 0)} us (medians).`,
      '',
    ].join('\n'),
  );
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await main();
  process.exit(0);
}
