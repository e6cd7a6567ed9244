// The differential report of a run, as text files in a directory: sandbox-only.txt (passes in plain V8, fails in the
// sandbox, with the message), by-cause.md (the same grouped by message), plain-failures.txt, skipped.txt, summary.json.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FileResult, RunResult } from './execute.ts';
import type { Verdict } from './expectations.ts';

export interface RunInfo {
  commit: string;
  files: number;
  ms: number;
  cpuMs?: number;
  workers: number;
}

function failures(runs: RunResult[]): RunResult[] {
  return runs.filter((r) => !r.ok);
}

function line(result: FileResult, mode: 'plain' | 'sandbox'): string {
  return failures(result.results[mode])
    .map((r) => `${result.file}\t${r.strict ? 'strict' : 'sloppy'}\t${r.message ?? ''}`)
    .join('\n');
}

/** A message with its particulars (numbers, quoted values) blanked, so that failures of one cause group together. */
export function causeKey(message: string): string {
  return message
    .replace(/(\s*\(Testing with [^)]*\.\))+$/, '')
    .replace(/«[^»]*»/g, '«…»')
    .replace(/"[^"]*"/g, '"…"')
    .replace(/'[^']*'/g, "'…'")
    .replace(/\b\d+(\.\d+)?\b/g, 'N')
    .slice(0, 160);
}

/**
 * What a file tests, as precisely as its path says: built-ins/String/prototype/padStart, intl402/NumberFormat,
 * language/eval-code/direct.
 */
function subject(file: string): string {
  const parts = file.split('/').slice(1, -1);
  const at = parts.indexOf('prototype');
  return (at >= 0 ? parts.slice(0, at + 2) : parts.slice(0, 3)).join('/');
}

/** Failures whose cause is not where the file is: one message across many builtins. */
function crossCause(message: string): string | undefined {
  if (/Resizable ArrayBuffers are not available/.test(message)) {
    return "resizable ArrayBuffer refused while ArrayBuffer.prototype.resize is still there (test262's TypedArray harness, like any feature detection, then builds resizable buffers)";
  }
  return undefined;
}

