// Running one test262 file as its metadata says (INTERPRETING.md of test262): harness files first, strict and
// sloppy as flagged, async tests judged by what they print, negative tests by the phase and name of their error.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseMeta, type TestMeta } from './frontmatter.ts';
import { MODES, type Mode, type Realms } from './realm.ts';

export interface RunResult {
  strict: boolean;
  ok: boolean;
  /** Why it failed (absent when ok). */
  message?: string;
}

export interface FileResult {
  file: string;
  /** Set when the runner cannot run the file at all (and why); then there are no results. */
  skip?: string;
  /** Wall time of all its runs, both contexts. */
  ms?: number;
  /** The test's `features` (what removals.txt can select on). */
  features?: string[];
  results: Record<Mode, RunResult[]>;
}

/**
 * Wall time of one run. Generous: the slowest files (RegExp over every code point) take a few seconds on an idle core
 * and far longer on a loaded machine, and a timeout must not depend on the load.
 */
export const TEST_TIMEOUT_MS = 30_000;
const TIMED_OUT = 'Script execution timed out.';

/**
 * What this runner cannot run, whatever the context: not differences of the sandbox, but of isolated-vm or of a
 * runner that evaluates scripts. Listed in docs/conformance.md.
 */
export const UNSUPPORTED_FLAGS: Record<string, string> = {
  module: 'module code: the sandbox evaluates scripts, never modules',
  CanBlockIsFalse: 'needs $262.agent (threads sharing memory), which an isolated-vm host does not provide',
  CanBlockIsTrue: 'needs $262.agent (threads sharing memory), which an isolated-vm host does not provide',
};
export const UNSUPPORTED_FEATURES: Record<string, string> = {
  'cross-realm': "needs $262.createRealm: contexts of one isolated-vm isolate cannot reach each other's objects",
  IsHTMLDDA: 'needs the [[IsHTMLDDA]] host object, which only browsers have',
  'host-gc-required': 'needs $262.gc, which V8 only exposes with --expose-gc (not a flag the sandbox runs with)',
};
/** $262 members the runner provides; a test using any other is skipped (see UNSUPPORTED_*). */
const PROVIDED_HOST = new Set(['global', 'detachArrayBuffer', 'evalScript']);

export function skipReason(file: string, source: string, meta: TestMeta): string | undefined {
  if (file.includes('_FIXTURE')) return 'fixture of another test';
  // Own properties only: test262 has a feature named "__proto__".
  for (const flag of meta.flags) if (Object.hasOwn(UNSUPPORTED_FLAGS, flag)) return `flag ${flag}: ${UNSUPPORTED_FLAGS[flag]}`;
  for (const feature of meta.features) if (Object.hasOwn(UNSUPPORTED_FEATURES, feature)) return `feature ${feature}: ${UNSUPPORTED_FEATURES[feature]}`;
  for (const m of source.matchAll(/\$262\.([A-Za-z]+)/g)) {
    if (!PROVIDED_HOST.has(m[1])) return `uses $262.${m[1]}, which this runner does not provide under isolated-vm`;
  }
  return undefined;
}

const harnessCache = new Map<string, string>();
function harness(root: string, name: string): string {
  let text = harnessCache.get(name);
  if (text === undefined) {
    text = readFileSync(join(root, 'harness', name), 'utf8');
    harnessCache.set(name, text);
  }
  return text;
}

/** The sources to evaluate for a file: one per strictness it must run in. */
export function programs(root: string, source: string, meta: TestMeta): { strict: boolean; code: string }[] {
  const raw = meta.flags.has('raw');
  const names = raw ? [] : ['assert.js', 'sta.js', ...(meta.flags.has('async') ? ['doneprintHandle.js'] : []), ...meta.includes];
  let prefix = '';
  for (const name of names) {
    // The harness of a test262 checkout, or a case's own directory (test/conformance/cases) when it has no harness.
    prefix += `${harness(root, name)}\n`;
  }
  const body = prefix + source;
  const runs: { strict: boolean; code: string }[] = [];
  if (!meta.flags.has('onlyStrict')) runs.push({ strict: false, code: body });
  if (!raw && !meta.flags.has('noStrict')) runs.push({ strict: true, code: `"use strict";\n${body}` });
  return runs;
}

function judge(meta: TestMeta, ev: ReturnType<Realms['evaluate']>): { ok: boolean; message?: string } {
  const thrown = ev.phase ? `${ev.phase} ${ev.name}: ${ev.message}` : '';
  const neg = meta.negative;
  if (neg) {
    if (ev.phase === null) return { ok: false, message: `expected ${neg.type} (${neg.phase}), nothing was thrown` };
    // isolated-vm copies a thrown value's standard error name; a Test262Error (no name of its own) arrives as Error.
    const name = neg.type === 'Test262Error' && ev.name === 'Error' ? 'Test262Error' : ev.name;
    if (ev.phase === neg.phase && name === neg.type) return { ok: true };
    return { ok: false, message: `expected ${neg.type} (${neg.phase}), got ${thrown}` };
  }
  if (ev.phase !== null) return { ok: false, message: thrown };
  if (meta.flags.has('async')) {
    const failure = ev.printed.find((p) => p.startsWith('Test262:AsyncTestFailure:'));
    if (failure) return { ok: false, message: `async ${failure.slice('Test262:AsyncTestFailure:'.length)}` };
    if (!ev.printed.includes('Test262:AsyncTestComplete')) return { ok: false, message: 'async: $DONE was never called' };
  }
  return { ok: true };
}

/** Runs `file` (a path relative to `root`) in both contexts; `harnessRoot` holds the harness directory. */
export function runFile(realms: Realms, root: string, file: string, harnessRoot = root, modes: readonly Mode[] = MODES): FileResult {
  const t0 = performance.now();
  const out: FileResult = { file, results: { plain: [], sandbox: [] } };
  const source = readFileSync(join(root, file), 'utf8');
  const meta = parseMeta(source);
  if (meta.features.length) out.features = meta.features;
  const skip = skipReason(file, source, meta);
  if (skip) {
    out.skip = skip;
    return out;
  }
  for (const { strict, code } of programs(harnessRoot, source, meta)) {
    for (const mode of modes) {
      let ev = realms.evaluate(mode, code, TEST_TIMEOUT_MS);
      // A timeout is retried once on a fresh isolate (evaluate has replaced it): isolated-vm can deliver a previous
      // run's termination late, which then ends a run long before its own deadline.
      if (ev.phase !== null && ev.message === TIMED_OUT) ev = realms.evaluate(mode, code, TEST_TIMEOUT_MS);
      const verdict = judge(meta, ev);
      out.results[mode].push({ strict, ...verdict, ...(verdict.message ? { message: verdict.message.slice(0, 400) } : {}) });
    }
  }
  out.ms = Math.round(performance.now() - t0);
  return out;
}

/** True when every run of `mode` passed. */
export function passed(result: FileResult, mode: Mode): boolean {
  return result.results[mode].every((r) => r.ok);
}
