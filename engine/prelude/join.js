// The prelude guards on Array#join and toLocaleString, of arrays and typed arrays: a guard of guardResources
// (resources.js). Measured in a host process (its RSS, 64 MB isolate): Array#join of 30 × one 16 M-char string took
// 568 MB, result ok (480 M chars). The result is capped at MAX_BUILT_STRING (prelude-resources.ts).
/** @import { Accessor, Dict, Kit, Limits, NullProtoList, TypedArrayName, Value } from './types.js' */

/**
 * Installs the guard; `kit` holds what guardResources captured and shares (resources.js), `limits` the caps. Returns
 * what later guards use.
 * @param {Kit} kit
 * @param {Limits} limits
 */
export function guardJoin(kit, limits) {
  const { G, rapply, getOwnPropertyDescriptor, getPrototypeOf, freeze, TypeErrorCtor, replaceMethod, toText, toLength, S, tooBig } = kit;
  const MAX_BUILT = limits.maxBuiltString;
  // So do strings assembled from many parts in one step, and the parts can be one string shared many times (30 ×
  // a 16 M-character string joined: 480 M characters, result ok before this guard). join and toLocaleString, of
  // arrays and typed arrays, convert each element once, in order, as the builtin would, and add up the length they
  // would build; the original then joins the converted parts, a chunk at a time (a sparse array of 2^25 holes
  // joins without a part per hole held at once). A cyclic array joins as '' where it recurs, as in V8. Unlike V8,
  // which skips the holes of a sparse array, every index is visited (2^20 holes: under a second).
  const ObjectCtor = Object;
  // Null-prototype records: a setter the script puts on Array.prototype never sees (or keeps) these.
  /** @type {NullProtoList<Value>} */
  const joining = { __proto__: null, length: 0 };
  /** @param {Value} o */
  const inJoin = (o) => {
    for (let i = 0; i < joining.length; i++) if (joining[i] === o) return true;
    return false;
  };
  const arrayJoin = G.Array.prototype.join;
  const CHUNK = 4096;
  // The elements 0..n-1 of o, each turned into a string by convert (null and undefined: ''), sep between them.
  /**
   * @param {Value} o ToObject(this), or a typed array the builtin accepted
   * @param {number} n
   * @param {string} sep
   * @param {(v: NonNullable<Value>, locales: Value, options: Value) => string} convert
   * @param {Value} [locales]
   * @param {Value} [options]
   * @returns {string}
   */
  const joinElements = (o, n, sep, convert, locales, options) => {
    // The separators alone would pass the limit: refused at once, not after walking every hole.
    if (n > 1 && (n - 1) * sep.length > MAX_BUILT) throw tooBig();
    /** @type {NullProtoList<string>} */
    const chunk = { __proto__: null, length: 0 };
    /** @type {NullProtoList<string>} */
    const chunks = { __proto__: null, length: 0 };
    let total = 0;
    for (let i = 0; i < n; i++) {
      const v = /** @type {Dict} */ (o)[i];
      const part = v === undefined || v === null ? '' : convert(v, locales, options);
      total += (i > 0 ? sep.length : 0) + part.length;
      if (total > MAX_BUILT) throw tooBig();
      chunk[chunk.length++] = part;
      if (chunk.length === CHUNK) {
        chunks[chunks.length++] = rapply(arrayJoin, chunk, [sep]);
        chunk.length = 0;
      }
    }
    if (chunks.length === 0) return rapply(arrayJoin, chunk, [sep]);
    if (chunk.length > 0) chunks[chunks.length++] = rapply(arrayJoin, chunk, [sep]);
    return rapply(arrayJoin, chunks, [sep]);
  };
  // V8's join: an empty receiver, or one already being joined (a cycle), joins as ''.
  /** @type {typeof joinElements} */
  const cycleSafe = (o, n, sep, convert, locales, options) => {
    if (n === 0 || inJoin(o)) return '';
    joining[joining.length++] = o;
    try {
      return joinElements(o, n, sep, convert, locales, options);
    } finally {
      joining[--joining.length] = undefined;
    }
  };
  // ToObject(this) and LengthOfArrayLike, with V8's limit on the length and its messages.
  /** @param {Dict} o */
  const arrayLength = (o) => {
    // @ts-expect-error -- ToNumber of any value, as LengthOfArrayLike converts length (a Symbol throws): no type but any takes +.
    const n = toLength(+o.length);
    if (n > 4294967295) throw new TypeErrorCtor('Invalid array length');
    return n;
  };
  // Invoke(v, 'toLocaleString', locales, options), then ToString of what it returns, with V8's message.
  // V8's words for a value called as a function that is not one, where it names the value by its type.
  /** @type {Kit['notCallable']} */
  const notCallable = (f) =>
    new TypeErrorCtor(
      (f !== null && typeof f === 'object'
        ? 'object'
        : typeof f === 'string'
          ? 'string "' + f + '"'
          : typeof f === 'symbol' || f === undefined
            ? typeof f
            : typeof f + ' ' + toText(f)) + ' is not a function',
    );
  /**
   * @param {NonNullable<Value>} v
   * @param {Value} locales
   * @param {Value} options
   */
  const localeText = (v, locales, options) => {
    const f = v.toLocaleString;
    if (typeof f !== 'function') throw notCallable(f);
    return toText(rapply(f, v, [locales, options]));
  };
  const A = G.Array.prototype;
  const TA = getPrototypeOf(G.Uint8Array).prototype;
  // (%TypedArray%.prototype.length: V8's own accessor.)
  const taLength = /** @type {Accessor<number>} */ (getOwnPropertyDescriptor(TA, 'length')).get;
  const taJoin = TA.join;
  replaceMethod(A, 'join', 1, function (separator) {
    if (this === null || this === undefined) throw new TypeErrorCtor('Array.prototype.join called on null or undefined');
    const o = ObjectCtor(this);
    const n = arrayLength(o);
    const sep = separator === undefined ? ',' : toText(separator);
    return cycleSafe(o, n, sep, toText);
  });
  replaceMethod(A, 'toLocaleString', 0, function (locales, options) {
    if (this === null || this === undefined) throw new TypeErrorCtor('Cannot convert undefined or null to object');
    const o = ObjectCtor(this);
    return cycleSafe(o, arrayLength(o), ',', localeText, locales, options);
  });
  // A typed array's elements are numbers: what the widest of its type can print bounds the result at once. The
  // original checks the receiver (a typed array, not detached) and reads its length before it converts the
  // separator; the separator it is given is an object of ours whose conversion converts the script's, measures,
  // and, when the text could pass the limit, stops the original there (STOP) so the elements are joined here.
  const widest = {
    __proto__: null,
    Int8Array: 4,
    Uint8Array: 3,
    Uint8ClampedArray: 3,
    Int16Array: 6,
    Uint16Array: 5,
    Int32Array: 11,
    Uint32Array: 10,
    Float16Array: 24,
    Float32Array: 24,
    Float64Array: 24,
    BigInt64Array: 20,
    BigUint64Array: 20,
  };
  // (V8's own accessor, read of a receiver taLength accepted: a typed array's name.)
  const taTag = /** @type {Accessor<TypedArrayName>} */ (getOwnPropertyDescriptor(TA, Symbol.toStringTag)).get;
  const STOP = freeze({ __proto__: null });
  replaceMethod(TA, 'join', 1, function (separator) {
    const self = this;
    const stop = {
      __proto__: null,
      n: 0,
      sep: ',',
      toString() {
        stop.n = rapply(taLength, self, []);
        if (separator !== undefined) stop.sep = toText(separator);
        const width = widest[rapply(taTag, self, [])] ?? 24;
        if (stop.n * (width + stop.sep.length) > MAX_BUILT) throw STOP;
        return stop.sep;
      },
    };
    try {
      return rapply(taJoin, self, [stop]);
    } catch (e) {
      if (e !== STOP) throw e;
    }
    // Elements of a buffer detached meanwhile read as undefined: ''.
    return joinElements(self, stop.n, stop.sep, toText);
  });
  // toLocaleString has the same receiver checks as join: join's, stopped before its separator, with its name.
  const strIndexOfJ = S.indexOf;
  const strSliceJ = S.slice;
  const checkTypedArray = {
    __proto__: null,
    toString() {
      throw STOP;
    },
  };
  replaceMethod(TA, 'toLocaleString', 0, function (locales, options) {
    try {
      rapply(taJoin, this, [checkTypedArray]);
    } catch (e) {
      if (e !== STOP) {
        const message = e instanceof TypeErrorCtor ? e.message : undefined;
        const at = typeof message === 'string' ? rapply(strIndexOfJ, message, ['%TypedArray%.prototype.join']) : -1;
        if (at < 0) throw e;
        throw new TypeErrorCtor(rapply(strSliceJ, message, [0, at]) + '%TypedArray%.prototype.toLocaleString' + rapply(strSliceJ, message, [at + 27]));
      }
    }
    return joinElements(this, rapply(taLength, this, []), ',', localeText, locales, options);
  });

  return { __proto__: null, ObjectCtor, notCallable };
}
