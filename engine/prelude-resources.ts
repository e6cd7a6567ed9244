// The in-isolate resource guards: a section of the prelude that closes the ways a script could allocate
// outside the isolate's 64 MB heap accounting, or leave work to run on another execution's time.
//
// Why here: isolated-vm counts the V8 heap and ArrayBuffer backing stores against `memoryLimit`, but when V8
// nears the heap limit it grants up to 1 GB more and only terminates at the next full GC, and ICU (Intl) and
// the parser allocate outside both. Each vector below was measured against the in-process pool (server RSS
// growth during one execution, 64 MB isolate; test/engine/resources.test.ts keeps the "after" bounds):
//   resizable ArrayBuffer, 4 × resize(2**28) + fill   1027 MB, result ok, memory held after the run  → refused
//   Intl.Segmenter#segment + containing, 8.4 M chars   211 MB, held after the run                     → input capped
//   Intl.ListFormat#format, 200 × 1 M chars            1859 MB, "Script failed to terminate"          → input capped
//   Intl.Collator#compare, 2 × 128 M chars             413 MB, memory_limit                           → input capped
//   eval / new Function of a 7.8 MB object literal     219 MB, memory_limit                           → source capped
//   'x'.repeat(2 ** 28 - 100)                          512 MB for two, result ok                      → result capped
//   FinalizationRegistry callbacks over 200,000 objects: ran during the next execution on the isolate → removed
// Still outside the guards (contained only by the host process's memory cap, issue 15 part A): flattening a
// rope built by doubling (`s += s` 27 times, then s.indexOf: 256 MB), one huge array backing store
// (`new Array(2 ** 27).fill(0)`: 804 MB), and the V8 fatal errors of Map/Set/object-key growth
// (fixtures/scripts/hostile/fatal/).

