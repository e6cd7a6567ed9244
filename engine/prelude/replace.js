// The prelude guards on replacing (String#replace, replaceAll, RegExp#[Symbol.replace]): a guard of guardResources
// (resources.js). Measured in a host process (its RSS, 64 MB isolate): replace(/x/g, () => a 16 M-char string) over
// 30 matches took 572 MB, result ok (503 M chars); replace(/x/g, '$&' × 30) over 4 M matches 1179 MB, the host
// killed at its memory cap. The result is capped at MAX_BUILT_STRING (prelude-resources.ts).
/** @import { Dict, Kit, Limits, NullProtoDictionary, NullProtoList, Value } from './types.js' */

/**
 * Installs the guard; `kit` holds what guardResources captured and shares (resources.js), `limits` the caps.
 * @param {Kit} kit
 * @param {Limits} limits
 */
export function guardReplace(kit, limits) {
  const {
    rapply,
    getOwnPropertyDescriptor,
    getPrototypeOf,
    TypeErrorCtor,
    replaceMethod,
    toText,
    floor,
    S,
    tooBig,
    ObjectCtor,
    reProto,
    isRegExp,
    methodOf,
    requireGlobal,
  } = kit;
  const MAX_BUILT = limits.maxBuiltString;
  // Replacing builds its result in one step too, and a replacement can be much longer than what it replaces: a
  // function returning one 16 M-character string for 30 matches gave 480 M characters (result ok), and '$&' 30
  // times over 4 M matches took a host past its memory cap. A replacement function is wrapped to add up what it
  // returns; a template is measured when its worst case could pass the limit: exactly, match by match, for a
  // string pattern, and by expanding it in our own function (GetSubstitution's rules) for a regular expression.
  const strIndexOf = S.indexOf;
  const strSlice = S.slice;
  /**
   * @param {Value} f
   * @returns {f is Dict & Function}
   */
  const isCallable = (f) => typeof f === 'function';
  /**
   * @param {Value} v
   * @returns {Dict}
   */
  const toObject = (v) => {
    if (v === null || v === undefined) throw new TypeErrorCtor('Cannot convert undefined or null to object');
    return ObjectCtor(v);
  };
  /** @type {typeof Symbol.replace} */
  const symReplace = Symbol.replace;
  // The character at i, or '' past the end (an index past the end would be looked up on String.prototype).
  /**
   * @param {string} t
   * @param {number} i
   */
  const charAt = (t, i) => (i < t.length ? t[i] : '');
  // A function that replaces as fn would and throws once the result would pass the limit. It adds up the result
  // as the original assembles it: a match is used only if it starts at or after the end of the last one used, and
  // the text between them is kept. (An exec of the script's own may return any matched string at any position;
  // subtracting what each match removes would let skipped matches cancel what others add.)
  /**
   * @param {Function} fn
   * @param {string} subject
   * @returns {(matched: Value, ...rest: Value[]) => string}
   */
  const counted = (fn, subject) => {
    let total = 0;
    let next = 0;
    return function (matched) {
      const r = toText(rapply(fn, undefined, arguments));
      const n = arguments.length;
      // (matched, ...captures, position, subject[, groups]): the position is the only number (captures are strings
      // or undefined), and groups, when there, can be anything.
      const position = arguments[typeof arguments[n - 2] === 'number' ? n - 2 : n - 3];
      if (position >= next) {
        total += position - next + r.length;
        next = position + toText(matched).length;
        if (total + (next < subject.length ? subject.length - next : 0) > MAX_BUILT) throw tooBig();
      }
      return r;
    };
  };
  /** @param {string} t */
  const dollars = (t) => {
    let n = 0;
    for (let i = rapply(strIndexOf, t, ['$']); i >= 0; i = rapply(strIndexOf, t, ['$', i + 1])) n++;
    return n;
  };
  // Upper bound of a replacement's length: each '$' may stand for at most the whole subject.
  /**
   * @param {string} subject
   * @param {string} t
   * @param {number} matches
   * @param {number} searched
   */
  const worstCase = (subject, t, matches, searched) => subject.length + matches * (t.length + dollars(t) * subject.length - searched);
  // GetSubstitution for a string pattern: only $$, $&, $` and $' mean anything.
  /** @param {string} t */
  const stringTemplate = (t) => {
    const parts = { __proto__: null, fixed: 0, match: 0, before: 0, after: 0 };
    for (let i = 0; i < t.length; i++) {
      const c = t[i] === '$' ? charAt(t, i + 1) : '';
      if (c === '$') {
        parts.fixed++;
        i++;
      } else if (c === '&') {
        parts.match++;
        i++;
      } else if (c === '`') {
        parts.before++;
        i++;
      } else if (c === "'") {
        parts.after++;
        i++;
      } else parts.fixed++;
    }
    return parts;
  };
  /**
   * @param {string} subject
   * @param {string} search
   * @param {string} t
   * @param {boolean} all
   */
  const checkStringReplace = (subject, search, t, all) => {
    const parts = stringTemplate(t);
    let total = subject.length;
    const step = search.length > 0 ? search.length : 1;
    for (let at = rapply(strIndexOf, subject, [search, 0]); at >= 0; at = all ? rapply(strIndexOf, subject, [search, at + step]) : -1) {
      total += parts.fixed + parts.match * search.length + parts.before * at + parts.after * (subject.length - at - search.length) - search.length;
      if (total > MAX_BUILT) throw tooBig();
      if (at + step > subject.length) break;
    }
  };
  // The original is handed the search string inside an object of ours with no Symbol.replace: given the string, it
  // would look that symbol up again, on String.prototype (the script's own, where it has put one).
  const searchText = {
    __proto__: null,
    [symReplace]: undefined,
    value: '',
    toString() {
      return searchText.value;
    },
  };
  /** @param {string} search */
  const searchFor = (search) => {
    searchText.value = search;
    return searchText;
  };
  for (const [name, all] of /** @type {['replace' | 'replaceAll', boolean][]} */ ([
    ['replace', false],
    ['replaceAll', true],
  ])) {
    const original = S[name];
    replaceMethod(S, name, 2, function (searchValue, replaceValue) {
      if (this === null || this === undefined) throw new TypeErrorCtor('String.prototype.' + name + ' called on null or undefined');
      // A pattern with its own replace method (a RegExp) is its business: RegExp.prototype[Symbol.replace] is guarded.
      if (searchValue !== undefined && searchValue !== null) {
        if (all) requireGlobal(searchValue, name);
        const replacer = methodOf(searchValue, symReplace);
        if (replacer !== undefined) return rapply(replacer, searchValue, [this, replaceValue]);
      }
      const subject = toText(this);
      const search = toText(searchValue);
      if (isCallable(replaceValue)) return rapply(original, subject, [searchFor(search), counted(replaceValue, subject)]);
      const t = toText(replaceValue);
      const matches = !all ? 1 : search.length === 0 ? subject.length + 1 : floor(subject.length / search.length);
      if (worstCase(subject, t, matches, search.length) > MAX_BUILT) checkStringReplace(subject, search, t, all);
      return rapply(original, subject, [searchFor(search), t]);
    });
  }
  // GetSubstitution for a regular expression, as a replacement function: the original then calls it per match.
  /**
   * @param {string} t
   * @returns {(matched: string, ...rest: Value[]) => string}
   */
  const expand = (t) =>
    function (matched, ...rest) {
      // The position is the only number among the arguments; groups, when there, come after the subject and are
      // converted to an object as GetSubstitution's caller does (null: a TypeError), once per match.
      const hasGroups = typeof rest[rest.length - 2] !== 'number';
      const groups = hasGroups ? toObject(rest[rest.length - 1]) : undefined;
      const m = rest.length - (hasGroups ? 3 : 2);
      const position = /** @type {number} */ (rest[m]);
      const subject = rest[m + 1];
      /** @param {number} n */
      const capture = (n) => (rest[n - 1] === undefined ? '' : toText(rest[n - 1]));
      // Literal runs are appended whole (one part per run, not per character).
      let out = '';
      let i = 0;
      while (i < t.length) {
        const at = rapply(strIndexOf, t, ['$', i]);
        const end = at < 0 ? t.length : at;
        if (end > i) out += rapply(strSlice, t, [i, end]);
        if (at < 0) break;
        const d = charAt(t, at + 1);
        i = at + 2;
        if (d === '$') out += '$';
        else if (d === '&') out += matched;
        else if (d === '`') out += rapply(strSlice, subject, [0, position]);
        else if (d === "'") out += rapply(strSlice, subject, [position + matched.length]);
        else if (d >= '0' && d <= '9') {
          const e = charAt(t, at + 2);
          const two = e >= '0' && e <= '9' ? +(d + e) : 0;
          if (two >= 1 && two <= m) {
            out += capture(two);
            i = at + 3;
          } else if (+d >= 1 && +d <= m) out += capture(+d);
          else {
            out += '$';
            i = at + 1;
          }
        } else if (d === '<' && groups !== undefined && rapply(strIndexOf, t, ['>', at + 2]) >= 0) {
          const close = rapply(strIndexOf, t, ['>', at + 2]);
          const v = groups[rapply(strSlice, t, [at + 2, close])];
          out += v === undefined ? '' : toText(v);
          i = close + 1;
        } else {
          out += '$';
          i = at + 1;
        }
        if (out.length > MAX_BUILT) throw tooBig();
      }
      if (out.length > MAX_BUILT) throw tooBig();
      return out;
    };
  // The worst case of a template holds only while matches come from the builtin exec (substrings of the subject,
  // at most one per position): an exec of the script's own can return any string, at one position forever (a
  // 1-character subject, 2^16 empty matches and a 4,096-character template gave 268 M characters). So a template
  // goes to the original only for a RegExp whose exec and flag getters no script code has replaced, on the object
  // or its prototype (a getter the original calls could swap exec midway).
  const reExec = reProto.exec;
  const ownKeys = Reflect.ownKeys;
  /** @type {NullProtoList<string>} */
  const flagNames = { __proto__: null, length: 0 };
  /** @type {NullProtoDictionary<Function>} */
  const flagGetters = { __proto__: null };
  for (const name of ['flags', 'hasIndices', 'global', 'ignoreCase', 'multiline', 'dotAll', 'unicode', 'unicodeSets', 'sticky']) {
    const d = getOwnPropertyDescriptor(reProto, name);
    if (d !== undefined && typeof d.get === 'function') {
      flagNames[flagNames.length++] = name;
      flagGetters[name] = d.get;
    }
  }
  /** @param {Value} rx */
  const plainRegExp = (rx) => {
    // Its only own property is lastIndex, and its prototype's exec and flag getters are the builtins.
    if (!isRegExp(rx) || getPrototypeOf(rx) !== reProto || ownKeys(rx).length !== 1) return false;
    const exec = getOwnPropertyDescriptor(reProto, 'exec');
    if (exec === undefined || exec.value !== reExec) return false;
    for (let i = 0; i < flagNames.length; i++) {
      const d = getOwnPropertyDescriptor(reProto, flagNames[i]);
      if (d === undefined || d.get !== flagGetters[flagNames[i]]) return false;
    }
    return true;
  };
  const reReplace = reProto[symReplace];
  replaceMethod(reProto, symReplace, 2, function (string, replaceValue) {
    // Anything but an object is the original's TypeError, before the arguments are read.
    if (this === null || (typeof this !== 'object' && typeof this !== 'function')) return rapply(reReplace, this, []);
    const subject = toText(string);
    if (isCallable(replaceValue)) return rapply(reReplace, this, [subject, counted(replaceValue, subject)]);
    const t = toText(replaceValue);
    if (worstCase(subject, t, subject.length + 1, 0) <= MAX_BUILT && plainRegExp(this)) return rapply(reReplace, this, [subject, t]);
    return rapply(reReplace, this, [subject, counted(expand(t), subject)]);
  });
}
