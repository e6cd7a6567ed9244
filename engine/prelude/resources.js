// The in-isolate resource guards: a guard of the prelude (core.js) that closes the ways a script could allocate
// outside the isolate's 64 MB heap accounting, or leave work to run on another execution's time.
//
// Why here: isolated-vm counts the V8 heap and ArrayBuffer backing stores against `memoryLimit`, but when V8
// nears the heap limit it grants up to 1 GB more and only terminates at the next full GC, and ICU (Intl) and
// the parser allocate outside both. Each vector below was measured against the in-process pool (server RSS
// growth during one execution, 64 MB isolate; test/engine/resources.test.ts keeps the "after" bounds):
//   resizable ArrayBuffer, 4 × resize(2**28) + fill   1027 MB, result ok, memory held after the run  → refused
//   Intl.Segmenter#segment + containing, 8.4 M chars   211 MB, held after the run                     → input capped
//   (and the rest of ICU's: Intl objects kept or piled up, inputs of Intl and locale methods: intl.js)
//   eval / new Function of a 7.8 MB object literal     219 MB, memory_limit                           → source capped
//   'x'.repeat(2 ** 28 - 100)                          512 MB for two, result ok                      → result capped
//   FinalizationRegistry callbacks over 200,000 objects: ran during the next execution on the isolate → removed
// and, measured in a host process (its RSS, 64 MB isolate):
//   Array#join of 30 × one 16 M-char string           568 MB, result ok (480 M chars)                → result capped
//   encodeURIComponent of 16 M "é"                     294 MB, result ok (100 M chars)                → result capped
//   JSON.stringify of 30 × one 16 M-char string       1.07–1.16 GB, ok or host killed                → counted first
//     (and a script's result, arguments and logs, which went through it uncounted: json.js)
//   new RegExp of a 64 M-char source                   500 MB, result ok                              → source capped
//   new RegExp of 2^20 words joined by '|' (10 M chars) 893 MB, fatal out-of-memory, host died        → source capped
//   replace(/x/g, () => a 16 M-char string), 30 matches 572 MB, result ok (503 M chars)              → result capped
//   replace(/x/g, '$&' × 30) over 4 M matches          1179 MB, host killed at its memory cap          → result capped
//   throw of a 2^28-char rope / Error(rope) / console.log(rope)  857 / 600 / 346 MB                 → shown by length
//     (the engine's own reporting flattened the script's rope: core.js `shown`)
// Still outside the guards (contained only by the host process's memory cap): the script itself
// flattening a rope built by doubling (`s += s` 27 times, then s.indexOf: 256 MB), one huge array backing store
// (`new Array(2 ** 27).fill(0)`: 804 MB), and the V8 fatal errors of Map/Set/object-key growth
// (fixtures/scripts/hostile/fatal/).
import { guardIntl } from './intl.js';

/**
 * Run inside the prelude before anything else: `scope` gives G (globalThis), asNative, countLiterals, evalKit and
 * regExpSalt (core.js); `limits` the caps (MAX_BUILT_STRING, MAX_DYNAMIC_SOURCE, SALT_MIN_PATTERN in
 * prelude-resources.ts). It leaves nothing reachable but the guarded replacements. Every original it wraps is captured
 * here, so a script that tampers with prototypes later cannot unwrap or redirect them.
 */
