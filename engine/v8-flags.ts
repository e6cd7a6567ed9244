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
// built from strings are salted per organization instead (SALT_MIN_PATTERN in prelude-resources.ts). A literal
// cannot be salted (its text is the key), and one organization's 32 KB literal compiled in 1 ms for another that
// guessed it against 64 ms for a wrong guess. V8 ages that cache at each full collection and drops what two in a row
// found unused (CompilationCacheRegExp::Age, from MarkCompactCollector's prologue), so an execution whose script or
// evaluated code may hold regular-expression literals of SALT_MIN_PATTERN characters or more in all (a bound read
// from the text: regexp-literals.ts) leaves its isolate only after two full collections (slot.ts, 'forget' in
// prelude.ts), with its result already sent. Measured ways of closing it, per execution on a 2-core machine:
//   two full collections of a slot's isolate       about 1.2-3 ms (a 2 MB heap), only after such executions
//   a new isolate with its prelude and context     about 3.7-8 ms, and every organization's cached scripts lost
// so the collections, and only where a literal may be long: every other script pays nothing but the gc function's
// installation in each new context (within noise of interleaved rounds: ratio 1.00-1.03). Isolates that serve one
// organization at a time would pay the second on nearly every execution of a mixed load.
import v8 from 'node:v8';

const ISOLATE_V8_FLAGS = [
  // The compilation cache: eval, the Function constructors (and scripts, which the engine caches itself).
  '--no-compilation-cache',
  // The results of String#split / RegExp#[Symbol.replace] etc. on internalized strings (literals).
  '--no-regexp-results-cache',
  // A \`gc\` function in each new context, for the prelude to empty the RegExp cache with (above); the prelude
  // keeps it and leaves the global, which V8 makes non-deletable, reading undefined.
  '--expose-gc',
] as const;

/** Called where isolates are built, before any is: in each host process, or by an in-process engine. */
export function applyIsolateFlags(): void {
  for (const flag of ISOLATE_V8_FLAGS) v8.setFlagsFromString(flag);
}
