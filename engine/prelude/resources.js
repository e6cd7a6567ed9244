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
// Still outside the guards: the script itself flattening a rope built by doubling (`s += s` 27 times, then
// s.indexOf: 256 MB), one huge array backing store (`new Array(2 ** 27).fill(0)`: 804 MB), and the V8 fatal errors
// of Map/Set/object-key growth (fixtures/scripts/hostile/fatal/). The engine ends each at the script's memory limit:
// from the heap a run left (engine/slot.ts), V8's own out-of-memory error, or the host process's memory cap.
import { guardIntl } from './intl.js';
import { guardGcCallbacks } from './gc-callbacks.js';
import { guardBuffers } from './buffers.js';
import { guardStringBuilders } from './string-builders.js';
import { guardJoin } from './join.js';
import { guardPercentEncoding } from './percent-encoding.js';
import { guardDynamicCode } from './dynamic-code.js';
import { guardRegExp } from './regexp.js';
import { guardReplace } from './replace.js';
/** @import { Kit, Limits, MethodBody, ResourceScope } from './types.js' */
/** @typedef {{ [key: string | symbol]: Function }} Methods An object literal of methods with computed names (TypeScript types one named by a string | symbol by its string index alone). */

/**
 * Run inside the prelude before anything else: `scope` gives G (globalThis), asNative, countLiterals, evalKit and
 * regExpSalt (core.js); `limits` the caps (MAX_BUILT_STRING, MAX_DYNAMIC_SOURCE, SALT_MIN_PATTERN in
 * prelude-resources.ts). It leaves nothing reachable but the guarded replacements. Every original it wraps is captured
 * here, so a script that tampers with prototypes later cannot unwrap or redirect them.
 * @param {ResourceScope} scope
 * @param {Limits} limits
 */
