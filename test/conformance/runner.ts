// The conformance runner: a selection of a test262 checkout run twice per file (a plain isolated-vm context and a
// sandbox context, see realm.ts), judged against v8-failures.txt and removals.txt (expectations.ts). Used by
// scripts/test262.ts (`npm run test262`) on an upstream checkout, and by cases.test.ts on test/conformance/cases.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { availableParallelism } from 'node:os';
import { runPool } from './pool.ts';
import { selectFiles, DEFAULT_SELECTION } from './selection.ts';
import { judgeAll, loadRemovals, loadV8Failures, type V8Failures, type Verdict } from './expectations.ts';
import type { FileResult } from './execute.ts';

export interface ConformanceRun {
  commit: string;
  files: string[];
  results: FileResult[];
  verdict: Verdict;
  ms: number;
  /** CPU time the children used (user + system): the run's cost independent of other load on the machine. */
  cpuMs: number;
  workers: number;
}

/** The test262 commit of a checkout: its COMMIT file (written by scripts/test262-checkout.sh) or its git HEAD. */
export function test262Commit(root: string): string {
  try {
    return readFileSync(join(root, 'COMMIT'), 'utf8').trim();
  } catch {
    /* not written */
  }
  try {
    return execFileSync('git', ['-C', root, 'rev-parse', 'HEAD'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    /* not a git work tree */
  }
  return 'unknown';
}

export async function runConformance(options: {
  root: string;
  patterns?: readonly string[];
  workers?: number;
  v8?: V8Failures;
  onResult?: (result: FileResult, done: number, total: number) => void;
}): Promise<ConformanceRun> {
  const { root } = options;
  const files = selectFiles(root, options.patterns?.length ? options.patterns : DEFAULT_SELECTION);
  const workers = options.workers ?? availableParallelism();
  const t0 = performance.now();
  const stats = { cpuMs: 0 };
  const results = await runPool({ root, files, workers, onResult: options.onResult, stats });
  const ms = performance.now() - t0;
  const verdict = judgeAll(results, options.v8 ?? loadV8Failures(), loadRemovals());
  return { commit: test262Commit(root), files, results, verdict, ms, cpuMs: stats.cpuMs, workers };
}
