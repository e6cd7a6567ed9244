// What explains a failure: v8-failures.txt (files that fail in a plain isolated-vm context, V8's own gaps, measured
// at one test262 commit) and removals.txt (what the sandbox removes on purpose, each with its reason). Any other
// failure is unexplained, and the runner fails on it.
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { passed, type FileResult } from './execute.ts';

export const V8_FAILURES_FILE = fileURLToPath(new URL('./v8-failures.txt', import.meta.url));
export const REMOVALS_FILE = fileURLToPath(new URL('./removals.txt', import.meta.url));

export interface Removal {
  /** `feature:<name>` (the test's features list names it) or a path: a prefix, or a glob with `*`. */
  selector: string;
  reason: string;
}

export interface V8Failures {
  commit: string;
  files: Set<string>;
}

export function loadV8Failures(path = V8_FAILURES_FILE): V8Failures {
  const text = readFileSync(path, 'utf8');
  const commit = /^# test262 commit: (\S+)/m.exec(text)?.[1] ?? 'unknown';
  const files = new Set(
    text
      .split('\n')
      .map((l) => l.trim())
      .filter((l) => l !== '' && !l.startsWith('#')),
  );
  return { commit, files };
}

export function writeV8Failures(commit: string, files: Iterable<string>, path = V8_FAILURES_FILE): void {
  const header = [
    "# Files of the test262 selection that fail in a plain isolated-vm context (no prelude; the sandbox's V8 flags):",
    "# V8's own gaps, not the sandbox's. Measured with `npm run test262 -- <test262 dir> --update-v8-failures`",
    '# (docs/conformance.md); a file here may fail in the sandbox too.',
    `# test262 commit: ${commit}`,
    `# node ${process.versions.node}, V8 ${process.versions.v8}`,
  ];
  writeFileSync(path, `${[...header, ...[...files].sort()].join('\n')}\n`);
}

export function loadRemovals(path = REMOVALS_FILE): Removal[] {
  const out: Removal[] = [];
  for (const line of readFileSync(path, 'utf8').split('\n')) {
    if (line.trim() === '' || line.startsWith('#')) continue;
    const bar = line.indexOf(' | ');
    if (bar < 0) throw new Error(`removals.txt: an entry needs " | <reason>": ${line}`);
    const selector = line.slice(0, bar).trim();
    const reason = line.slice(bar + 3).trim();
    if (reason === '') throw new Error(`removals.txt: an entry without a reason: ${line}`);
    out.push({ selector, reason });
  }
  return out;
}

function globMatch(glob: string, file: string): boolean {
  const re = glob
    .replace(/[.+^${}()|[\]\\]/g, '\\$&')
    .replace(/\*\*/g, '\u0000')
    .replace(/\*/g, '[^/]*')
    .replace(/\u0000/g, '.*');
  return new RegExp(`^${re}$`).test(file);
}

export function removalFor(removals: readonly Removal[], result: FileResult): Removal | undefined {
  return removals.find(({ selector }) => {
    if (selector.startsWith('feature:')) return (result.features ?? []).includes(selector.slice('feature:'.length));
    return selector.includes('*') ? globMatch(selector, result.file) : result.file.startsWith(selector);
  });
}

export interface Verdict {
  /** Ran (not skipped). */
  run: FileResult[];
  skipped: FileResult[];
  /** Failing in the plain context. */
  plainFailures: FileResult[];
  /** Passing in plain, failing in the sandbox, with the removal that explains it, if any. */
  sandboxOnly: { result: FileResult; removal?: Removal }[];
  /** Failures nothing explains: sandbox-only ones without a removal, and plain failures not in v8-failures.txt. */
  unexplained: { result: FileResult; why: string }[];
  /** Listed in v8-failures.txt but passing in plain now (a V8 or test262 update fixed them). */
  staleV8: string[];
  /** Removals that explained no failure of this run. */
  unusedRemovals: Removal[];
}

export function judgeAll(results: FileResult[], v8: V8Failures, removals: readonly Removal[]): Verdict {
  const v: Verdict = { run: [], skipped: [], plainFailures: [], sandboxOnly: [], unexplained: [], staleV8: [], unusedRemovals: [] };
  const used = new Set<Removal>();
  for (const result of [...results].sort((a, b) => (a.file < b.file ? -1 : 1))) {
    if (result.skip) {
      v.skipped.push(result);
      continue;
    }
    v.run.push(result);
    const plainOk = passed(result, 'plain');
    const sandboxOk = passed(result, 'sandbox');
    if (!plainOk) {
      v.plainFailures.push(result);
      if (!v8.files.has(result.file)) v.unexplained.push({ result, why: 'fails in plain V8 and is not in v8-failures.txt' });
    } else if (v8.files.has(result.file)) {
      v.staleV8.push(result.file);
    }
    if (plainOk && !sandboxOk) {
      const removal = removalFor(removals, result);
      v.sandboxOnly.push({ result, removal });
      if (removal) used.add(removal);
      else v.unexplained.push({ result, why: 'passes in plain V8, fails in the sandbox' });
    }
  }
  v.unusedRemovals = removals.filter((r) => !used.has(r));
  return v;
}
