// The in-repo conformance cases (test/conformance/cases, test262's format, README.md there) run as the runner runs
// test262: each in a plain isolated-vm context and in a sandbox context, strict and sloppy as flagged. Each must
// pass in both: a case that fails in plain V8 is a broken case, one that fails only in the sandbox a regression.
import t from 'tap';
import { fileURLToPath } from 'node:url';
import { applyIsolateFlags } from '../../engine/v8-flags.ts';
import { Realms } from './realm.ts';
import { runFile } from './execute.ts';
import { selectFiles } from './selection.ts';

applyIsolateFlags();
const root = fileURLToPath(new URL('./cases/', import.meta.url));
const files = selectFiles(root, ['']).filter((f) => !f.startsWith('harness/'));
const realms = new Realms();
t.teardown(() => realms.dispose());

t.ok(files.length >= 15, `the cases are found (${files.length})`);
for (const file of files) {
  t.test(file, (t) => {
    const result = runFile(realms, root, file);
    t.equal(result.skip, undefined, 'the runner can run it');
    for (const mode of ['plain', 'sandbox'] as const) {
      const runs = result.results[mode];
      t.ok(runs.length > 0, `${mode}: ran`);
      for (const run of runs) t.ok(run.ok, `${mode}, ${run.strict ? 'strict' : 'sloppy'}${run.message ? `: ${run.message}` : ''}`);
    }
    t.end();
  });
}
