// JSON.stringify with a bound on what it builds: a guard of the prelude (core.js) made before any script
// code runs.
//
// Why: JSON.stringify writes a string shared by reference as many times as it is referenced, and V8 builds the
// whole text before the isolate's heap limit can stop it. Measured in a host process (64 MB isolate): one 16 M-char
// string referenced 30 times pushed the host's RSS to 1.07–1.16 GB, after which the script either got its 480 M
// characters back or took the host down. The script's result, its binding arguments and console.log go through the
// same serializer, and the prelude used to build their text in full before it checked their size.
//
// How: the native serializer does the work, with a replacer of ours that adds up the length of the text as it will
// be written (brackets, commas, keys, escapes, indentation) and throws as soon as the total passes the limit, so
// the text is never built. The script's own replacer, toJSON, getters and proxies run as they would without it,
// once each and in the same order; the differences are only in what the native serializer would do after our
// replacer returns, which we do ourselves first:
//  - a String object is converted (its toString can return any string) and handed on as the primitive;
//  - a property list (an array replacer) is served by a proxy over each object that lists its keys in the list's
//    order, so the function replacer can stand in for it;
//  - a Number or Boolean object prints as at most 24 characters where the count saw '{}', so an object that
//    turns out to have no members is charged those 22 more unless it is plainly an empty object.
//  - an object is asked (hasOwnProperty) whether it has an own length, to find String objects before the serializer
//    converts them: a Proxy sees one getOwnPropertyDescriptor trap V8 does not make. A brand check no Proxy sees
//    throws for every other object, 15 us each against 0.01 (measured over 100,000 objects), so this one stays.
// It is exact otherwise (test/engine/json-bound.test.ts compares counts and texts with the native serializer's,
// test/engine/standard-strings.test.ts what the script's toJSON, replacer, getters and proxies see).
/** @import { Dict, NullProtoDictionary, NullProtoList } from './types.js' */
/**
 * @template T
 * @typedef {{ __proto__?: null, [depth: number]: T }} ByDepth What the containers enclosing the one being written had, by depth.
 */

/**
 * Returns `stringifyWithin(value, replacer, space, limit, maxDepth?)`: the text JSON.stringify would return (or
 * undefined), or OVER (its `.OVER` property) when the text would be longer than `limit` UTF-16 units, or DEEP
 * (`.DEEP`) when it would nest arrays and objects more than maxDepth levels deep. Its `.misses` counts the texts the
 * count let through and a final length check refused (none, if it is exact). Every builtin it uses is captured when
 * it is called.
 */
