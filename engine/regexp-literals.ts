// How many characters of regular-expression literals a JavaScript text can hold, read without parsing it: the
// engine empties V8's RegExp cache after an execution whose code (its script, or code it evaluated) may have put
// long literal patterns there, since a literal cannot be salted per organization the way a pattern built from a
// string is (engine/v8-flags.ts, SALT_MIN_PATTERN in prelude-resources.ts).

/**
 * An upper bound on the total length of the regular-expression literals in `text`, never an underestimate. A
 * literal's pattern (V8's cache key) lies between two slashes of one line, since a literal holds no line terminator,
 * and it cannot open with a slash followed by `/` or `*` (a comment), nor with one right after a slash unless that
 * one closes a block comment (after a literal's closing slash comes a division; a division followed by `/` is a
 * comment). So the sum over lines of the span from the first slash that may open a literal to the last slash covers
 * every literal (those of one line do not overlap). Comments alone count nothing; divisions, paths in strings and
 * slashes inside comments may. A bound, not a parse (test/engine/regexp-literals.test.ts checks it never falls short).
 *
 * Self-contained, and reading only `length` and in-range indexed characters of a primitive string, which no script
 * can redefine: the prelude embeds this function's own text and runs it on code a script evaluates.
 */
export function regExpLiteralChars(text: string): number {
  const n = text.length;
  let total = 0;
  let first = -1;
  let last = -1;
  for (let i = 0; i < n; i++) {
    const c = text[i];
    if (c === '/') {
      if (first < 0) {
        const next = i + 1 < n ? text[i + 1] : '';
        const closesComment = i > 1 && text[i - 1] === '/' && text[i - 2] === '*';
        if (next !== '/' && next !== '*' && (i === 0 || text[i - 1] !== '/' || closesComment)) first = i;
      }
      last = i;
    } else if (c === '\n' || c === '\r' || c === '\u2028' || c === '\u2029') {
      if (first >= 0 && last - first > 1) total += last - first - 1;
      first = -1;
      last = -1;
    }
  }
  if (first >= 0 && last - first > 1) total += last - first - 1;
  return total;
}
