// Runs a selection of test files over child processes (one isolate each, one per core by default), in batches. A
// child that dies (a V8 fatal error in a test) fails the file it was running in both contexts; the rest of its
// batch goes back to the queue and a new child takes over.
import { fork, type ChildProcess } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import type { FileResult } from './execute.ts';
import type { Batch, WorkerMessage } from './worker.ts';

const WORKER = fileURLToPath(new URL('./worker.ts', import.meta.url));
const BATCH = 20;
/**
 * A child that reports nothing for this long is killed (its file then fails as if it had died): each run has its own
 * timeout (execute.ts), so only a process stuck outside any script, in V8 or isolated-vm, gets here.
 */
const SILENCE_MS = 120_000;

export interface PoolOptions {
  root: string;
  harnessRoot?: string;
  files: string[];
  workers?: number;
  onResult?: (result: FileResult, done: number, total: number) => void;
  /** Filled in as children report: the CPU time they used (user + system, each child's last report). */
  stats?: { cpuMs: number };
}

export function runPool(options: PoolOptions): Promise<FileResult[]> {
  const { root, files } = options;
  const harnessRoot = options.harnessRoot ?? root;
  const workers = Math.max(1, Math.min(options.workers ?? availableParallelism(), Math.ceil(files.length / BATCH) || 1));
  const queue: string[][] = [];
  for (let i = 0; i < files.length; i += BATCH) queue.push(files.slice(i, i + BATCH));
  const results: FileResult[] = [];
  return new Promise((resolve) => {
    let live = 0;
    const finishIfDone = () => {
      if (live === 0 && queue.length === 0) resolve(results);
    };
    const spawnWorker = () => {
      live++;
      const child: ChildProcess = fork(WORKER, [], { execArgv: ['--no-node-snapshot'], stdio: ['ignore', 'ignore', 'pipe', 'ipc'] });
      let stderr = '';
      child.stderr!.on('data', (d: Buffer) => {
        stderr = (stderr + d.toString()).slice(-2000);
      });
      let batch: string[] | null = null;
      let next = 0;
      let watchdog: NodeJS.Timeout | undefined;
      let reportedCpu = 0;
      const watch = () => {
        clearTimeout(watchdog);
        watchdog = setTimeout(() => child.kill('SIGKILL'), SILENCE_MS);
      };
      const give = () => {
        batch = queue.shift() ?? null;
        next = 0;
        if (!batch) {
          clearTimeout(watchdog);
          child.disconnect();
          return;
        }
        watch();
        child.send({ root, harnessRoot, files: batch } satisfies Batch);
      };
      child.on('message', (message: WorkerMessage) => {
        if (message.type === 'file') {
          watch();
          results.push(message.result);
          next++;
          options.onResult?.(message.result, results.length, files.length);
        } else {
          if (options.stats) options.stats.cpuMs += message.cpuMs - reportedCpu;
          reportedCpu = message.cpuMs;
          give();
        }
      });
      child.on('exit', (code, signal) => {
        clearTimeout(watchdog);
        live--;
        if (batch && next < batch.length) {
          const file = batch[next];
          const message = `the runner's process died running this file (${signal ?? `exit ${code}`}): ${stderr.trim().split('\n').pop() ?? ''}`;
          const result: FileResult = { file, results: { plain: [{ strict: false, ok: false, message }], sandbox: [{ strict: false, ok: false, message }] } };
          results.push(result);
          options.onResult?.(result, results.length, files.length);
          const rest = batch.slice(next + 1);
          if (rest.length) queue.unshift(rest);
          batch = null;
          spawnWorker();
          return;
        }
        finishIfDone();
      });
      give();
    };
    for (let i = 0; i < workers; i++) spawnWorker();
    finishIfDone();
  });
}
