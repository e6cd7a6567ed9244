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
// cannot be salted (its text is the key): one organization's 30 KB literal compiled for another in 0.24-0.28 of a
// fresh literal's time, in the script or in code given to eval or the Function constructors. V8 ages that cache at
// each full collection and drops what two in a row found unused (CompilationCacheRegExp::Age, called from the mark-
// compact prologue; V8 13.6 in Node 24), so an execution whose script or evaluated code may hold SALT_MIN_PATTERN
// characters of literals or more in all (an upper bound read from the text: regexp-literals.ts) is followed by two
// full collections before its isolate takes other work (slot.ts, op 'forget' in prelude.ts), after its result is
// sent. Decided by measurement, bench/engine-builds.ts style (interleaved rounds against the build before, medians,
// host processes, the 2-core machine loaded by other work; an A/A run of one build against itself gave 97-103 %,
// 75 % in its noisiest cell, (c) at 8):
//   every script, no literals (a) `return 1 + 1`, (b) two host calls, (c) a 2,000-row sort, at concurrency 1 / 8:
//     98 / 97 %, 99 / 101 %, 95 / 104 % of the build before (medians of 4 runs: the gc function each new context
//     gets, and the literal count done when a script is compiled)
//   a script with a 300- or 3,000-character literal     40-49 % of the build before (two collections, 1.2-3 ms
//     of a 2 MB heap, after each such execution; its latency is unchanged, the result goes first)
//   rejected: the two collections whenever the next execution is another organization's (every one of a mixed
//     load; emulated after every execution): (a) 42-50 %, (b) 48-51 %
//   rejected: isolates that serve one organization at a time, a new isolate on each switch (3.7-8 ms with its
//     prelude and first context, and every organization's cached scripts lost): (a) 16-37 %, (b) 25-34 %, (c) 64-66 %
// What stays shared (docs/security.md, "Timing across organizations"): patterns under SALT_MIN_PATTERN built from strings,
// V8's table of literal strings, and ICU's caches, which are per process, not per isolate.
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
