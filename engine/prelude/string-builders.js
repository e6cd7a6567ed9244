// The prelude guards on strings built in one step by repeat, padStart and padEnd: a guard of guardResources
// (resources.js). Measured (in-process pool, server RSS, 64 MB isolate): 'x'.repeat(2 ** 28 - 100) took 512 MB for
// two, result ok. The result is capped at MAX_BUILT_STRING (prelude-resources.ts).
/** @import { Kit, Limits } from './types.js' */

/**
 * Installs the guard; `kit` holds what guardResources captured and shares (resources.js), `limits` the caps.
 * @param {Kit} kit
 * @param {Limits} limits
 */
export function guardStringBuilders(kit, limits) {
  const { rapply, RangeErrorCtor, replaceMethod, toText, trunc, toLength, S, receiverText, tooBig, strRepeat, printed } = kit;
  const MAX_BUILT = limits.maxBuiltString;
  replaceMethod(S, 'repeat', 1, function (count) {
    const s = receiverText(this, 'repeat');
    // @ts-expect-error -- ToNumber of any value, as the builtin converts count (a Symbol throws): no type but any takes +.
    const n = +count;
    const k = n !== n ? 0 : trunc(n);
    // A negative or infinite count is a RangeError naming the count as given.
    if (k < 0 || k === Infinity) {
      if (count !== null && (typeof count === 'object' || typeof count === 'function')) throw new RangeErrorCtor('Invalid count value: ' + printed(count));
      return rapply(strRepeat, s, [count]);
    }
    if (k > 0 && s.length * k > MAX_BUILT) throw tooBig();
    return rapply(strRepeat, s, [n]);
  });
  /** @param {'padStart' | 'padEnd'} name */
  const padding = (name) => {
    const original = S[name];
    replaceMethod(S, name, 1, function (maxLength, fillString) {
      const s = receiverText(this, name);
      // @ts-expect-error -- ToNumber of any value, as the builtin converts maxLength (a Symbol throws): no type but any takes +.
      const n = toLength(+maxLength);
      if (n <= s.length) return s;
      const fill = fillString === undefined ? ' ' : toText(fillString);
      if (fill.length > 0 && n > MAX_BUILT) throw tooBig();
      return rapply(original, s, [n, fill]);
    });
  };
  padding('padStart');
  padding('padEnd');
}