/** Longest string the repeat/pad builtins may produce (16 M UTF-16 units: a quarter of the heap at most). */
export const MAX_BUILT_STRING = 1 << 24;
/** Longest input (UTF-16 units, summed over a list) an ICU-backed method accepts. */
export const MAX_INTL_INPUT = 1 << 20;
/** Longest source eval / the Function constructors accept: the default cap on a script's own source. */
export const MAX_DYNAMIC_SOURCE = 100 * 1024;

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

    // Resizable buffers reserve maxByteLength of address space and grow outside the allocator's limit.
    const AB = G.ArrayBuffer;
    const abProto = AB.prototype;
    const ArrayBuffer = function ArrayBuffer(length, options) {
      if (new.target === undefined) throw new TypeErrorCtor("Constructor ArrayBuffer requires 'new'");
      if (options !== null && (typeof options === 'object' || typeof options === 'function') && options.maxByteLength !== undefined) {
        throw new TypeErrorCtor('Resizable ArrayBuffers are not available in the sandbox.');
      }
      return rconstruct(AB, [length], new.target);
    };
    defineProperty(ArrayBuffer, 'prototype', fixed(abProto));
    defineProperty(ArrayBuffer, 'isView', fixed(AB.isView));
    defineProperty(ArrayBuffer, Symbol.species, getOwnPropertyDescriptor(AB, Symbol.species));
    defineProperty(abProto, 'constructor', fixed(ArrayBuffer));
    freeze(ArrayBuffer);
    defineProperty(G, 'ArrayBuffer', { __proto__: null, value: ArrayBuffer, writable: false, enumerable: false, configurable: false });

    // A method replaced by a checked one with the same name and length; the original stays captured.
    const wrap = (owner, name, check) => {
      const original = owner[name];
      if (typeof original !== 'function') return;
      const guarded = {
        [name](...args) {
          return rapply(original, this, check(this, args));
        },
      }[name];
      defineProperty(guarded, 'length', { __proto__: null, value: original.length, configurable: true });
      defineProperty(owner, name, { __proto__: null, value: guarded, writable: true, enumerable: false, configurable: true });
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

    // ICU copies and indexes its input outside the V8 heap: bound what reaches it.
    const receiver = (name) => (self, args) => {
      text(self, 'String.prototype.' + name, MAX_INTL);
      if (name === 'localeCompare') args[0] = text(args[0], 'String.prototype.localeCompare', MAX_INTL);
      return args;
    };
    wrap(S, 'normalize', receiver('normalize'));
    wrap(S, 'localeCompare', receiver('localeCompare'));
    wrap(S, 'toLocaleUpperCase', receiver('toLocaleUpperCase'));
    wrap(S, 'toLocaleLowerCase', receiver('toLocaleLowerCase'));
    const firstText = (what) => (self, args) => {
      if (args.length > 0 && args[0] !== undefined) args[0] = typeof args[0] === 'bigint' ? args[0] : text(args[0], what, MAX_INTL);
      return args;
    };
    const list = (what) => (self, args) => {
      if (args[0] === undefined) return args;
      const items = arrayFrom(args[0]);
      let total = 0;
      for (let i = 0; i < items.length; i++) {
        if (typeof items[i] === 'string') total += items[i].length;
        if (total > MAX_INTL) throw tooLong(what, MAX_INTL);
      }
      args[0] = items;
      return args;
    };
    const I = G.Intl;
    if (I) {
      if (I.Segmenter) wrap(I.Segmenter.prototype, 'segment', firstText('Intl.Segmenter.prototype.segment'));
      if (I.ListFormat) {
        wrap(I.ListFormat.prototype, 'format', list('Intl.ListFormat.prototype.format'));
        wrap(I.ListFormat.prototype, 'formatToParts', list('Intl.ListFormat.prototype.formatToParts'));
      }
      if (I.DisplayNames) wrap(I.DisplayNames.prototype, 'of', firstText('Intl.DisplayNames.prototype.of'));
      if (I.NumberFormat) {
        // format is a getter returning a bound function; formatRange and friends take strings too.
        const nf = I.NumberFormat.prototype;
        const getFormat = getOwnPropertyDescriptor(nf, 'format').get;
        defineProperty(nf, 'format', { __proto__: null, configurable: true, enumerable: false, get() {
          const bound = rapply(getFormat, this, []);
          return (v) => bound(typeof v === 'number' || typeof v === 'bigint' ? v : text(v, 'Intl.NumberFormat.prototype.format', MAX_INTL));
        } });
        wrap(nf, 'formatToParts', firstText('Intl.NumberFormat.prototype.formatToParts'));
      }
      if (I.Collator) {
        const getCompare = getOwnPropertyDescriptor(I.Collator.prototype, 'compare').get;
        defineProperty(I.Collator.prototype, 'compare', { __proto__: null, configurable: true, enumerable: false, get() {
          const bound = rapply(getCompare, this, []);
          return (a, b) => bound(text(a, 'Intl.Collator.prototype.compare', MAX_INTL), text(b, 'Intl.Collator.prototype.compare', MAX_INTL));
        } });
      }
    }

    // Parsing a large source allocates outside the heap limit (isolated-vm lets eval through up to 8 MB).
    // The replacements are indirect: eval sees the global scope, not the caller's.
    const codeText = (args, what) => {
      let total = 0;
      for (let i = 0; i < args.length; i++) {
        args[i] = text(args[i], what, MAX_CODE);
        total += args[i].length;
        if (total > MAX_CODE) throw tooLong(what, MAX_CODE);
      }
      return args;
    };
    const evalOriginal = G.eval;
    defineProperty(G, 'eval', { __proto__: null, writable: true, enumerable: false, configurable: true,
      value: { eval(x) { return typeof x === 'string' ? evalOriginal(codeText([x], 'eval')[0]) : x; } }.eval });
    const guardConstructor = (ctor, name) => {
      const guarded = function (...args) { return rconstruct(ctor, codeText(args, name), new.target === undefined ? ctor : new.target); };
      defineProperty(guarded, 'name', { __proto__: null, value: ctor.name, configurable: true });
      defineProperty(guarded, 'length', { __proto__: null, value: 1, configurable: true });
      defineProperty(guarded, 'prototype', fixed(ctor.prototype));
      defineProperty(ctor.prototype, 'constructor', fixed(guarded));
      freeze(guarded);
      return guarded;
    };
    defineProperty(G, 'Function', { __proto__: null, value: guardConstructor(G.Function, 'Function'), writable: true, enumerable: false, configurable: true });
    guardConstructor(getPrototypeOf(async function () {}).constructor, 'AsyncFunction');
    guardConstructor(getPrototypeOf(function* () {}).constructor, 'GeneratorFunction');
    guardConstructor(getPrototypeOf(async function* () {}).constructor, 'AsyncGeneratorFunction');
  })();
`.replaceAll('MAX_BUILT', String(MAX_BUILT_STRING)).replaceAll('MAX_INTL', String(MAX_INTL_INPUT)).replaceAll('MAX_CODE', String(MAX_DYNAMIC_SOURCE));
