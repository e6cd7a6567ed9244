// npm run test262 -- <test262 checkout> [paths or globs…] [--report <dir>] [--workers <n>] [--update-v8-failures]
//
// Runs the selection (test/conformance/selection.ts, or the paths given, relative to the checkout) in a plain
// isolated-vm context and in a sandbox context, and exits 1 on any failure that v8-failures.txt and removals.txt
// do not explain. See docs/conformance.md.
import { parseArgs } from 'node:util';
import { resolve } from 'node:path';
import { runConformance } from '../test/conformance/runner.ts';
import { writeReport } from '../test/conformance/report.ts';
import { loadV8Failures, writeV8Failures } from '../test/conformance/expectations.ts';
import { passed } from '../test/conformance/execute.ts';
import { globalDifferences } from '../test/conformance/global-diff.ts';
import { applyIsolateFlags } from '../engine/v8-flags.ts';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    report: { type: 'string' },
    workers: { type: 'string' },
    'update-v8-failures': { type: 'boolean', default: false },
    quiet: { type: 'boolean', default: false },
    json: { type: 'string' },
  },
});
const [dir, ...patterns] = positionals;
if (!dir) {
  process.stderr.write('usage: npm run test262 -- <test262 checkout> [paths or globs…] [--report <dir>] [--workers <n>] [--update-v8-failures]\n');
  process.exit(2);
}
const root = resolve(dir);
const v8 = loadV8Failures();
let lastShown = 0;
const run = await runConformance({
  root,
  patterns,
  v8,
  workers: values.workers ? Number(values.workers) : undefined,
  onResult: (_r, done, total) => {
    if (values.quiet || (performance.now() - lastShown < 5000 && done !== total)) return;
    lastShown = performance.now();
    process.stderr.write(`${done}/${total} files\n`);
  },
});
const { verdict } = run;
if (values.json) writeFileSync(resolve(values.json), JSON.stringify(run.results));

if (values['update-v8-failures']) {
  // Entries outside this selection are kept: a narrower run re-measures only what it ran.
  const selected = new Set(run.files);
  const kept = [...v8.files].filter((f) => !selected.has(f));
  const failing = run.results.filter((r) => !r.skip && !passed(r, 'plain')).map((r) => r.file);
  writeV8Failures(run.commit, [...kept, ...failing]);
  process.stdout.write(`v8-failures.txt: ${kept.length + failing.length} files (${failing.length} measured now) at test262 ${run.commit}\n`);
}
if (values.report) {
  writeReport(resolve(values.report), verdict, { commit: run.commit, files: run.files.length, ms: run.ms, cpuMs: run.cpuMs, workers: run.workers });
  // The property-by-property comparison (test/conformance/globals.test.ts) beside it: what that test fails on now.
  applyIsolateFlags();
  const out = join(resolve(values.report), 'global-diff.txt');
  try {
    const globals = globalDifferences();
    writeFileSync(
      out,
      [
        `# Differences between a plain context and a sandbox context not declared in test/conformance/global-differences.txt: ${globals.differences.length}`,
        ...globals.differences,
        ...(globals.unused.length ? ['', '# Declared differences that no longer apply:', ...globals.unused.map((u) => `${u.kind} ${u.path}`)] : []),
      ].join('\n') + '\n',
    );
    process.stdout.write(`global differences: ${globals.differences.length} undeclared, ${globals.unused.length} stale declarations\n`);
  } catch (err) {
    writeFileSync(out, `# The comparison could not run: ${String((err as Error)?.stack ?? err)}\n`);
    process.stdout.write(`global differences: the comparison could not run (${(err as Error)?.message})\n`);
  }
}

const unexplainedSandbox = verdict.sandboxOnly.filter((s) => !s.removal).length;
process.stdout.write(
  [
    `test262 ${run.commit}${run.commit !== v8.commit ? ` (v8-failures.txt was measured at ${v8.commit})` : ''}`,
    `${run.files.length} files selected: ${verdict.run.length} run, ${verdict.skipped.length} skipped (runner limits), ${(run.ms / 1000).toFixed(1)} s on ${run.workers} workers (${(run.cpuMs / 1000).toFixed(0)} CPU-seconds)`,
    `plain failures: ${verdict.plainFailures.length} files; sandbox-only: ${unexplainedSandbox} unexplained, ${verdict.sandboxOnly.length - unexplainedSandbox} declared removals`,
    ...(verdict.staleV8.length ? [`${verdict.staleV8.length} entries of v8-failures.txt pass in plain now (re-measure with --update-v8-failures)`] : []),
  ].join('\n') + '\n',
);
if (!values['update-v8-failures'] && verdict.unexplained.length) {
  process.stdout.write(`\n${verdict.unexplained.length} unexplained failures:\n`);
  for (const { result, why } of verdict.unexplained.slice(0, 50)) {
    const first = [...result.results.sandbox, ...result.results.plain].find((r) => !r.ok);
    process.stdout.write(`  ${result.file}: ${why}: ${first?.message ?? ''}\n`);
  }
  if (verdict.unexplained.length > 50)
    process.stdout.write(`  … and ${verdict.unexplained.length - 50} more${values.report ? ` (see ${values.report})` : ' (--report <dir>)'}\n`);
  process.exit(1);
}