export function guardResources(scope, limits) {
  const { G, asNative, countLiterals, evalKit, regExpSalt } = scope;
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
  // A replacement constructor's prototype: the builtin's, non-writable as V8 has it. Assigned, then made read-only:
  // half what redefining the function's own prototype slot in one step costs (it runs in every context).
  /** @type {Kit['readOnlyPrototype']} */
  const readOnlyPrototype = (fn, proto) => {
    fn.prototype = proto;
    defineProperty(fn, 'prototype', { __proto__: null, writable: false });
  };
  /** @type {Kit['tooLong']} */
  const tooLong = (what, max) => new RangeErrorCtor(what + ': input longer than ' + max + ' characters is refused in the sandbox.');

  // A method named `name` calling fn, by its length: declared with that many parameters, its length needs no
  // redefining (this runs for every replaced method in every context).
  /** @type {((name: string | symbol, fn: MethodBody) => Function)[]} */
  const methodOfLength = [
    (name, fn) =>
      /** @type {Methods} */ ({
        [name]() {
          return rapply(fn, this, arguments);
        },
      })[name],
    (name, fn) =>
      /** @type {Methods} */ ({
        [name](/** @type {unknown} */ _a) {
          return rapply(fn, this, arguments);
        },
      })[name],
    (name, fn) =>
      /** @type {Methods} */ ({
        [name](/** @type {unknown} */ _a, /** @type {unknown} */ _b) {
          return rapply(fn, this, arguments);
        },
      })[name],
  ];
  // A method replaced by fn under the same name, with the given length; it prints as the builtin it replaces. A
  // builtin method's property is writable, configurable and not enumerable: assigning keeps those attributes.
  /** @type {Kit['replaceMethod']} */
  const replaceMethod = (owner, name, length, fn) => {
    const method =
      length < methodOfLength.length
        ? methodOfLength[length](name, fn)
        : /** @type {Methods} */ ({
            [name](/** @type {unknown[]} */ ...args) {
              return rapply(fn, this, args);
            },
          })[name];
    if (length >= methodOfLength.length) defineProperty(method, 'length', { __proto__: null, value: length, configurable: true });
    const before = getOwnPropertyDescriptor(owner, name);
    if (before !== undefined && typeof before.value === 'function' && before.writable) {
      asNative(method, before.value);
      // (A writable data property, checked above.)
      /** @type {Record<string | symbol, unknown>} */ (owner)[name] = method;
      return;
    }
    asNative(method, typeof name === 'string' ? name : '[' + name.description + ']');
    defineProperty(owner, name, { __proto__: null, value: method, writable: true, enumerable: false, configurable: true });
  };
  // A method replaced by a checked one with the same name and length; the original stays captured.
  /** @type {Kit['wrap']} */
  const wrap = (owner, name, check) => {
    const original = owner[name];
    if (typeof original !== 'function') return;
    replaceMethod(owner, name, original.length, function (...args) {
      return rapply(original, this, check(this, args));
    });
  };
  /** @type {Kit['text']} */
  const text = (v, what, max) => {
    const s = typeof v === 'string' ? v : StringCtor(v);
    if (s.length > max) throw tooLong(what, max);
    return s;
  };

  // Strings built in one step by a builtin land in V8's large-object space past the heap limit.
  // Every replacement here takes its arguments through the builtin's own steps, in the builtin's order, each
  // conversion once, checks the bound where its inputs are known, and hands the original only primitives, whose
  // conversion nobody can observe (test/engine/standard-strings.test.ts compares each with plain V8).
  /** @type {Kit['toText']} */
  const toText = (v) => (typeof v === 'string' ? v : `${v}`);
  const trunc = Math.trunc;
  const floor = Math.floor;
  // ToLength of a number (ToIntegerOrInfinity, clamped to [0, 2^53 - 1]).
  /** @type {Kit['toLength']} */
  const toLength = (n) => (n !== n || n <= 0 ? 0 : n >= 9007199254740991 ? 9007199254740991 : trunc(n));
  const S = G.String.prototype;
  // RequireObjectCoercible(this), then ToString(this), with V8's message.
  /** @type {Kit['receiverText']} */
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
  /** @type {Kit['printed']} */
  const printed = (o) => {
    try {
      rapply(mapGetS, o, [undefined]);
    } catch (e) {
      // (V8's TypeError: the receiver is not a Map.)
      const m = /** @type {TypeError} */ (e).message;
      const at = rapply(strIndexOfS, m, ['incompatible receiver ']);
      if (at >= 0) return rapply(strSliceS, m, [at + 22]);
    }
    return '#<Map>';
  };

  // What the guards below share, each taking what it uses: the originals captured above and the helpers.
  // (A Kit once the six members added below are there: before the guards that use them.)
  const kit = /** @type {Kit} */ ({
    __proto__: null,
    G,
    asNative,
    countLiterals,
    evalKit,
    regExpSalt,
    rapply,
    rconstruct,
    defineProperty,
    getOwnPropertyDescriptor,
    getPrototypeOf,
    setPrototypeOf,
    freeze,
    arrayFrom,
    StringCtor,
    RangeErrorCtor,
    TypeErrorCtor,
    readOnlyPrototype,
    tooLong,
    replaceMethod,
    wrap,
    text,
    toText,
    trunc,
    floor,
    toLength,
    S,
    receiverText,
    tooBig,
    strRepeat,
    mapGetS,
    strIndexOfS,
    strSliceS,
    printed,
  });
  guardGcCallbacks(kit);
  const { AB } = guardBuffers(kit);
  guardStringBuilders(kit, limits);
  const join = guardJoin(kit, limits);
  kit.ObjectCtor = join.ObjectCtor;
  kit.notCallable = join.notCallable;
  guardPercentEncoding(kit, limits);
  // ICU (Intl and the locale-aware string methods): inputs capped, what it holds charged (intl.js).
  guardIntl(
    {
      __proto__: null,
      G,
      rapply,
      rconstruct,
      defineProperty,
      getOwnPropertyDescriptor,
      getPrototypeOf,
      RangeErrorCtor,
      TypeErrorCtor,
      AB,
      tooLong,
      asNative,
      readOnlyPrototype,
    },
    limits,
  );
  guardDynamicCode(kit, limits);
  const regexp = guardRegExp(kit, limits);
  kit.isRegExp = regexp.isRegExp;
  kit.methodOf = regexp.methodOf;
  kit.reProto = regexp.reProto;
  kit.requireGlobal = regexp.requireGlobal;
  guardReplace(kit, limits);
}
