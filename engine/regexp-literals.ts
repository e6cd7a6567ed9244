// How many characters of regular-expression literals a JavaScript text can hold, read without parsing it: the
// engine empties V8's RegExp cache after an execution whose code (its script, or code it evaluated) may have put
// long literal patterns there, since a literal cannot be salted per organization the way a pattern built from a
// string is (engine/v8-flags.ts, SALT_MIN_PATTERN in prelude-resources.ts).

/**
 * An upper bound on the total length of the regular-expression literals in `text`, never an underestimate: a
 * literal's pattern (V8's cache key) lies between two slashes of one line, since a literal contains no line
 * terminator, so the sum over lines of the span between the first and the last slash covers every literal (the
 * literals of one line do not overlap). Comments, divisions and URLs in strings count too: a bound, not a parse.
 *
 * Self-contained and reading only `length` and indexed characters of a primitive string, which no script can
 * redefine: the prelude embeds this function's own text and runs it on code a script evaluates.
 */
export function regExpLiteralChars(text: string): number {
  let total = 0;
  let first = -1;
  let last = -1;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '/') {
      if (first < 0) first = i;
      last = i;
    } else if (c === '\n' || c === '\r' || c === '\u2028' || c === '\u2029') {
      if (last - first > 1) total += last - first - 1;
      first = -1;
      last = -1;
    }
  }
  if (last - first > 1) total += last - first - 1;
  return total;
}
