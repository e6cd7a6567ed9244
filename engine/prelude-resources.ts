// The limits of the prelude's resource guards (engine/prelude/resources.js, whose header holds what each guard was
// measured to prevent), handed to them as values; the host and the tests read them here.

/** Longest string the repeat/pad builtins may produce (16 M UTF-16 units: a quarter of the heap at most). */
export const MAX_BUILT_STRING = 1 << 24;
/**
 * Longest string of the script's that the engine's own reporting (thrown values, error names and messages, console
 * lines) reads: a longer one is shown by its length. Flattening 4 M characters costs at most 8 MB.
 */
export const MAX_READ_TEXT = 1 << 22;
/** Longest source eval / the Function constructors accept: the default cap on a script's own source. */
export const MAX_DYNAMIC_SOURCE = 100 * 1024;
/**
 * V8 caches compiled regular expressions per isolate by pattern and flags, for every context of it, so for every
 * organization its executions run for, and no flag turns that cache off (engine/v8-flags.ts): B's first use of a
 * 45 KB pattern A had used took 20-30 ms against 90-130 ms for a fresh one, telling B that someone used exactly that
 * pattern. A pattern of at least SALT_MIN_PATTERN characters built from a string is compiled with a prefix naming
 * the organization (regExpSalt), so its cache entry is the organization's own. The prefix matches the empty string,
 * captures nothing and cannot be quantified, so every pattern is valid or not, and matches, exactly as without it;
 * the `source` getter and error messages leave it out. Shorter patterns compile in under ~50 us (a 900-character
 * alternation, compile and first match: 0.16 ms), below what a script can time, and keep V8's fast path for plain
 * strings. Regular-expression literals (in the script, or in code it evaluates) cannot be salted: an execution
 * whose literals may be this long empties the cache when it is over instead (engine/v8-flags.ts).
 */
export const SALT_MIN_PATTERN = 256;
/** The organization's prefix (`tag`: its tenant tag, base64url characters only, literal in any pattern). */
export function regExpSalt(tag: string): string {
  return `(?:${tag}){0}(?<=)`;
}