export function boundJson() {
  const rapply = Reflect.apply;
  const isArray = Array.isArray;
  const nativeStringify = JSON.stringify;
  const JSONObject = JSON;
  const isRawJSON = typeof JSON.isRawJSON === 'function' ? JSON.isRawJSON : () => false;
  const hasOwn = Object.prototype.hasOwnProperty;
  const objectToString = Object.prototype.toString;
  const ObjectProto = Object.prototype;
  const getPrototypeOf = Object.getPrototypeOf;
  const getOwnPropertyDescriptor = Object.getOwnPropertyDescriptor;
  const freeze = Object.freeze;
  const strValueOf = String.prototype.valueOf;
  const numValueOf = Number.prototype.valueOf;
  const boolValueOf = Boolean.prototype.valueOf;
  const bigintValueOf = typeof BigInt === 'function' ? BigInt.prototype.valueOf : undefined;
  const strCharCodeAt = String.prototype.charCodeAt;
  const strSlice = String.prototype.slice;
  // fnCall(f, self, ...args) calls f as Function.prototype.call would, without an array per call.
  const fnCall = globalThis.Function.prototype.call.bind(globalThis.Function.prototype.call);
  const StringCtor = String;
  const NumberCtor = Number;
  const ProxyCtor = Proxy;
  const RangeErrorCtor = RangeError;
  const trunc = Math.trunc;
  const TAG = Symbol.toStringTag;
  const OVER = freeze({ __proto__: null });
  const DEEP = freeze({ __proto__: null });

  // Brand checks: a primitive's valueOf throws for anything but its own wrapper.
  /**
   * @param {Function} valueOf
   * @param {unknown} v
   */
  const isBrand = (valueOf, v) => {
    try {
      rapply(valueOf, v, []);
      return true;
    } catch (_) {
      return false;
    }
  };
  /** @param {unknown} v */
  const isStringObject = (v) => isBrand(strValueOf, v);
  /** @param {unknown} v */
  const isNumberObject = (v) => isBrand(numValueOf, v);
  // The primitive in a String object (any object under a property list: Number, Boolean and BigInt objects too),
  // or v itself. A brand check throws for anything else, which is why only these cases pay for it.
  /**
   * @param {unknown} v
   * @param {boolean} every
   */
  const unwrapped = (v, every) => {
    if (isStringObject(v)) return StringCtor(v);
    if (!every) return v;
    if (isNumberObject(v)) return NumberCtor(v);
    if (isBrand(boolValueOf, v)) return rapply(boolValueOf, v, []);
    if (bigintValueOf !== undefined && isBrand(bigintValueOf, v)) return rapply(bigintValueOf, v, []);
    return v;
  };

  // Length of s once quoted and escaped; only called when s itself fits (so a rope is never flattened past it). The
  // native serializer writes it, a slice at a time so that what it writes at once stays small (never between the
  // halves of a surrogate pair, which it writes as they are, where a lone half takes six characters). No regular
  // expression is run: a match would change RegExp.lastMatch and the other legacy statics the script can read.
  const SLICE = 1 << 16;
  /** @param {string} s */
  const quotedLength = (s) => {
    if (s.length <= SLICE) return rapply(nativeStringify, JSONObject, [s]).length;
    let n = 2;
    for (let i = 0; i < s.length; ) {
      let end = i + SLICE < s.length ? i + SLICE : s.length;
      const c = fnCall(strCharCodeAt, s, end - 1);
      if (end < s.length && c >= 0xd800 && c <= 0xdbff) end++;
      n += rapply(nativeStringify, JSONObject, [fnCall(strSlice, s, i, end)]).length - 2;
      i = end;
    }
    return n;
  };

  // The indentation string, as SerializeJSON computes it from space (a Number or String object converted once).
  /** @param {unknown} space */
  const gapOf = (space) => {
    let s = space;
    if (typeof s === 'object' && s !== null) {
      if (isNumberObject(s)) s = NumberCtor(s);
      else if (isStringObject(s)) s = StringCtor(s);
    }
    if (typeof s === 'number') {
      const k = s !== s ? 0 : trunc(s);
      return k >= 1 ? rapply(strSlice, '          ', [0, k > 10 ? 10 : k]) : '';
    }
    if (typeof s === 'string') return s.length <= 10 ? s : rapply(strSlice, s, [0, 10]);
    return '';
  };

  // An array replacer's property list: strings, numbers and String/Number objects, in order, without repeats.
  /** @param {ArrayLike<unknown>} replacer */
  const propertyList = (replacer) => {
    /** @type {NullProtoList<string>} */
    const keys = { __proto__: null, length: 0 };
    /** @type {NullProtoDictionary<true>} */
    const seen = { __proto__: null };
    const n = +replacer.length;
    const len = n > 0 ? trunc(n) : 0;
    for (let i = 0; i < len; i++) {
      const v = replacer[i];
      let item;
      if (typeof v === 'string') item = v;
      else if (typeof v === 'number') item = `${v}`;
      else if (typeof v === 'object' && v !== null && (isStringObject(v) || isNumberObject(v))) item = StringCtor(v);
      if (item !== undefined && seen[item] !== true) {
        seen[item] = true;
        keys[keys.length++] = item;
      }
    }
    return keys;
  };
  // The native serializer, given a function replacer, writes an object's own enumerable keys in their own order;
  // this proxy reports the list's keys instead, in the list's order, and reads each from the object.
  /**
   * @param {NullProtoList<string>} keys
   * @returns {ProxyHandler<{ __proto__?: null, object: Dict }>}
   */
  const listed = (keys) => ({
    __proto__: null,
    ownKeys: () => keys,
    getOwnPropertyDescriptor: () => ({ __proto__: null, value: undefined, writable: true, enumerable: true, configurable: true }),
    get: (target, key) => target.object[key],
  });

  // What an object that had no members printed beyond the '{}' it was counted as: nothing, unless the serializer
  // unwrapped it (a Number object prints up to 24 characters, a Boolean object 4 or 5). An object whose tag
  // nothing can have changed is plainly an object; anything else pays for brand checks.
  /** @param {unknown} o */
  const plainlyEmpty = (o) =>
    getPrototypeOf(o) === ObjectProto &&
    getOwnPropertyDescriptor(o, TAG) === undefined &&
    getOwnPropertyDescriptor(ObjectProto, TAG) === undefined &&
    rapply(objectToString, o, []) === '[object Object]';
  /** @param {unknown} o */
  const unwrappedExtra = (o) => (plainlyEmpty(o) ? 0 : isNumberObject(o) ? 22 : isBrand(boolValueOf, o) ? 3 : 0);

  /**
   * @param {unknown} value
   * @param {unknown} replacer
   * @param {unknown} space
   * @param {number} limit
   * @param {number} [maxDepth]
   * @returns {string | undefined | typeof OVER}
   */
  const stringifyWithin = (value, replacer, space, limit, maxDepth) => {
    const deepest = maxDepth === undefined ? Infinity : maxDepth;
    const fn = typeof replacer === 'function' ? replacer : undefined;
    const list = fn === undefined && isArray(replacer) ? propertyList(replacer) : undefined;
    const gap = gapOf(space);
    const indent = gap.length;
    if (fn === undefined && (value === null || (typeof value !== 'object' && typeof value !== 'bigint'))) {
      if (typeof value === 'string' && (value.length + 2 > limit || quotedLength(value) > limit)) return OVER;
      const json = rapply(nativeStringify, JSONObject, [value]);
      return json !== undefined && json.length > limit ? OVER : json;
    }
    const handler = list === undefined ? undefined : listed(list);
    // The container whose members are being written (top), and those enclosing it, saved by depth. Consecutive
    // members of one container, the common case, touch only these locals.
    /** @type {unknown} */
    let top;
    let topArray = false;
    let topMembers = 0;
    /** @type {unknown} */
    let topObject;
    let depth = -1;
    /** @type {ByDepth<unknown>} */
    const savedTop = { __proto__: null };
    /** @type {ByDepth<boolean>} */
    const savedArray = { __proto__: null };
    /** @type {ByDepth<number>} */
    const savedMembers = { __proto__: null };
    /** @type {ByDepth<unknown>} */
    const savedObject = { __proto__: null };
    let total = 0;
    let started = false;
    let over = false;
    let deep = false;
    const overflow = () => {
      over = true;
      throw new RangeErrorCtor('Invalid string length');
    };
    const close = () => {
      if (topMembers === 0 && !topArray && handler === undefined) {
        total += unwrappedExtra(topObject);
        if (total > limit) overflow();
      }
      depth--;
      if (depth >= 0) {
        top = savedTop[depth];
        topArray = savedArray[depth];
        topMembers = savedMembers[depth];
        topObject = savedObject[depth];
        savedTop[depth] = undefined;
        savedObject[depth] = undefined;
      } else {
        top = undefined;
        topObject = undefined;
      }
    };
    /** @type {(this: unknown, key: string, given: unknown) => unknown} */
    const counting = function (key, given) {
      const holder = this;
      let v = fn === undefined ? given : fnCall(fn, holder, key, given);
      if (holder !== top) {
        if (started) while (depth >= 0 && holder !== top) close();
        started = true;
      }
      let array = false;
      let raw = false;
      if (typeof v === 'object' && v !== null) {
        array = isArray(v);
        raw = !array && isRawJSON(v);
        // A primitive the serializer would take out of its wrapper, taken out here (once, as it would).
        if (!array && !raw && (handler !== undefined || fnCall(hasOwn, v, 'length'))) v = unwrapped(v, handler !== undefined);
      }
      // The length of v's own text (a container's brackets only); -1 when v is left out.
      let own = -1;
      let container;
      if (v === null) own = 4;
      else if (typeof v === 'string') {
        if (v.length + 2 > limit - total) overflow();
        own = quotedLength(v);
      } else if (typeof v === 'number') own = v - v === 0 ? `${v}`.length : 4;
      else if (typeof v === 'boolean') own = v ? 4 : 5;
      else if (typeof v === 'bigint')
        return v; // the serializer throws its TypeError
      else if (typeof v === 'object') {
        if (raw) own = v.rawJSON.length;
        else {
          own = 2;
          container = v;
          if (handler !== undefined && !array) v = new ProxyCtor({ __proto__: null, object: v }, handler);
        }
      }
      if (depth >= 0) {
        if (own < 0) {
          if (!topArray) return v;
          own = 4; // written as null
        }
        let n = own;
        if (topMembers > 0) n += 1;
        if (indent > 0) n += 1 + (depth + 1) * indent + (topMembers === 0 ? 1 + depth * indent : 0);
        if (!topArray) {
          if (key.length + 3 > limit - total) overflow();
          n += quotedLength(key) + (indent > 0 ? 2 : 1);
        }
        topMembers++;
        total += n;
      } else if (own >= 0) total += own;
      if (total > limit) overflow();
      if (container !== undefined) {
        if (depth >= 0) {
          savedTop[depth] = top;
          savedArray[depth] = topArray;
          savedMembers[depth] = topMembers;
          savedObject[depth] = topObject;
        }
        depth++;
        top = v;
        topArray = array;
        topMembers = 0;
        topObject = container;
        if (depth >= deepest) {
          deep = true;
          throw new RangeErrorCtor('Maximum nesting depth exceeded');
        }
      }
      return v;
    };
    try {
      const json = rapply(nativeStringify, JSONObject, [value, counting, gap]);
      // The last containers written are closed by no later call.
      while (depth >= 0) close();
      // A backstop that never fires while the count is right (the tests keep misses at 0).
      if (json !== undefined && json.length > limit) {
        stringifyWithin.misses++;
        return OVER;
      }
      return json;
    } catch (e) {
      if (over) return OVER;
      if (deep) return DEEP;
      throw e;
    }
  };
  stringifyWithin.OVER = OVER;
  stringifyWithin.DEEP = DEEP;
  stringifyWithin.misses = 0;
  return stringifyWithin;
}
