// The prelude guards on percent-encoding (encodeURI, encodeURIComponent, escape): a guard of guardResources
// (resources.js). Measured in a host process (its RSS, 64 MB isolate): encodeURIComponent of 16 M "é" took 294 MB,
// result ok (100 M chars). The result is capped at MAX_BUILT_STRING (prelude-resources.ts).
/** @import { Kit, Limits } from './types.js' */

/**
 * Installs the guard; `kit` holds what guardResources captured and shares (resources.js), `limits` the caps.
 * @param {Kit} kit
 * @param {Limits} limits
 */
export function guardPercentEncoding(kit, limits) {
  const { G, rapply, replaceMethod, toText, tooBig } = kit;
  const MAX_BUILT = limits.maxBuiltString;
  // Percent-encoding writes up to nine characters for one: an input that could pass the limit is measured first
  // (ASCII left as is or %XX, then %XX per UTF-8 byte; escape: %XX below 256, else %uXXXX).
  const strCharCodeAt = G.String.prototype.charCodeAt;
  // The characters each leaves as they are, tested by code rather than looked up in a table built per context.
  /** @param {number} c */
  const alnum = (c) => (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
  // A-Z a-z 0-9 - _ . ! ~ * ' ( )
  /** @param {number} c */
  const keptByUri = (c) => alnum(c) || c === 45 || c === 95 || c === 46 || c === 33 || c === 126 || (c >= 39 && c <= 42);
  // A-Z a-z 0-9 @ * _ + - . /
  /** @param {number} c */
  const keptByEscape = (c) => alnum(c) || c === 64 || c === 42 || c === 95 || c === 43 || c === 45 || c === 46 || c === 47;
  /**
   * @param {string} s
   * @param {boolean} escape
   */
  const encodedLength = (s, escape) => {
    const keep = escape ? keptByEscape : keptByUri;
    let total = 0;
    for (let i = 0; i < s.length; i++) {
      const c = rapply(strCharCodeAt, s, [i]);
      total += keep(c) ? 1 : c < 128 || (escape && c < 256) ? 3 : escape || c < 2048 ? 6 : 9;
      if (total > MAX_BUILT) return total;
    }
    return total;
  };
  for (const [name, escape] of /** @type {[string, boolean][]} */ ([
    ['encodeURI', false],
    ['encodeURIComponent', false],
    ['escape', true],
  ])) {
    const original = G[name];
    if (typeof original !== 'function') continue;
    replaceMethod(G, name, 1, function (value) {
      const s = toText(value);
      if (s.length * (escape ? 6 : 9) > MAX_BUILT && encodedLength(s, escape) > MAX_BUILT) throw tooBig();
      return original(s);
    });
  }
}
