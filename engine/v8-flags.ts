// V8 keeps caches per isolate, keyed by content and shared by every context of that isolate, so by every tenant
// whose executions it runs: what one organization compiled or split, another's identical request finds ready, and
// the difference in latency tells it that someone ran that exact text. Measured on a pool of one isolate (a ~70 KB
// source, five compilations): `new Function` 7 ms for A, 0 ms for B's identical source, 7 ms for B's fresh one;
// indirect eval 10 / 2 / 10 ms (test/engine/resources.test.ts). Splitting a 90 KB literal: 0.9 ms for B's run of A's
// literal against 1.4 ms for a fresh one; 1.1-1.3 against 1.3 with its cache off (what is left is V8's table of
// literal strings, which no flag turns off). Both caches are off in the process that runs the sandbox's isolates
// (each host process; the server itself only with the in-process pool): a source compiles anew each time it is
// evaluated, and split/replace on a literal string compute anew. The scripts' own compiled code is cached by the
// engine per organization instead (slot.ts).
//
// V8's regular-expression cache (pattern and flags → compiled RegExp data, per isolate) has no flag: long patterns
// built from strings are salted per organization instead (SALT_MIN_PATTERN in prelude-resources.ts).
import v8 from 'node:v8';

const ISOLATE_V8_FLAGS = [
  // The compilation cache: eval, the Function constructors (and scripts, which the engine caches itself).
  '--no-compilation-cache',
  // The results of String#split / RegExp#[Symbol.replace] etc. on internalized strings (literals).
  '--no-regexp-results-cache',
] as const;

/** Called where isolates are built, before any is: in each host process, or by an in-process engine. */
export function applyIsolateFlags(): void {
  for (const flag of ISOLATE_V8_FLAGS) v8.setFlagsFromString(flag);
}