export function guardResources(scope, limits) {
  const { G, asNative, countLiterals, evalKit, regExpSalt } = scope;
  const MAX_BUILT = limits.maxBuiltString;
  const MAX_CODE = limits.maxDynamicSource;
  const SALT_MIN_PATTERN = limits.saltMinPattern;
  const rapply = Reflect.apply;
  const rconstruct = Reflect.construct;
  const defineProperty = Object.defineProperty;
  const getOwnPropertyDescriptor = Object.getOwnPropertyDescriptor;
  const getPrototypeOf = Object.getPrototypeOf;
  const setPrototypeOf = Object.setPrototypeOf;
  const freeze = Object.freeze;
  const arrayFrom = Array.from;
  const StringCtor = String;
  const RangeErrorCtor = RangeError;
  const TypeErrorCtor = TypeError;
  const fixed = (value) => ({ __proto__: null, value, writable: false, enumerable: false, configurable: false });
  const tooLong = (what, max) => new RangeErrorCtor(what + ': input longer than ' + max + ' characters is refused in the sandbox.');

  // Work scheduled by the garbage collector would run during whichever execution next triggers a GC,
  // possibly another organization's; WeakRef makes GC timing observable. Neither is available.
  delete G.FinalizationRegistry;
  delete G.WeakRef;

  // Resizable buffers reserve maxByteLength of address space and grow outside the allocator's limit. They are
  // removed whole, as an engine without them has none: ArrayBuffer takes one argument and ignores a second (no
  // maxByteLength read), and the prototype has no resize, resizable or maxByteLength, so a script that checks
  // for them (or looks at what it built) sees plain buffers. transfer and slice of a plain buffer stay plain, and
  // SharedArrayBuffer (growable) is gone. The original constructor stays captured here, out of reach.
  const AB = G.ArrayBuffer;
  const abProto = AB.prototype;
  const ArrayBufferGuard = function ArrayBuffer(length) {
    if (new.target === undefined) throw new TypeErrorCtor("Constructor ArrayBuffer requires 'new'");
    return rconstruct(AB, [length], new.target);
  };
  asNative(ArrayBufferGuard, AB);
  defineProperty(ArrayBufferGuard, 'prototype', fixed(abProto));
  defineProperty(ArrayBufferGuard, 'isView', getOwnPropertyDescriptor(AB, 'isView'));
  defineProperty(ArrayBufferGuard, Symbol.species, getOwnPropertyDescriptor(AB, Symbol.species));
  defineProperty(abProto, 'constructor', { __proto__: null, value: ArrayBufferGuard, writable: true, enumerable: false, configurable: true });
  delete abProto.resize;
  delete abProto.resizable;
  delete abProto.maxByteLength;
  defineProperty(G, 'ArrayBuffer', { __proto__: null, value: ArrayBufferGuard, writable: true, enumerable: false, configurable: true });

  // A method replaced by fn under the same name, with the given length; it prints as the builtin it replaces.
  const replaceMethod = (owner, name, length, fn) => {
    const method = { [name](...args) { return rapply(fn, this, args); } }[name];
    const before = getOwnPropertyDescriptor(owner, name);
    asNative(method, before !== undefined && typeof before.value === 'function' ? before.value : typeof name === 'string' ? name : '[' + name.description + ']');
    defineProperty(method, 'length', { __proto__: null, value: length, configurable: true });
    defineProperty(owner, name, { __proto__: null, value: method, writable: true, enumerable: false, configurable: true });
  };
  // A method replaced by a checked one with the same name and length; the original stays captured.
  const wrap = (owner, name, check) => {
    const original = owner[name];
    if (typeof original !== 'function') return;
    replaceMethod(owner, name, original.length, function (...args) { return rapply(original, this, check(this, args)); });
  };
  const text = (v, what, max) => {
    const s = typeof v === 'string' ? v : StringCtor(v);
    if (s.length > max) throw tooLong(what, max);
    return s;
  };

  // Strings built in one step by a builtin land in V8's large-object space past the heap limit.
  // Every replacement here takes its arguments through the builtin's own steps, in the builtin's order, each
  // conversion once, checks the bound where its inputs are known, and hands the original only primitives, whose
  // conversion nobody can observe (test/engine/standard-strings.test.ts compares each with plain V8).
  const toText = (v) => (typeof v === 'string' ? v : `${v}`);
  const trunc = Math.trunc;
  const floor = Math.floor;
  // ToLength of a number (ToIntegerOrInfinity, clamped to [0, 2^53 - 1]).
  const toLength = (n) => (n !== n || n <= 0 ? 0 : n >= 9007199254740991 ? 9007199254740991 : trunc(n));
  const S = G.String.prototype;
  // RequireObjectCoercible(this), then ToString(this), with V8's message.
  const receiverText = (self, name) => {
    if (self === null || self === undefined) throw new TypeErrorCtor('String.prototype.' + name + ' called on null or undefined');
    return toText(self);
  };
  const tooBig = () => new RangeErrorCtor('Invalid string length');
  const strRepeat = S.repeat;
  const mapGetS = Map.prototype.get;
  const strIndexOfS = S.indexOf;
  const strSliceS = S.slice;
  // How V8 prints an object in a message, without running any of its code: as it names the receiver a method
  // refuses (Map.prototype.get refuses anything but a Map).
  const printed = (o) => {
    try { rapply(mapGetS, o, [undefined]); } catch (e) {
      const m = e.message;
      const at = rapply(strIndexOfS, m, ['incompatible receiver ']);
      if (at >= 0) return rapply(strSliceS, m, [at + 22]);
    }
    return '#<Map>';
  };
  replaceMethod(S, 'repeat', 1, function (count) {
    const s = receiverText(this, 'repeat');
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
  const padding = (name) => {
    const original = S[name];
    replaceMethod(S, name, 1, function (maxLength, fillString) {
      const s = receiverText(this, name);
      const n = toLength(+maxLength);
      if (n <= s.length) return s;
      const fill = fillString === undefined ? ' ' : toText(fillString);
      if (fill.length > 0 && n > MAX_BUILT) throw tooBig();
      return rapply(original, s, [n, fill]);
    });
  };
  padding('padStart');
  padding('padEnd');

  // So do strings assembled from many parts in one step, and the parts can be one string shared many times (30 ×
  // a 16 M-character string joined: 480 M characters, result ok before this guard). join and toLocaleString, of
  // arrays and typed arrays, convert each element once, in order, as the builtin would, and add up the length they
  // would build; the original then joins the converted parts, a chunk at a time (a sparse array of 2^25 holes
  // joins without a part per hole held at once). A cyclic array joins as '' where it recurs, as in V8. Unlike V8,
  // which skips the holes of a sparse array, every index is visited (2^20 holes: under a second).
  const ObjectCtor = Object;
  // Null-prototype records: a setter the script puts on Array.prototype never sees (or keeps) these.
  const joining = { __proto__: null, length: 0 };
  const inJoin = (o) => { for (let i = 0; i < joining.length; i++) if (joining[i] === o) return true; return false; };
  const arrayJoin = G.Array.prototype.join;
  const CHUNK = 4096;
  // The elements 0..n-1 of o, each turned into a string by convert (null and undefined: ''), sep between them.
  const joinElements = (o, n, sep, convert, locales, options) => {
    // The separators alone would pass the limit: refused at once, not after walking every hole.
    if (n > 1 && (n - 1) * sep.length > MAX_BUILT) throw tooBig();
    const chunk = { __proto__: null, length: 0 };
    const chunks = { __proto__: null, length: 0 };
    let total = 0;
    for (let i = 0; i < n; i++) {
      const v = o[i];
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
  const arrayLength = (o) => {
    const n = toLength(+o.length);
    if (n > 4294967295) throw new TypeErrorCtor('Invalid array length');
    return n;
  };
  // Invoke(v, 'toLocaleString', locales, options), then ToString of what it returns, with V8's message.
  // V8's words for a value called as a function that is not one, where it names the value by its type.
  const notCallable = (f) => new TypeErrorCtor((f !== null && typeof f === 'object' ? 'object' : typeof f === 'string' ? 'string "' + f + '"'
    : typeof f === 'symbol' || f === undefined ? typeof f : typeof f + ' ' + toText(f)) + ' is not a function');
  const localeText = (v, locales, options) => {
    const f = v.toLocaleString;
    if (typeof f !== 'function') throw notCallable(f);
    return toText(rapply(f, v, [locales, options]));
  };
  const A = G.Array.prototype;
  const TA = getPrototypeOf(G.Uint8Array).prototype;
  const taLength = getOwnPropertyDescriptor(TA, 'length').get;
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
  const widest = { __proto__: null, Int8Array: 4, Uint8Array: 3, Uint8ClampedArray: 3, Int16Array: 6, Uint16Array: 5,
    Int32Array: 11, Uint32Array: 10, Float16Array: 24, Float32Array: 24, Float64Array: 24, BigInt64Array: 20, BigUint64Array: 20 };
  const taTag = getOwnPropertyDescriptor(TA, Symbol.toStringTag).get;
  const STOP = freeze({ __proto__: null });
  replaceMethod(TA, 'join', 1, function (separator) {
    const self = this;
    const stop = { __proto__: null, n: 0, sep: ',', toString() {
      stop.n = rapply(taLength, self, []);
      if (separator !== undefined) stop.sep = toText(separator);
      const width = widest[rapply(taTag, self, [])] ?? 24;
      if (stop.n * (width + stop.sep.length) > MAX_BUILT) throw STOP;
      return stop.sep;
    } };
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
  const checkTypedArray = { __proto__: null, toString() { throw STOP; } };
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

  // Percent-encoding writes up to nine characters for one: an input that could pass the limit is measured first
  // (ASCII left as is or %XX, then %XX per UTF-8 byte; escape: %XX below 256, else %uXXXX).
  const strCharCodeAt = G.String.prototype.charCodeAt;
  const kept = (chars) => { const set = { __proto__: null }; for (let i = 0; i < chars.length; i++) set[rapply(strCharCodeAt, chars, [i])] = true; return set; };
  const alnum = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
  const keptByUri = kept(alnum + "-_.!~*'()");
  const keptByEscape = kept(alnum + '@*_+-./');
  const encodedLength = (s, escape) => {
    const keep = escape ? keptByEscape : keptByUri;
    let total = 0;
    for (let i = 0; i < s.length; i++) {
      const c = rapply(strCharCodeAt, s, [i]);
      total += keep[c] ? 1 : c < 128 || (escape && c < 256) ? 3 : escape || c < 2048 ? 6 : 9;
      if (total > MAX_BUILT) return total;
    }
    return total;
  };
  for (const [name, escape] of /** @type {[string, boolean][]} */ ([['encodeURI', false], ['encodeURIComponent', false], ['escape', true]])) {
    const original = G[name];
    if (typeof original !== 'function') continue;
    replaceMethod(G, name, 1, function (value) {
      const s = toText(value);
      if (s.length * (escape ? 6 : 9) > MAX_BUILT && encodedLength(s, escape) > MAX_BUILT) throw tooBig();
      return original(s);
    });
  }

  // ICU (Intl and the locale-aware string methods): inputs capped, what it holds charged (intl.js).
  guardIntl({ __proto__: null, G, rapply, rconstruct, defineProperty, getOwnPropertyDescriptor, getPrototypeOf, RangeErrorCtor, TypeErrorCtor, AB, tooLong, asNative }, limits);
  // Parsing a large source allocates outside the heap limit (isolated-vm lets eval through up to 8 MB: see the
  // README's measurements). The global eval is indirect: eval sees the global scope, not the caller's; a script's
  // own eval(...) calls stay direct, their argument checked first (the kit below, direct-eval.ts).
  // Every argument is converted first, in order, as the Function constructors do, then their total is checked.
  const codeString = (v) => (typeof v === 'string' ? v : `${v}`);
  const codeText = (args, what) => {
    let total = 0;
    for (let i = 0; i < args.length; i++) args[i] = codeString(args[i]);
    for (let i = 0; i < args.length; i++) {
      total += args[i].length;
      if (total > MAX_CODE) throw tooLong(what, MAX_CODE);
    }
    countLiterals(args);
    return args;
  };
  const evalOriginal = G.eval;
  defineProperty(G, 'eval', { __proto__: null, writable: true, enumerable: false, configurable: true,
    value: asNative({ eval(x) { return typeof x === 'string' ? evalOriginal(codeText([x], 'eval')[0]) : x; } }.eval, evalOriginal) });
  // A script's own direct evals (engine/direct-eval.ts): each call site's first argument goes through evalSource
  // after V8 read the callee, before it compiles. A source over the cap is refused as eval refuses it; one that could
  // name the bound eval (it spells eval, in letters or escapes), and any argument once the
  // script replaced the global eval, is left to __sandboxEvalIndirect(n): the source the direct eval then runs is
  // that one call, which evaluates it indirectly (or calls the script's eval with it, as V8 would have).
  {
    const guardedEval = G.eval;
    const MapCtor = Map;
    const mapGetE = Map.prototype.get;
    const mapSetE = Map.prototype.set;
    const mapDeleteE = Map.prototype.delete;
    const indexOfE = G.String.prototype.indexOf;
    const charCodeAtE = G.String.prototype.charCodeAt;
    // Part of an identifier, as SPELLS_EVAL's boundaries count it: [A-Za-z0-9_$].
    const wordChar = (c) => (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95 || c === 36;
    const hexValue = (c) => (c >= 48 && c <= 57) ? c - 48 : (c >= 65 && c <= 70) ? c - 55 : (c >= 97 && c <= 102) ? c - 87 : -1;
    // The index after the letter code at index at, written as itself or as a unicode escape (\uXXXX, \u{X…}), or -1.
    const letterEnd = (x, at, code) => {
      const c = rapply(charCodeAtE, x, [at]);
      if (c === code) return at + 1;
      if (c !== 92 || rapply(charCodeAtE, x, [at + 1]) !== 117) return -1;
      let value = 0;
      if (rapply(charCodeAtE, x, [at + 2]) === 123) {
        let i = at + 3;
        for (let h; (h = hexValue(rapply(charCodeAtE, x, [i]))) !== -1 && value <= code; i++) value = value * 16 + h;
        return value === code && rapply(charCodeAtE, x, [i]) === 125 ? i + 1 : -1;
      }
      for (let i = at + 2; i < at + 6; i++) {
        const h = hexValue(rapply(charCodeAtE, x, [i]));
        if (h === -1) return -1;
        value = value * 16 + h;
      }
      return value === code ? at + 6 : -1;
    };
    const spellsEvalAt = (x, at) => {
      if (at > 0 && wordChar(rapply(charCodeAtE, x, [at - 1]))) return false;
      // e, v, a, l (no array iteration: the script may have replaced Array.prototype[Symbol.iterator]).
      let i = letterEnd(x, at, 101);
      if (i !== -1) i = letterEnd(x, i, 118);
      if (i !== -1) i = letterEnd(x, i, 97);
      if (i !== -1) i = letterEnd(x, i, 108);
      return i !== -1 && (i === x.length || !wordChar(rapply(charCodeAtE, x, [i])));
    };
    // Whether a source may name eval, in letters or escapes (a string or a property that merely says it counts too,
    // which only costs that direct eval its scope): SPELLS_EVAL in direct-eval.ts, asked without a regular
    // expression, since a match would change the script's RegExp.lastMatch and the other legacy statics.
    const namesEval = (x) => {
      if (rapply(indexOfE, x, ['\\u']) !== -1) {
        for (let at = 0; at < x.length; at++) if (spellsEvalAt(x, at)) return true;
        return false;
      }
      for (let at = rapply(indexOfE, x, ['eval']); at !== -1; at = rapply(indexOfE, x, ['eval', at + 1])) {
        if (spellsEvalAt(x, at)) return true;
      }
      return false;
    };
    let tickets = new MapCtor();
    let ticket = 0;
    const later = (x) => {
      ticket++;
      rapply(mapSetE, tickets, [ticket, x]);
      return '__sandboxEvalIndirect(' + ticket + ')';
    };
    const evalSource = (x) => {
      if (G.eval !== guardedEval) return later(x);
      if (typeof x !== 'string') return x;
      codeText([x], 'eval');
      return namesEval(x) ? later(x) : x;
    };
    const evalIndirect = (n) => {
      const x = rapply(mapGetE, tickets, [n]);
      rapply(mapDeleteE, tickets, [n]);
      const current = G.eval;
      return current === guardedEval ? (typeof x === 'string' ? evalOriginal(x) : x) : current(x);
    };
    evalKit.parts = freeze([evalOriginal, evalSource, () => G.eval, evalIndirect]);
    evalKit.reset = () => { tickets = new MapCtor(); ticket = 0; };
  }
  // Each constructor as V8 has it: length 1, its name, its prototype (non-writable), the prototype's constructor
  // with the original's attributes, and AsyncFunction, GeneratorFunction and AsyncGeneratorFunction inheriting
  // from Function.
  const guardConstructor = (ctor, parent) => {
    const name = ctor.name;
    const guarded = function (...args) { return rconstruct(ctor, codeText(args, name), new.target === undefined ? guarded : new.target); };
    asNative(guarded, ctor);
    defineProperty(guarded, 'length', { __proto__: null, value: 1, configurable: true });
    defineProperty(guarded, 'name', { __proto__: null, value: name, configurable: true });
    defineProperty(guarded, 'prototype', fixed(ctor.prototype));
    const constructor = getOwnPropertyDescriptor(ctor.prototype, 'constructor');
    constructor.value = guarded;
    defineProperty(ctor.prototype, 'constructor', constructor);
    if (parent !== undefined) setPrototypeOf(guarded, parent);
    return guarded;
  };
  const FunctionGuarded = guardConstructor(G.Function);
  defineProperty(G, 'Function', { __proto__: null, value: FunctionGuarded, writable: true, enumerable: false, configurable: true });
  guardConstructor(getPrototypeOf(async function () {}).constructor, FunctionGuarded);
  guardConstructor(getPrototypeOf(function* () {}).constructor, FunctionGuarded);
  guardConstructor(getPrototypeOf(async function* () {}).constructor, FunctionGuarded);

  // A regular expression is code too: parsing and compiling one takes about 128 bytes per source character
  // outside the heap (a 10 M-character alternation ended a host process in a fatal out-of-memory error). Every
  // way a script can have a source compiled gets the eval limit: the constructor, compile, and the string methods
  // that build one from a string. A RegExp object as the pattern keeps its source, which was checked when it was
  // made (and literals are part of the script, whose own size is capped).
  const RE = G.RegExp;
  const reProto = RE.prototype;
  const sourceOf = getOwnPropertyDescriptor(reProto, 'source').get;
  const SyntaxErrorCtor = SyntaxError;
  // A brand check (the source getter throws for anything but a RegExp), paid only by objects.
  const isRegExp = (v) => {
    if (v === null || typeof v !== 'object' || v === reProto) return false;
    try { rapply(sourceOf, v, []); return true; } catch (_) { return false; }
  };
  const symMatch = Symbol.match;
  const checkedSource = (p) => {
    if (p.length > MAX_CODE) throw new SyntaxErrorCtor('Invalid regular expression: a source longer than ' + MAX_CODE + ' characters is refused in the sandbox.');
    return p;
  };
  // The organization's prefix for long patterns (SALT_MIN_PATTERN in prelude-resources.ts), set by each execution.
  const salts = (p) => p.length >= SALT_MIN_PATTERN && regExpSalt.value !== '';
  const salted = (p) => (salts(p) ? regExpSalt.value + p : p);
  const strStartsWith = String.prototype.startsWith;
  const strSliceR = String.prototype.slice;
  // What a regular expression shows of its pattern (its source getter): without the prefix.
  const unsalt = (source) => {
    const salt = regExpSalt.value;
    return salt !== '' && rapply(strStartsWith, source, [salt]) ? rapply(strSliceR, source, [salt.length]) : source;
  };
  // Compiles a checked pattern string, salted when long. A salted pattern is invalid exactly when the pattern is:
  // V8's own error for it comes from compiling it as given (an invalid pattern is never cached).
  const compiled = (p, compile) => {
    const s = salted(p);
    if (s === p) return compile(p);
    try { return compile(s); } catch (_) { return compile(p); }
  };
  const construct = (p, f, nt) => compiled(p, (source) => rconstruct(RE, [source, f], nt));
  // The flags a RegExp was made with ([[OriginalFlags]]), read through the builtin flag getters, which nobody can
  // observe, in the order V8's flags getter writes them.
  const flagLetters = { __proto__: null, length: 0 };
  const flagReaders = { __proto__: null, length: 0 };
  for (const [letter, name] of [['d', 'hasIndices'], ['g', 'global'], ['i', 'ignoreCase'], ['m', 'multiline'], ['s', 'dotAll'], ['u', 'unicode'], ['v', 'unicodeSets'], ['y', 'sticky']]) {
    const d = getOwnPropertyDescriptor(reProto, name);
    if (d !== undefined && typeof d.get === 'function') { flagLetters[flagLetters.length++] = letter; flagReaders[flagReaders.length++] = d.get; }
  }
  const originalFlags = (rx) => {
    let f = '';
    for (let i = 0; i < flagReaders.length; i++) if (rapply(flagReaders[i], rx, [])) f += flagLetters[i];
    return f;
  };
  // IsRegExp: Symbol.match when the object has one, its brand otherwise.
  const isRegExpLike = (v) => {
    if (v === null || (typeof v !== 'object' && typeof v !== 'function')) return false;
    const m = v[symMatch];
    return m !== undefined ? !!m : isRegExp(v);
  };
  // What RegExpAlloc reads of newTarget (its prototype) V8 reads once, before the pattern is converted. Called
  // with new, the replacement has had it read already for its own `this`, whose prototype is what was read; only
  // when that is Object.prototype (also what a non-object prototype gives `this`) is it read again to tell them
  // apart. The constructor's own prototype cannot be observed: the original is the new target then (its objects
  // keep V8's fast map); any other new target is stood for by alloc, given the prototype.
  const ObjectProto = Object.prototype;
  const alloc = function () {};
  const allocFor = (nt, self) => {
    if (nt === RegExpGuard || nt === RE) return RE;
    let proto = getPrototypeOf(self);
    if (proto === ObjectProto) {
      const p = nt.prototype;
      proto = p !== null && (typeof p === 'object' || typeof p === 'function') ? p : reProto;
    }
    alloc.prototype = proto;
    return alloc;
  };
  // The constructor's steps (IsRegExp, the same-constructor shortcut, the pattern's source and flags), done once
  // here, so that the original receives strings and runs no script code a second time; a RegExp pattern's source
  // was checked when it was made.
  const RegExpGuard = function RegExp(pattern, flags) {
    const patternIsRegExp = isRegExpLike(pattern);
    if (new.target === undefined && patternIsRegExp && flags === undefined && pattern.constructor === RegExp) return pattern;
    const nt = new.target === undefined ? RegExp : new.target;
    if (isRegExp(pattern)) {
      return rconstruct(RE, [rapply(sourceOf, pattern, []), flags === undefined ? originalFlags(pattern) : flags], allocFor(nt, this));
    }
    let p = pattern;
    let f = flags;
    if (patternIsRegExp) {
      p = pattern.source;
      if (flags === undefined) f = pattern.flags;
    }
    const target = allocFor(nt, this);
    p = p === undefined ? '' : toText(p);
    if (f !== undefined) f = toText(f);
    return construct(checkedSource(p), f, target);
  };
  asNative(RegExpGuard, RE);
  for (const key of Reflect.ownKeys(RE)) {
    if (key !== 'prototype' && key !== 'name' && key !== 'length') defineProperty(RegExpGuard, key, getOwnPropertyDescriptor(RE, key));
  }
  defineProperty(RegExpGuard, 'length', { __proto__: null, value: 2, configurable: true });
  defineProperty(RegExpGuard, 'prototype', fixed(reProto));
  defineProperty(reProto, 'constructor', { __proto__: null, value: RegExpGuard, writable: true, enumerable: false, configurable: true });
  defineProperty(G, 'RegExp', { __proto__: null, value: RegExpGuard, writable: true, enumerable: false, configurable: true });
  defineProperty(reProto, 'source', { __proto__: null, enumerable: false, configurable: true,
    get: asNative(getOwnPropertyDescriptor({ get source() { return unsalt(rapply(sourceOf, this, [])); } }, 'source').get, sourceOf) });
  const reCompile = reProto.compile;
  // Annex B's compile: the receiver is checked first (the original throws for anything but a RegExp before it
  // reads its arguments), then the pattern and flags are converted once, in order.
  replaceMethod(reProto, 'compile', 2, function (pattern, flags) {
    if (!isRegExp(this) || isRegExp(pattern)) return rapply(reCompile, this, [pattern, flags]);
    const p = pattern === undefined ? '' : toText(pattern);
    const f = flags === undefined ? undefined : toText(flags);
    return compiled(checkedSource(p), (source) => rapply(reCompile, this, [source, f]));
  });
  // GetMethod, with V8's message for a value that is not callable.
  // What V8 prints of a value in a message, without running any of its code.
  const printedValue = (v) => (v !== null && (typeof v === 'object' || typeof v === 'function') ? printed(v) : typeof v === 'symbol' ? StringCtor(v) : toText(v));
  const methodOf = (v, key, what) => {
    const f = v[key];
    if (f === undefined || f === null) return undefined;
    if (typeof f !== 'function') {
      throw what === undefined ? notCallable(f) : new TypeErrorCtor("'" + printedValue(f) + "' returned for property '" + what + "' of object '" + printedValue(v) + "' is not a function");
    }
    return f;
  };
  const strIncludes = S.includes;
  // matchAll and replaceAll refuse a RegExp (by IsRegExp) without the g flag, before they look for its method.
  const requireGlobal = (rx, name) => {
    if (!isRegExpLike(rx)) return;
    const flags = rx.flags;
    if (flags === undefined || flags === null) {
      throw new TypeErrorCtor(name === 'matchAll' ? 'The .flags property of the argument to String.prototype.matchAll cannot be null or undefined' : 'String.prototype.' + name + ' called on null or undefined');
    }
    if (!rapply(strIncludes, toText(flags), ['g'])) throw new TypeErrorCtor('String.prototype.' + name + ' called with a non-global RegExp argument');
  };
  // match, matchAll and search call the method of their symbol on anything but undefined or null that has one;
  // otherwise they make a RegExp of the pattern (RegExpCreate, with no flags or 'g' for matchAll), here, checked
  // and salted when long, and invoke that method on it, as the original would.
  for (const [name, symbol, flags] of /** @type {[string, symbol, string | undefined][]} */ ([['match', Symbol.match, undefined], ['matchAll', Symbol.matchAll, 'g'], ['search', Symbol.search, undefined]])) {
    // V8 words a method that is not callable one way for matchAll, another for match and search.
    const what = name === 'matchAll' ? undefined : name === 'match' ? 'Symbol(Symbol.match)' : 'Symbol(Symbol.search)';
    replaceMethod(S, name, 1, function (regexp) {
      if (this === null || this === undefined) throw new TypeErrorCtor('String.prototype.' + name + ' called on null or undefined');
      if (regexp !== undefined && regexp !== null) {
        if (name === 'matchAll') requireGlobal(regexp, name);
        const method = methodOf(regexp, symbol, what);
        if (method !== undefined) return rapply(method, regexp, [this]);
      }
      const s = toText(this);
      const rx = construct(checkedSource(regexp === undefined ? '' : toText(regexp)), flags, RE);
      return rx[symbol](s);
    });
  }

  // Symbol.split and Symbol.matchAll make their matcher with the receiver's species constructor, which is the
  // original RegExp, uncapped, when the receiver has no constructor or the constructor no species: the source of a
  // RegExp-like object would be compiled whatever its length (130 KB in the sandbox before this). A real RegExp's
  // source was checked when it was made. Any other receiver reaches the original through a stand-in of ours that
  // reads each property from it where the original would (constructor, its species, flags, lastIndex), and whose
  // species makes the matcher from the receiver itself, with this RegExp in place of the original.
  const symSpecies = Symbol.species;
  const ProxyCtor = Proxy;
  const probeConstruct = { __proto__: null, construct: () => probeConstruct };
  const isConstructor = (f) => {
    if (f === null || (typeof f !== 'object' && typeof f !== 'function')) return false;
    try { new (new ProxyCtor(f, probeConstruct))(); return true; } catch (_) { return false; }
  };
  for (const symbol of [Symbol.split, Symbol.matchAll]) {
    const original = reProto[symbol];
    replaceMethod(reProto, symbol, original.length, function (string, limit) {
      const rx = this;
      if (rx === null || (typeof rx !== 'object' && typeof rx !== 'function') || isRegExp(rx)) return rapply(original, rx, [string, limit]);
      let ctor;
      let maker;
      const make = function (_, flags) { return rconstruct(maker, [rx, flags]); };
      const species = { __proto__: null, get [symSpecies]() {
        const s = ctor === undefined ? undefined : ctor[symSpecies];
        if (s === undefined || s === null) maker = RegExpGuard;
        else if (isConstructor(s)) maker = s;
        else throw new TypeErrorCtor('object.constructor[Symbol.species] is not a constructor');
        return make;
      } };
      const standIn = { __proto__: null,
        get constructor() {
          ctor = rx.constructor;
          if (ctor !== undefined && (ctor === null || (typeof ctor !== 'object' && typeof ctor !== 'function'))) throw new TypeErrorCtor('The .constructor property is not an object');
          return species;
        },
        get flags() { return rx.flags; },
        get lastIndex() { return rx.lastIndex; },
      };
      return rapply(original, standIn, [string, limit]);
    });
  }

  // Replacing builds its result in one step too, and a replacement can be much longer than what it replaces: a
  // function returning one 16 M-character string for 30 matches gave 480 M characters (result ok), and '$&' 30
  // times over 4 M matches took a host past its memory cap. A replacement function is wrapped to add up what it
  // returns; a template is measured when its worst case could pass the limit: exactly, match by match, for a
  // string pattern, and by expanding it in our own function (GetSubstitution's rules) for a regular expression.
  const strIndexOf = S.indexOf;
  const strSlice = S.slice;
  const isCallable = (f) => typeof f === 'function';
  const toObject = (v) => {
    if (v === null || v === undefined) throw new TypeErrorCtor('Cannot convert undefined or null to object');
    return ObjectCtor(v);
  };
  const symReplace = Symbol.replace;
  // The character at i, or '' past the end (an index past the end would be looked up on String.prototype).
  const charAt = (t, i) => (i < t.length ? t[i] : '');
  // A function that replaces as fn would and throws once the result would pass the limit. It adds up the result
  // as the original assembles it: a match is used only if it starts at or after the end of the last one used, and
  // the text between them is kept. (An exec of the script's own may return any matched string at any position;
  // subtracting what each match removes would let skipped matches cancel what others add.)
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
  const dollars = (t) => { let n = 0; for (let i = rapply(strIndexOf, t, ['$']); i >= 0; i = rapply(strIndexOf, t, ['$', i + 1])) n++; return n; };
  // Upper bound of a replacement's length: each '$' may stand for at most the whole subject.
  const worstCase = (subject, t, matches, searched) => subject.length + matches * (t.length + dollars(t) * subject.length - searched);
  // GetSubstitution for a string pattern: only $$, $&, $` and $' mean anything.
  const stringTemplate = (t) => {
    const parts = { __proto__: null, fixed: 0, match: 0, before: 0, after: 0 };
    for (let i = 0; i < t.length; i++) {
      const c = t[i] === '$' ? charAt(t, i + 1) : '';
      if (c === '$') { parts.fixed++; i++; } else if (c === '&') { parts.match++; i++; } else if (c === '`') { parts.before++; i++; } else if (c === "'") { parts.after++; i++; } else parts.fixed++;
    }
    return parts;
  };
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
  const searchText = { __proto__: null, [symReplace]: undefined, value: '', toString() { return searchText.value; } };
  const searchFor = (search) => { searchText.value = search; return searchText; };
  for (const [name, all] of /** @type {[string, boolean][]} */ ([['replace', false], ['replaceAll', true]])) {
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
  const expand = (t) => function (matched, ...rest) {
    // The position is the only number among the arguments; groups, when there, come after the subject and are
    // converted to an object as GetSubstitution's caller does (null: a TypeError), once per match.
    const hasGroups = typeof rest[rest.length - 2] !== 'number';
    const groups = hasGroups ? toObject(rest[rest.length - 1]) : undefined;
    const m = rest.length - (hasGroups ? 3 : 2);
    const position = rest[m];
    const subject = rest[m + 1];
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
        if (two >= 1 && two <= m) { out += capture(two); i = at + 3; }
        else if (+d >= 1 && +d <= m) out += capture(+d);
        else { out += '$'; i = at + 1; }
      } else if (d === '<' && groups !== undefined && rapply(strIndexOf, t, ['>', at + 2]) >= 0) {
        const close = rapply(strIndexOf, t, ['>', at + 2]);
        const v = groups[rapply(strSlice, t, [at + 2, close])];
        out += v === undefined ? '' : toText(v);
        i = close + 1;
      } else { out += '$'; i = at + 1; }
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
  const flagNames = { __proto__: null, length: 0 };
  const flagGetters = { __proto__: null };
  for (const name of ['flags', 'hasIndices', 'global', 'ignoreCase', 'multiline', 'dotAll', 'unicode', 'unicodeSets', 'sticky']) {
    const d = getOwnPropertyDescriptor(reProto, name);
    if (d !== undefined && typeof d.get === 'function') { flagNames[flagNames.length++] = name; flagGetters[name] = d.get; }
  }
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
