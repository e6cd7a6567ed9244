// Turning a source into something an isolate can run: a host-side check that it is exactly one async
// function body (with the user's line for a syntax error), and the wrapper compiled in the isolate.
import { createHash } from 'node:crypto';
import vm from 'node:vm';
import { EVAL_KIT_PARAMS, rewriteDirectEval } from './direct-eval.ts';
import { SCRIPT_URL } from './prelude.ts';
import type { ExecutionError } from './result.ts';

/** The user's line 1 is line 3 of the wrapper; compile with this offset so V8 reports user lines. */
export const WRAPPER_LINE_OFFSET = -2;

/**
 * Caches must not tell one organization what another ran: ours are keyed by tenant and source, and V8's own
 * compilation caches (the isolate's script cache, the host's eval cache behind the Function constructor) are keyed
 * by source text, so each tenant's copy of a source carries a comment naming a hash of the tenant. A hash, so that
 * no tenant string can close the comment; it adds nothing a script can read (Function#toString stops at the brace).
 */
const tags = new Map<string, string>();
export function tenantTag(tenant: string): string {
  let tag = tags.get(tenant);
  if (tag === undefined) {
    tag = createHash('sha256').update(tenant).digest('base64url').slice(0, 22);
    if (tags.size >= 10_000) tags.clear();
    tags.set(tenant, tag);
  }
  return tag;
}

/** The key of `source` run by `tenant` in a cache (the compiled-script and syntax caches). */
export function cacheKey(tenant: string, source: string): string {
  return `${tenantTag(tenant)}\u0000${source}`;
}

export function wrapSource(source: string, tenant = ''): string {
  // A script whose own eval(...) calls must stay direct gets V8's eval bound around it, each call's source checked
  // (direct-eval.ts); the wrapper adds no line, so user lines are unchanged.
  const rewritten = rewriteDirectEval(source, '(async function anonymous(\n) {\n', '\n})');
  if (rewritten !== null)
    return `__start(((${EVAL_KIT_PARAMS}) => async function anonymous(\n) {\n${rewritten}\n})(...__sandboxEvalKit()))/*${tenantTag(tenant)}*/`;
  return `__start(async function anonymous(\n) {\n${source}\n})/*${tenantTag(tenant)}*/`;
}

/** A source whose nesting overflows the parser's stack (the host's here, or the isolate's when it compiles). */
export const SOURCE_TOO_DEEP: Readonly<ExecutionError> = Object.freeze({
  type: 'limit_exceeded',
  code: 'max_source_depth',
  message: 'The script nests brackets, blocks or expressions too deeply to compile; flatten it.',
});

const AsyncFunction = async function () {}.constructor as new (body: string) => unknown;

/** The check needs the host to allow code generation from strings (it parses, never runs, the result). */
export function assertHostCanCheck(): void {
  try {
    new AsyncFunction('');
  } catch (err) {
    throw new Error(`the script engine checks script syntax with the Function constructor, which this process forbids (${(err as Error).message})`);
  }
}
const CACHE_MAX_ENTRIES = 500;
const CACHE_MAX_CHARS = 4 * 1024 * 1024;
const checked = new Map<string, ExecutionError | null>();
let checkedChars = 0;

/**
 * Null when `source` is one valid async function body, else the syntax_error to report. V8's Function
 * constructor is the check: it refuses a body that would close the wrapper early ("Single function literal
 * required"), so the compiled wrapper can only ever be one call with one function argument. It parses
 * (never runs) the source in the host's V8, the same engine that will compile it in the isolate.
 */
export function checkSyntax(source: string, tenant = ''): ExecutionError | null {
  const key = cacheKey(tenant, source);
  const hit = checked.get(key);
  if (hit !== undefined) {
    checked.delete(key);
    checked.set(key, hit);
    return hit;
  }
  let problem: ExecutionError | null = null;
  try {
    // The trailing comment keys V8's eval cache by tenant too (see tenantTag); it cannot change the verdict.
    new AsyncFunction(`${source}\n//${tenantTag(tenant)}`);
  } catch (err) {
    if (err instanceof RangeError) {
      // The parser recursed out of the host's stack (thousands of nested brackets): the isolate, with a smaller
      // stack, could not compile it either. A limit of the source, never a failure of the host.
      problem = { ...SOURCE_TOO_DEEP };
    } else {
      if (!(err instanceof SyntaxError)) throw err;
      problem = { type: 'syntax_error', message: err.message };
      const line = lineOf(source);
      if (line) problem.line = line;
    }
  }
  remember(key, problem);
  return problem;
}

/** Where V8 reports the error when it compiles the wrapper as a script (only on the error path). */
function lineOf(source: string): number | undefined {
  try {
    new vm.Script(`(async function anonymous(\n) {\n${source}\n})`, { filename: SCRIPT_URL, lineOffset: WRAPPER_LINE_OFFSET });
  } catch (err) {
    const first = err instanceof Error ? (err.stack ?? '').split('\n', 1)[0] : '';
    const m = /:(\d+)$/.exec(first);
    const line = m ? Number(m[1]) : 0;
    if (line > 0) return line;
  }
  return undefined;
}

function remember(key: string, problem: ExecutionError | null): void {
  if (key.length > CACHE_MAX_CHARS / 8) return;
  checked.set(key, problem);
  checkedChars += key.length;
  for (const key of checked.keys()) {
    if (checked.size <= CACHE_MAX_ENTRIES && checkedChars <= CACHE_MAX_CHARS) break;
    checked.delete(key);
    checkedChars -= key.length;
  }
}
