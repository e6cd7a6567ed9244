// Turning a source into something an isolate can run: a host-side check that it is exactly one async
// function body (with the user's line for a syntax error), and the wrapper compiled in the isolate.
import vm from 'node:vm';
import { SCRIPT_URL } from './prelude.ts';
import type { ExecutionError } from './result.ts';

/** The user's line 1 is line 3 of the wrapper; compile with this offset so V8 reports user lines. */
export const WRAPPER_LINE_OFFSET = -2;

export function wrapSource(source: string): string {
  return `__start(async function anonymous(\n) {\n${source}\n})`;
}

/** A source whose nesting overflows the parser's stack (the host's here, or the isolate's when it compiles). */
export const SOURCE_TOO_DEEP: Readonly<ExecutionError> = Object.freeze({
  type: 'limit_exceeded', code: 'max_source_depth', message: 'The script nests brackets, blocks or expressions too deeply to compile; flatten it.',
});

const AsyncFunction = (async function () {}).constructor as new (body: string) => unknown;

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
export function checkSyntax(source: string): ExecutionError | null {
  const hit = checked.get(source);
  if (hit !== undefined) {
    checked.delete(source);
    checked.set(source, hit);
    return hit;
  }
  let problem: ExecutionError | null = null;
  try {
    new AsyncFunction(source);
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
  remember(source, problem);
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

function remember(source: string, problem: ExecutionError | null): void {
  if (source.length > CACHE_MAX_CHARS / 8) return;
  checked.set(source, problem);
  checkedChars += source.length;
  for (const key of checked.keys()) {
    if (checked.size <= CACHE_MAX_ENTRIES && checkedChars <= CACHE_MAX_CHARS) break;
    checked.delete(key);
    checkedChars -= key.length;
  }
}
