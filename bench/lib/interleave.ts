// Closed-loop cells and interleaved A/B rounds for engine benchmarks. This kind of VM moves by ±30 % from one second to
// the next, so a comparison is a series of short rounds alternating between the two sides (which goes first alternates
// too), and its figure is the median of the per-round ratios, never one stretch per side.

export interface Runner {
  name: string;
  run(source: string): Promise<unknown>;
  close(): Promise<void> | void;
}
export interface Cell {
  execPerSec: number;
  p50: number;
  p99: number;
}

/** `concurrency` callers run `source` back to back for `ms`: throughput and latency percentiles. */
export async function measure(runner: Runner, source: string, concurrency: number, ms: number): Promise<Cell> {
  const latencies: number[] = [];
  const until = performance.now() + ms;
  const start = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (performance.now() < until) {
        const t0 = performance.now();
        await runner.run(source);
        latencies.push(performance.now() - t0);
      }
    }),
  );
  const elapsed = performance.now() - start;
  latencies.sort((x, y) => x - y);
  const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * q))];
  return { execPerSec: latencies.length / (elapsed / 1000), p50: at(0.5), p99: at(0.99) };
}

/**
 * `rounds` rounds of `ms` alternating between the two runners after a warm-up of each: every round's throughput ratio
 * (first / second) and p50 difference (first − second), each list sorted.
 */
export async function interleaved(
  first: Runner,
  second: Runner,
  source: string,
  concurrency: number,
  rounds: number,
  ms: number,
  warmupMs = 300,
): Promise<{ ratios: number[]; gaps: number[] }> {
  const ratios: number[] = [];
  const gaps: number[] = [];
  await measure(first, source, concurrency, warmupMs);
  await measure(second, source, concurrency, warmupMs);
  for (let i = 0; i < rounds; i++) {
    const [x, y] = i % 2 === 0 ? [first, second] : [second, first];
    const cx = await measure(x, source, concurrency, ms);
    const cy = await measure(y, source, concurrency, ms);
    const [f, s] = x === first ? [cx, cy] : [cy, cx];
    ratios.push(f.execPerSec / s.execPerSec);
    gaps.push(f.p50 - s.p50);
  }
  return { ratios: ratios.sort((p, q) => p - q), gaps: gaps.sort((p, q) => p - q) };
}

export const median = (sorted: number[]) => (sorted.length % 2 ? sorted[sorted.length >> 1] : (sorted[sorted.length / 2 - 1] + sorted[sorted.length / 2]) / 2);