export function writeReport(dir: string, v: Verdict, info: RunInfo): void {
  mkdirSync(dir, { recursive: true });
  const unexplained = v.sandboxOnly.filter((s) => !s.removal);
  const declared = v.sandboxOnly.filter((s) => s.removal);
  const runsOf = (list: FileResult[], mode: 'plain' | 'sandbox') => list.reduce((n, r) => n + failures(r.results[mode]).length, 0);

  writeFileSync(
    join(dir, 'sandbox-only.txt'),
    [
      `# Pass in plain V8, fail in the sandbox, not explained by removals.txt: ${unexplained.length} files (${runsOf(
        unexplained.map((s) => s.result),
        'sandbox',
      )} runs). file<TAB>strictness<TAB>message`,
      ...unexplained.map((s) => line(s.result, 'sandbox')),
      '',
      `# Explained by a declared removal: ${declared.length} files`,
      ...declared.map(
        (s) =>
          `${line(s.result, 'sandbox')
            .split('\n')
            .map((l) => `${l}\t[removal ${s.removal!.selector}]`)
            .join('\n')}`,
      ),
    ].join('\n') + '\n',
  );

  writeFileSync(
    join(dir, 'plain-failures.txt'),
    [
      `# Fail in a plain isolated-vm context (V8's own gaps): ${v.plainFailures.length} files. file<TAB>strictness<TAB>message`,
      ...v.plainFailures.map((r) => line(r, 'plain')),
    ].join('\n') + '\n',
  );

  writeFileSync(join(dir, 'skipped.txt'), v.skipped.map((r) => `${r.file}\t${r.skip}`).join('\n') + '\n');

  // Grouped by cause: what the file tests (the builtin or method, so the guard), or a message that cuts across
  // (the TypedArray harness building resizable buffers), then by message with its particulars blanked.
  const groups = new Map<string, { files: FileResult[]; messages: Map<string, number> }>();
  for (const { result } of unexplained) {
    const first = failures(result.results.sandbox)[0];
    const message = causeKey(first?.message ?? '');
    const key = crossCause(first?.message ?? '') ?? subject(result.file);
    const g = groups.get(key) ?? { files: [] as FileResult[], messages: new Map<string, number>() };
    g.files.push(result);
    g.messages.set(message, (g.messages.get(message) ?? 0) + 1);
    groups.set(key, g);
  }
  const sorted = [...groups.entries()].sort((a, b) => b[1].files.length - a[1].files.length);
  const md: string[] = [
    '# test262: sandbox-only failures by cause',
    '',
    `test262 ${info.commit}; ${info.files} files selected, ${v.run.length} run, ${v.skipped.length} skipped; ${info.workers} workers, ${(info.ms / 1000).toFixed(1)} s wall${info.cpuMs ? `, ${(info.cpuMs / 1000).toFixed(0)} CPU-seconds` : ''}.`,
    `Plain failures: ${v.plainFailures.length} files (${runsOf(v.plainFailures, 'plain')} runs). Sandbox-only: ${unexplained.length} files (${runsOf(
      unexplained.map((s) => s.result),
      'sandbox',
    )} runs) unexplained, ${declared.length} explained by declared removals.`,
    `Unexplained in all: ${v.unexplained.length} (including plain failures missing from v8-failures.txt: ${v.unexplained.length - unexplained.length}).`,
    '',
    '| files | cause |',
    '| ---: | --- |',
    ...sorted.map(([key, g]) => `| ${g.files.length} | ${key} |`),
    '',
  ];
  for (const [key, g] of sorted) {
    md.push(`## ${key}: ${g.files.length} files`, '');
    for (const [m, n] of [...g.messages.entries()].sort((a, b) => b[1] - a[1])) md.push(`- ${n} × \`${m.replace(/`/g, "'")}\``);
    md.push('', 'Files:', '');
    for (const f of g.files.slice(0, 15)) md.push(`- ${f.file}`);
    if (g.files.length > 15) md.push(`- … and ${g.files.length - 15} more (sandbox-only.txt)`);
    md.push('');
  }
  const removalCounts = new Map<string, number>();
  for (const s of declared) removalCounts.set(s.removal!.selector, (removalCounts.get(s.removal!.selector) ?? 0) + 1);
  md.push('## Explained by declared removals (removals.txt)', '');
  for (const [sel, n] of removalCounts) md.push(`- ${sel}: ${n} files`);
  if (v.staleV8.length) md.push('', `## Listed in v8-failures.txt but passing in plain: ${v.staleV8.length}`, '', ...v.staleV8.map((f) => `- ${f}`));

  const slowest = [...v.run].sort((a, b) => (b.ms ?? 0) - (a.ms ?? 0)).slice(0, 15);
  const totalMs = v.run.reduce((n, r) => n + (r.ms ?? 0), 0);
  md.push(
    '',
    `## Time: ${(totalMs / 1000).toFixed(0)} s of runs in all (both contexts, every strictness); the slowest files`,
    '',
    ...slowest.map((r) => `- ${r.ms} ms ${r.file}`),
  );
  writeFileSync(join(dir, 'by-cause.md'), md.join('\n') + '\n');

  writeFileSync(
    join(dir, 'summary.json'),
    JSON.stringify(
      {
        commit: info.commit,
        selected: info.files,
        run: v.run.length,
        skipped: v.skipped.length,
        seconds: info.ms / 1000,
        cpuSeconds: (info.cpuMs ?? 0) / 1000,
        workers: info.workers,
        plainFailures: v.plainFailures.length,
        sandboxOnly: unexplained.length,
        sandboxOnlyRuns: runsOf(
          unexplained.map((s) => s.result),
          'sandbox',
        ),
        declaredRemovals: declared.length,
        unexplained: v.unexplained.length,
        causes: sorted.map(([k, g]) => ({ cause: k, files: g.files.length })),
      },
      null,
      2,
    ) + '\n',
  );
}
