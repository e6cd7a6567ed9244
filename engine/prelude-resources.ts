// The in-isolate resource guards: a section of the prelude that closes the ways a script could allocate
// outside the isolate's 64 MB heap accounting, or leave work to run on another execution's time.
//
// Why here: isolated-vm counts the V8 heap and ArrayBuffer backing stores against `memoryLimit`, but when V8
// nears the heap limit it grants up to 1 GB more and only terminates at the next full GC, and ICU (Intl) and
// the parser allocate outside both. Each vector below was measured against the in-process pool (server RSS
// growth during one execution, 64 MB isolate; test/engine/resources.test.ts keeps the "after" bounds):
//   resizable ArrayBuffer, 4 × resize(2**28) + fill   1027 MB, result ok, memory held after the run  → refused
//   Intl.Segmenter#segment + containing, 8.4 M chars   211 MB, held after the run                     → input capped
//   (and the rest of ICU's: Intl objects kept or piled up, inputs of Intl and locale methods: prelude-intl.ts)
//   eval / new Function of a 7.8 MB object literal     219 MB, memory_limit                           → source capped
//   'x'.repeat(2 ** 28 - 100)                          512 MB for two, result ok                      → result capped
//   FinalizationRegistry callbacks over 200,000 objects: ran during the next execution on the isolate → removed
// and, measured in a host process (its RSS, 64 MB isolate):
//   Array#join of 30 × one 16 M-char string           568 MB, result ok (480 M chars)                → result capped
//   encodeURIComponent of 16 M "é"                     294 MB, result ok (100 M chars)                → result capped
//   JSON.stringify of 30 × one 16 M-char string       1.07–1.16 GB, ok or host killed                → counted first
//     (and a script's result, arguments and logs, which went through it uncounted: prelude-json.ts)
//   new RegExp of a 64 M-char source                   500 MB, result ok                              → source capped
//   new RegExp of 2^20 words joined by '|' (10 M chars) 893 MB, fatal out-of-memory, host died        → source capped
//   replace(/x/g, () => a 16 M-char string), 30 matches 572 MB, result ok (503 M chars)              → result capped
//   replace(/x/g, '$&' × 30) over 4 M matches          1179 MB, host killed at its memory cap          → result capped
//   throw of a 2^28-char rope / Error(rope) / console.log(rope)  857 / 600 / 346 MB                 → shown by length
//     (the engine's own reporting flattened the script's rope: prelude.ts `shown`)
// Still outside the guards (contained only by the host process's memory cap, issue 15 part A): the script itself
// flattening a rope built by doubling (`s += s` 27 times, then s.indexOf: 256 MB), one huge array backing store
// (`new Array(2 ** 27).fill(0)`: 804 MB), and the V8 fatal errors of Map/Set/object-key growth
// (fixtures/scripts/hostile/fatal/).
import { INTL_GUARDS, MAX_INTL_INPUT } from './prelude-intl.ts';
import { SPELLS_EVAL } from './direct-eval.ts';

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

/**
 * JavaScript evaluated inside the prelude's closure before anything else: expects `G` (globalThis) in scope
 * and leaves nothing reachable but the guarded replacements. Every original it wraps is captured here, so a
 * script that tampers with prototypes later cannot unwrap or redirect them.
 */
