// Shared set-up for engine tests: the server's default limits (server/config.ts) with a small pool, and
// the fixture loader that reads a hostile script's expectations from its leading comments.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createEngine, type Engine, type EngineConfig, type EngineLimits, type ExecutionResult } from '../../../engine/index.ts';

export const ROOT = new URL('../../../', import.meta.url).pathname;

export function testConfig(overrides: Partial<EngineConfig> = {}): EngineConfig {
  return {
    poolSize: 2,
    queueMax: 8,
    queueWaitMs: 2000,
    maxSourceBytes: 102400,
    memoryMb: 64,
    wallMs: 5000,
    cpuMs: 5000,
    maxHostCalls: 1000,
    maxInFlight: 16,
    maxArgBytes: 262144,
    maxResultBytes: 1048576,
    maxLogBytes: 65536,
    // ENGINE_HOSTS=0 runs every engine test against the in-process pool (default: sandbox host processes).
    ...(process.env.ENGINE_HOSTS !== undefined ? { hosts: Number(process.env.ENGINE_HOSTS) } : {}),
    ...overrides,
  };
}

/** Resident memory of the processes that hold the isolates: the sandbox hosts, or this one for the in-process pool. */
export function isolatesRss(engine: Engine): number {
  const pids = engine.stats().hosts?.pids.filter((pid) => pid > 0) ?? [];
  if (!pids.length) return process.memoryUsage.rss();
  let total = 0;
  for (const pid of pids) {
    try {
      total += Number(readFileSync(`/proc/${pid}/statm`, 'latin1').split(' ')[1]) * 4096;
    } catch {
      /* restarting */
    }
  }
  return total;
}

export async function startEngine(overrides: Partial<EngineConfig> = {}): Promise<Engine> {
  const engine = createEngine(testConfig(overrides));
  await engine.ready();
  return engine;
}

export interface Fixture {
  file: string;
  source: string;
  /** Allowed error types, or 'ok'. */
  expect: string[];
  code?: string;
  line?: number;
  result?: unknown;
  limits?: Partial<EngineLimits>;
  options?: Record<string, unknown>;
  repeat: number;
  neverCalled?: string;
  received?: { name: string; argsJson: string };
  truncated?: boolean;
  /** Largest growth of this process's RSS the script may cause (allocation paths outside the heap limit). */
  maxRssMb?: number;
}

/** `// key: value` lines at the top of a fixture; the whole file (comments included) is the source. */
export function loadFixtures(dir: string): Fixture[] {
  const path = join(ROOT, 'fixtures/scripts', dir);
  return readdirSync(path)
    .filter((f) => f.endsWith('.js'))
    .sort()
    .map((file) => {
      const source = readFileSync(join(path, file), 'utf8');
      const header = new Map<string, string>();
      for (const line of source.split('\n')) {
        const m = /^\/\/ ([a-z-]+): (.*)$/.exec(line);
        if (!m) break;
        header.set(m[1], m[2].trim());
      }
      const received = header.get('received');
      return {
        file,
        source,
        expect: (header.get('expect') ?? 'ok').split('|').map((s) => s.trim()),
        code: header.get('code'),
        line: header.has('line') ? Number(header.get('line')) : undefined,
        result: header.has('result') ? JSON.parse(header.get('result')!) : undefined,
        limits: header.has('limits') ? JSON.parse(header.get('limits')!) : undefined,
        options: header.has('options') ? JSON.parse(header.get('options')!) : undefined,
        repeat: Number(header.get('repeat') ?? 1),
        neverCalled: header.get('never-called'),
        received: received ? { name: received.split(' ')[0], argsJson: received.slice(received.indexOf(' ') + 1) } : undefined,
        truncated: header.has('truncated') ? header.get('truncated') === 'true' : undefined,
        maxRssMb: header.has('max-rss-mb') ? Number(header.get('max-rss-mb')) : undefined,
      };
    });
}

/** What the fixture says about a result, as a list of failures (empty = as expected). */
export function checkOutcome(fx: Fixture, r: ExecutionResult): string[] {
  const problems: string[] = [];
  const got = r.ok ? 'ok' : r.error!.type;
  if (!fx.expect.includes(got)) problems.push(`expected ${fx.expect.join('|')}, got ${got}: ${r.error?.message ?? JSON.stringify(r.result)}`);
  if (fx.code && r.error?.code !== fx.code) problems.push(`expected code ${fx.code}, got ${r.error?.code}`);
  if (fx.line && r.error?.line !== fx.line) problems.push(`expected line ${fx.line}, got ${r.error?.line}`);
  // `result` is the value of an ok outcome (a fixture may allow an error instead).
  if (r.ok && fx.result !== undefined && JSON.stringify(r.result) !== JSON.stringify(fx.result)) {
    problems.push(`expected result ${JSON.stringify(fx.result)}, got ${JSON.stringify(r.result)}`);
  }
  if (fx.truncated !== undefined && r.truncated !== fx.truncated) problems.push(`expected truncated ${fx.truncated}`);
  return problems;
}

export function isSlow(fx: Fixture): boolean {
  return fx.expect.includes('timeout') || fx.expect.includes('memory_limit');
}
