// A small closed-loop load generator: `concurrency` workers each run `fn` back to back for `ms`, after a warm-up;
// returns throughput and latency percentiles. Shared by the benchmarks so every row is measured the same way.
export interface LoadResult {
  count: number;
  perSecond: number;
  p50: number;
  p99: number;
  errors: number;
}

export function percentile(sorted: number[], p: number): number {
  if (!sorted.length) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

export async function load(fn: () => Promise<unknown>, options: { concurrency: number; ms: number; warmupMs?: number }): Promise<LoadResult> {
  const { concurrency, ms, warmupMs = 500 } = options;
  const run = async (until: number, samples: number[] | null) => {
    let errors = 0;
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        while (performance.now() < until) {
          const t0 = performance.now();
          try {
            await fn();
          } catch {
            errors++;
          }
          samples?.push(performance.now() - t0);
        }
      }),
    );
    return errors;
  };
  await run(performance.now() + warmupMs, null);
  const samples: number[] = [];
  const started = performance.now();
  const errors = await run(started + ms, samples);
  const elapsed = (performance.now() - started) / 1000;
  samples.sort((a, b) => a - b);
  return { count: samples.length, perSecond: samples.length / elapsed, p50: percentile(samples, 50), p99: percentile(samples, 99), errors };
}

export function fmt(n: number, digits = 2): string {
  return Number.isFinite(n) ? n.toFixed(digits) : '-';
}
