// A child process of the conformance runner: one isolate (with the sandbox's V8 flags), batches of test files run
// in both contexts, one message per file. Started by pool.ts.
import { applyIsolateFlags } from '../../engine/v8-flags.ts';
import { Realms } from './realm.ts';
import { runFile, type FileResult } from './execute.ts';

export interface Batch {
  root: string;
  harnessRoot: string;
  files: string[];
}
/** `cpuMs`: this process's CPU time so far (user + system), its isolates' threads included. */
export type WorkerMessage = { type: 'file'; result: FileResult } | { type: 'batch'; cpuMs: number };

/** Scripts run on one isolate before it is replaced: what a long batch leaves in the isolate stays bounded. */
const SCRIPTS_PER_ISOLATE = 400;

applyIsolateFlags();
const realms = new Realms();

function send(message: WorkerMessage): void {
  process.send!(message);
}

process.on('message', (batch: Batch) => {
  for (const file of batch.files) {
    let result: FileResult;
    try {
      result = runFile(realms, batch.root, file, batch.harnessRoot);
    } catch (err) {
      const message = `runner error: ${err instanceof Error ? err.message : String(err)}`;
      result = { file, results: { plain: [{ strict: false, ok: false, message }], sandbox: [{ strict: false, ok: false, message }] } };
      realms.rebuild();
    }
    send({ type: 'file', result });
    if (realms.scriptsRun >= SCRIPTS_PER_ISOLATE) realms.rebuild();
  }
  const cpu = process.cpuUsage();
  send({ type: 'batch', cpuMs: (cpu.user + cpu.system) / 1000 });
});
process.on('disconnect', () => {
  realms.dispose();
  process.exit(0);
});