export const RESOURCE_GUARDS = `
  (function guardResources() {
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
    const ArrayBuffer = function ArrayBuffer(length) {
      if (new.target === undefined) throw new TypeErrorCtor("Constructor ArrayBuffer requires 'new'");
      return rconstruct(AB, [length], new.target);
    };
    asNative(ArrayBuffer, AB);
    defineProperty(ArrayBuffer, 'prototype', fixed(abProto));
    defineProperty(ArrayBuffer, 'isView', getOwnPropertyDescriptor(AB, 'isView'));
    defineProperty(ArrayBuffer, Symbol.species, getOwnPropertyDescriptor(AB, Symbol.species));
    defineProperty(abProto, 'constructor', { __proto__: null, value: ArrayBuffer, writable: true, enumerable: false, configurable: true });
    delete abProto.resize;
    delete abProto.resizable;
    delete abProto.maxByteLength;
    defineProperty(G, 'ArrayBuffer', { __proto__: null, value: ArrayBuffer, writable: true, enumerable: false, configurable: true });

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
    const S = G.String.prototype;
    const builtLength = (name) => (self, args) => {
      const s = text(self, 'String.prototype.' + name, MAX_BUILT);
      const n = name === 'repeat' ? s.length * +args[0] : +args[0];
      if (n > MAX_BUILT) throw new RangeErrorCtor('Invalid string length');
      return args;
    };
    wrap(S, 'repeat', builtLength('repeat'));
    wrap(S, 'padStart', builtLength('padStart'));
    wrap(S, 'padEnd', builtLength('padEnd'));

    // So do strings assembled from many parts in one step, and the parts can be one string shared many times (30 ×
    // a 16 M-character string joined: 480 M characters, result ok before this guard). join and toLocaleString, of
    // arrays and typed arrays, first convert each element once, in order, as the builtin would, and add up the
    // length they would build; the builtin then joins the converted parts. A cyclic array joins as '' where it
    // recurs, as in V8.
    const floor = Math.floor;
    const ObjectCtor = Object;
    // Null-prototype records: a setter the script puts on Array.prototype never sees (or keeps) these.
    const joining = { __proto__: null, length: 0 };
    const inJoin = (o) => { for (let i = 0; i < joining.length; i++) if (joining[i] === o) return true; return false; };
    const lengthOf = (o) => { const n = +o.length; return n > 0 ? floor(n) : 0; };
    const arrayJoin = G.Array.prototype.join;
    const tooBig = () => new RangeErrorCtor('Invalid string length');
    // The joined string of self's elements, each turned into a string by convert, sep between them.
    const joined = (self, what, sep, convert) => {
      if (self === null || self === undefined) throw new TypeErrorCtor(what + ' called on null or undefined');
      const o = ObjectCtor(self);
      if (inJoin(o)) return '';
      joining[joining.length++] = o;
      try {
        const n = lengthOf(o);
        // The separators alone would pass the limit: refused at once, as V8 does, not after walking every hole.
        if (n > 1 && (n - 1) * sep.length > MAX_BUILT) throw tooBig();
        const parts = { __proto__: null, length: 0 };
        let total = 0;
        for (let i = 0; i < n; i++) {
          const v = o[i];
          const part = v === undefined || v === null ? '' : convert(v);
          total += (i > 0 ? sep.length : 0) + part.length;
          if (total > MAX_BUILT) throw tooBig();
          parts[i] = part;
        }
        parts.length = n;
        return rapply(arrayJoin, parts, [sep]);
      } finally {
        joining[--joining.length] = undefined;
      }
    };
    const toText = (v) => (typeof v === 'string' ? v : \`\${v}\`);
    const A = G.Array.prototype;
    const TA = getPrototypeOf(G.Uint8Array).prototype;
    const taLength = getOwnPropertyDescriptor(TA, 'length').get;
    const taJoin = TA.join;
    replaceMethod(A, 'join', 1, function (separator) {
      const sep = separator === undefined ? ',' : toText(separator);
      return joined(this, 'Array.prototype.join', sep, toText);
    });
    const localized = (what) => function (locales, options) {
      return joined(this, what, ',', (v) => toText(v.toLocaleString(locales, options)));
    };
    replaceMethod(A, 'toLocaleString', 0, localized('Array.prototype.toLocaleString'));
    // A typed array's elements are numbers: what the widest of its type can print bounds the result at once.
    const widest = { __proto__: null, Int8Array: 4, Uint8Array: 3, Uint8ClampedArray: 3, Int16Array: 6, Uint16Array: 5,
      Int32Array: 11, Uint32Array: 10, Float16Array: 24, Float32Array: 24, Float64Array: 24, BigInt64Array: 20, BigUint64Array: 20 };
    const taTag = getOwnPropertyDescriptor(TA, Symbol.toStringTag).get;
    replaceMethod(TA, 'join', 1, function (separator) {
      const n = rapply(taLength, this, []);
      const sep = separator === undefined ? ',' : toText(separator);
      const width = widest[rapply(taTag, this, [])] ?? 24;
      if (n * (width + sep.length) <= MAX_BUILT) return rapply(taJoin, this, [sep]);
      return joined(this, '%TypedArray%.prototype.join', sep, toText);
    });
    const taLocalized = localized('%TypedArray%.prototype.toLocaleString');
    replaceMethod(TA, 'toLocaleString', 0, function (locales, options) {
      rapply(taLength, this, []); // a TypeError for anything but a typed array, as the builtin's
      return rapply(taLocalized, this, [locales, options]);
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
    for (const [name, escape] of [['encodeURI', false], ['encodeURIComponent', false], ['escape', true]]) {
      const original = G[name];
      if (typeof original !== 'function') continue;
      replaceMethod(G, name, 1, function (value) {
        const s = toText(value);
        if (s.length * (escape ? 6 : 9) > MAX_BUILT && encodedLength(s, escape) > MAX_BUILT) throw tooBig();
        return original(s);
      });
    }

    // ICU (Intl and the locale-aware string methods): inputs capped, what it holds charged (prelude-intl.ts).
${INTL_GUARDS}
    // Parsing a large source allocates outside the heap limit (isolated-vm lets eval through up to 8 MB: see the
    // README's measurements). The global eval is indirect: eval sees the global scope, not the caller's; a script's
    // own eval(...) calls stay direct, their argument checked first (the kit below, direct-eval.ts).
    // Every argument is converted first, in order, as the Function constructors do, then their total is checked.
    const codeString = (v) => (typeof v === 'string' ? v : \`\${v}\`);
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
      const reExecE = G.RegExp.prototype.exec;
      // Every spelling of the identifier eval (SPELLS_EVAL in direct-eval.ts): a string or a property that merely
      // says it matches too, which only costs that direct eval its scope.
      const namesEval = ${SPELLS_EVAL};
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
        return rapply(reExecE, namesEval, [x]) !== null ? later(x) : x;
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
    const salts = (p) => p.length >= ${SALT_MIN_PATTERN} && regExpSalt.value !== '';
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
    // What the constructor does with its arguments before it compiles, done once here so that the original receives
    // strings (or a RegExp object) and runs no script code a second time.
    const RegExp = function RegExp(pattern, flags) {
      const regExpLike = pattern !== null && (typeof pattern === 'object' || typeof pattern === 'function') && !!pattern[symMatch];
      if (new.target === undefined && regExpLike && flags === undefined && pattern.constructor === RegExp) return pattern;
      let p = pattern;
      let f = flags;
      if (isRegExp(pattern)) return rconstruct(RE, [pattern, flags], new.target === undefined ? RegExp : new.target);
      if (regExpLike) {
        p = pattern.source;
        if (flags === undefined) f = pattern.flags;
      }
      p = checkedSource(p === undefined ? '' : toText(p));
      if (f !== undefined) f = toText(f);
      return construct(p, f, new.target === undefined ? RegExp : new.target);
    };
    asNative(RegExp, RE);
    for (const key of Reflect.ownKeys(RE)) {
      if (key !== 'prototype' && key !== 'name' && key !== 'length') defineProperty(RegExp, key, getOwnPropertyDescriptor(RE, key));
    }
    defineProperty(RegExp, 'length', { __proto__: null, value: 2, configurable: true });
    defineProperty(RegExp, 'prototype', fixed(reProto));
    defineProperty(reProto, 'constructor', { __proto__: null, value: RegExp, writable: true, enumerable: false, configurable: true });
    defineProperty(G, 'RegExp', { __proto__: null, value: RegExp, writable: true, enumerable: false, configurable: true });
    defineProperty(reProto, 'source', { __proto__: null, enumerable: false, configurable: true,
      get: asNative(getOwnPropertyDescriptor({ get source() { return unsalt(rapply(sourceOf, this, [])); } }, 'source').get, sourceOf) });
    const reCompile = reProto.compile;
    replaceMethod(reProto, 'compile', 2, function (pattern, flags) {
      if (isRegExp(pattern)) return rapply(reCompile, this, [pattern, flags]);
      const p = checkedSource(pattern === undefined ? '' : toText(pattern));
      return compiled(p, (source) => rapply(reCompile, this, [source, flags]));
    });
    // match, matchAll and search compile a pattern given as anything but an object with the method of their symbol
    // (with the flags of RegExpCreate: none, or 'g' for matchAll); a long one is made here, salted, and used instead.
    for (const [name, symbol, flags] of [['match', Symbol.match, undefined], ['matchAll', Symbol.matchAll, 'g'], ['search', Symbol.search, undefined]]) {
      wrap(S, name, (self, args) => {
        const r = args[0];
        if (r === undefined || r === null || typeof r === 'symbol') return args;
        if ((typeof r === 'object' || typeof r === 'function') && r[symbol] != null) return args;
        args[0] = checkedSource(toText(r));
        if (salts(args[0])) args[0] = construct(args[0], flags, RE);
        return args;
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
        // (matched, ...captures, position, subject[, groups])
        const position = arguments[typeof arguments[n - 1] === 'string' ? n - 2 : n - 3];
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
    // GetSubstitution for a string pattern: only $$, $&, $\` and $' mean anything.
    const stringTemplate = (t) => {
      const parts = { __proto__: null, fixed: 0, match: 0, before: 0, after: 0 };
      for (let i = 0; i < t.length; i++) {
        const c = t[i] === '$' ? charAt(t, i + 1) : '';
        if (c === '$') { parts.fixed++; i++; } else if (c === '&') { parts.match++; i++; } else if (c === '\`') { parts.before++; i++; } else if (c === "'") { parts.after++; i++; } else parts.fixed++;
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
    for (const [name, all] of [['replace', false], ['replaceAll', true]]) {
      const original = S[name];
      replaceMethod(S, name, 2, function (searchValue, replaceValue) {
        if (this === null || this === undefined) throw new TypeErrorCtor('String.prototype.' + name + ' called on null or undefined');
        // A pattern with its own replace method (a RegExp) is its business: RegExp.prototype[Symbol.replace] is guarded.
        if (searchValue !== null && (typeof searchValue === 'object' || typeof searchValue === 'function') && searchValue[symReplace] != null) {
          return rapply(original, this, [searchValue, replaceValue]);
        }
        const subject = toText(this);
        const search = toText(searchValue);
        if (isCallable(replaceValue)) return rapply(original, subject, [search, counted(replaceValue, subject)]);
        const t = toText(replaceValue);
        const matches = !all ? 1 : search.length === 0 ? subject.length + 1 : floor(subject.length / search.length);
        if (worstCase(subject, t, matches, search.length) > MAX_BUILT) checkStringReplace(subject, search, t, all);
        return rapply(original, subject, [search, t]);
      });
    }
    // GetSubstitution for a regular expression, as a replacement function: the original then calls it per match.
    const expand = (t) => function (matched, ...rest) {
      const hasGroups = typeof rest[rest.length - 1] !== 'string';
      const groups = hasGroups ? rest[rest.length - 1] : undefined;
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
        else if (d === '\`') out += rapply(strSlice, subject, [0, position]);
        else if (d === "'") out += rapply(strSlice, subject, [position + matched.length]);
        else if (d >= '0' && d <= '9') {
          const e = charAt(t, at + 2);
          const two = e >= '0' && e <= '9' ? +(d + e) : 0;
          if (two >= 1 && two <= m) { out += capture(two); i = at + 3; }
          else if (+d >= 1 && +d <= m) out += capture(+d);
          else { out += '$'; i = at + 1; }
        } else if (d === '<' && groups !== undefined && rapply(strIndexOf, t, ['>', at + 2]) >= 0) {
          const close = rapply(strIndexOf, t, ['>', at + 2]);
          const v = ObjectCtor(groups)[rapply(strSlice, t, [at + 2, close])];
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
      const subject = toText(string);
      if (isCallable(replaceValue)) return rapply(reReplace, this, [subject, counted(replaceValue, subject)]);
      const t = toText(replaceValue);
      if (worstCase(subject, t, subject.length + 1, 0) <= MAX_BUILT && plainRegExp(this)) return rapply(reReplace, this, [subject, t]);
      return rapply(reReplace, this, [subject, counted(expand(t), subject)]);
    });
  })();
`.replaceAll('MAX_BUILT', String(MAX_BUILT_STRING)).replaceAll('MAX_INTL', String(MAX_INTL_INPUT)).replaceAll('MAX_CODE', String(MAX_DYNAMIC_SOURCE));
