// The prelude's guards on ICU, the library behind Intl and the locale-aware string methods. ICU keeps its state
// outside the V8 heap, where neither V8's heap limit nor isolated-vm's memory limit sees it, and V8 tells its
// garbage collector nothing of it (a formatter's off-heap part is "size 0" to V8): a script could hold or pile up
// ICU memory far past the isolate's limit. Measured in a host process (its RSS, 64 MB isolate):
//   Intl.ListFormat#format, 200 × 1 M chars          1859 MB, "Script failed to terminate"  → input capped (2^20)
//   Intl.Collator#compare, 2 × 128 M chars           413 MB, memory_limit                   → input capped
//   200,000 Intl.DateTimeFormat kept in an array      host killed at its memory cap           → charged
//   300,000 Intl.DateTimeFormat made and dropped      1009 MB in 5 s (no GC ever ran)         → charged
//   2,000 × Intl.Segmenter#segment of 1 M chars       host killed (each holds a 2 MB copy)    → charged
//   Date#toLocaleString(locale, options) in a loop    163-370 MB in 5 s (a formatter per call) → charged
//   Intl.v8BreakIterator#adoptText of 16 M chars      host killed (non-standard, unguarded)   → removed
// A charge is a ballast ArrayBuffer the size of what ICU holds (measured per kind), tied to the object in a WeakMap:
// isolated-vm counts it against the memory limit, so a script holding too much gets a RangeError, and it dies with
// its object, so garbage formatters make the collector run (isolated-vm collects before refusing an allocation) and
// free their ICU part with the ballast. A call that makes a throwaway formatter (toLocaleString with options, say)
// allocates a young heap array of that size instead, which brings the next scavenge (and the formatter's end) closer.
// Measured costs (isolate CPU, 2nd percentile of 1,500 contexts, on a loaded 2-core machine): every guard installs
// with the prelude, in every context, since a builtin must be what V8 has from its first read (an accessor that
// installed on first use was not): the prelude's run went from 198 to 256 us, about 45 of it the ten constructors
// and 15 their prototypes' guards (constructors as Proxies would save 14 us, but V8's messages would then name an
// Intl object "[object Intl.NumberFormat]", not "#<NumberFormat>"); a script's first formatter costs about 20 us
// less than when it installed the guards. Per call: localeCompare +0.05 us, ListFormat#format +2 us (the list is
// read here, step by step), format and compare as before.
/** @import { Accessor, Dict, IntlScope, Limits, NullProtoDictionary, NullProtoList, Primitive, Value } from './types.js' */
/** @typedef {'DateTimeFormat' | 'NumberFormat' | 'Collator' | 'PluralRules' | 'RelativeTimeFormat' | 'ListFormat' | 'DisplayNames' | 'Segmenter' | 'Locale' | 'DurationFormat'} IntlName */
/** @typedef {(self: Value, args: ArrayLike<Value>, newTarget: Function | undefined) => object} MakeIntl What a constructor's call does (chargingConstructor). */

/**
 * Installed by guardResources (resources.js), which hands over in `scope` what it captured first: G, rapply, rconstruct,
 * defineProperty, getOwnPropertyDescriptor, getPrototypeOf, RangeErrorCtor, TypeErrorCtor, AB (the original
 * ArrayBuffer), tooLong, readOnlyPrototype, and asNative (core.js). `limits` gives maxIntlInput and intlBytes (prelude-intl.ts).
 *
 * Every guard keeps the builtin it guards exactly as a script sees it in plain V8, installed where the original was, as
 * a data property with the original's attributes, before the script runs (no accessor that installs on first use). A
 * guarded method or getter is a Proxy of the original, so its name, length, own properties and (not) being a
 * constructor are the original's; a constructor is a function of the same name, length and statics; asNative gives
 * each the original's text. What a guard converts itself (a receiver, a string argument, a number's primitive, a
 * list's iterable) it converts once, in the builtin's order and after the builtin's receiver check, and hands the
 * builtin the result, on which no script code can run again. test/engine/standard-intl.test.ts compares all of it
 * with plain V8.
 * @param {IntlScope} scope
 * @param {Limits} limits
 */
export function guardIntl(scope, limits) {
  const {
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
  } = scope;
  const ProxyCtor = Proxy;
  const WeakMapCtor = WeakMap;
  const ArrayCtor = Array;
  const wmSet = WeakMapCtor.prototype.set;
  const wmGet = WeakMapCtor.prototype.get;
  const wmHas = WeakMapCtor.prototype.has;
  /** @type {typeof Symbol.iterator} */
  const symIterator = Symbol.iterator;
  /** @type {typeof Symbol.toPrimitive} */
  const symToPrimitive = Symbol.toPrimitive;
  // OrdinaryToPrimitive: Date's @@toPrimitive with a hint is exactly that for any object (valueOf, then toString).
  const ordinaryToPrimitive = G.Date.prototype[symToPrimitive];
  const MAX_INPUT = limits.maxIntlInput;
  const B = limits.intlBytes;
  /**
   * @param {unknown} o
   * @returns {o is Dict}
   */
  const isObject = (o) => o !== null && (typeof o === 'object' || typeof o === 'function');
  /**
   * @param {unknown} o
   * @returns {o is null | undefined}
   */
  const isNullish = (o) => o === undefined || o === null;
  // An argument of a call, undefined when it was not given (a missing index of the arguments array is never read:
  // it would be looked up on Array.prototype, where a script may have put a getter).
  /**
   * @template T
   * @param {ArrayLike<T>} args
   * @param {number} i
   */
  const arg = (args, i) => (i < args.length ? args[i] : undefined);

  // ToPrimitive, as a builtin does it. Where V8 itself would throw (a @@toPrimitive that is not callable), a builtin
  // converts an object of the prelude's with the same method, so the error and its message are V8's own.
  const v8LocaleCompare = G.String.prototype.localeCompare;
  /**
   * @param {Dict} v
   * @param {'string' | 'number'} hint
   * @returns {Primitive}
   */
  const toPrimitive = (v, hint) => {
    const exotic = v[symToPrimitive];
    if (isNullish(exotic)) return rapply(ordinaryToPrimitive, v, [hint]);
    if (typeof exotic !== 'function') {
      rapply(v8LocaleCompare, '', [{ [symToPrimitive]: exotic }]);
      throw new TypeErrorCtor('Symbol.toPrimitive is not a function');
    }
    const p = rapply(exotic, v, [hint]);
    if (isObject(p)) throw new TypeErrorCtor('Cannot convert object to primitive value');
    return p;
  };
  // ICU copies and indexes its input outside the V8 heap: bound what reaches it. ToString as a builtin does it (a
  // Symbol throws; String(symbol) would not).
  /**
   * @param {Value} v
   * @param {string} what
   */
  const textOf = (v, what) => {
    // @ts-expect-error -- ToString of any value, as the builtin converts it (a Symbol throws): TypeScript refuses a symbol in a template.
    const s = typeof v === 'string' ? v : `${isObject(v) ? toPrimitive(v, 'string') : v}`;
    if (s.length > MAX_INPUT) throw tooLong(what, MAX_INPUT);
    return s;
  };
  // ToIntlMathematicalValue's ToPrimitive(value, number), done here so that a string it yields is measured; the
  // builtin gets that primitive, which it converts without calling anything of the script's.
  /**
   * @param {Value} v
   * @param {string} what
   */
  const mathValue = (v, what) => {
    const p = isObject(v) ? toPrimitive(v, 'number') : v;
    if (typeof p === 'string' && p.length > MAX_INPUT) throw tooLong(what, MAX_INPUT);
    // A Symbol is refused there, before anything else is converted (V8's own TypeError).
    if (typeof p === 'symbol') return +(/** @type {{}} */ (p));
    return p;
  };

  // An iterable of the prelude's own over parts (a null-prototype record with a length), which the builtin iterates
  // without touching anything a script can change (Array.prototype[Symbol.iterator], %ArrayIteratorPrototype%.next).
  const done = { __proto__: null, value: undefined, done: true };
  /** @param {NullProtoList<Value>} parts */
  const iterableOf = (parts) => {
    let i = 0;
    const iterator = { __proto__: null, next: () => (i < parts.length ? { __proto__: null, value: parts[i++], done: false } : done) };
    return { __proto__: null, [symIterator]: () => iterator };
  };
  // IteratorClose after an error: return() is called if there is one, and whatever it does, the error stands.
  /** @type {(iterator: Dict, error: unknown) => never} */
  const closeWith = (iterator, error) => {
    try {
      const close = iterator.return;
      // @ts-expect-error -- IteratorClose calls whatever return holds: a value that is not callable throws here, and is swallowed.
      if (!isNullish(close)) rapply(close, iterator, []);
    } catch (_) {
      /* the error that closed it is the one thrown */
    }
    throw error;
  };
  // StringListFromIterable, measured as it goes (the total of its strings' lengths is capped), for a list method f
  // of self: its strings, as parts. Where it fails as the builtin would, the builtin is asked the same question of a
  // value nobody sees, so the error (and its message) is V8's own.
  /**
   * @param {Function} f
   * @param {Value} self
   * @param {NonNullable<Value> | null} iterable
   * @param {string} what
   * @returns {NullProtoList<string>}
   */
  const stringList = (f, self, iterable, what) => {
    /** @param {unknown} fake */
    const v8Error = (fake) => {
      try {
        rapply(f, self, [fake]);
      } catch (e) {
        return e;
      }
      return new TypeErrorCtor(what + ': not a list of strings');
    };
    // @ts-expect-error -- a primitive's @@iterator is its prototype's: TypeScript reads no symbol key of a number, boolean or bigint.
    const method = isObject(iterable) ? iterable[symIterator] : iterable === null ? undefined : iterable[symIterator];
    if (typeof method !== 'function') {
      // Not iterable: V8's message names the kind of value; a primitive is asked again as it is (its @@iterator is
      // its prototype's), an object as an object without one.
      throw v8Error(isObject(iterable) ? (typeof iterable === 'function' ? () => {} : { __proto__: null }) : iterable);
    }
    /** @type {Value} */
    const iterator = rapply(method, iterable, []);
    if (!isObject(iterator)) throw v8Error({ __proto__: null, [symIterator]: () => iterator });
    const next = iterator.next;
    /** @type {NullProtoList<string>} */
    const parts = { __proto__: null, length: 0 };
    let total = 0;
    for (;;) {
      if (typeof next !== 'function') throw v8Error({ __proto__: null, [symIterator]: () => ({ __proto__: null, next }) });
      /** @type {Value} */
      const result = rapply(next, iterator, []);
      if (!isObject(result)) throw v8Error({ __proto__: null, [symIterator]: () => ({ __proto__: null, next: () => result }) });
      if (result.done) return parts;
      const value = result.value;
      if (typeof value !== 'string') closeWith(iterator, v8Error(iterableOf({ __proto__: null, 0: value, length: 1 })));
      total += value.length;
      if (total > MAX_INPUT) closeWith(iterator, tooLong(what, MAX_INPUT));
      parts[parts.length++] = value;
    }
  };

  // What ICU holds is charged to the isolate's memory limit (see this file's header).
  const ballasts = new WeakMapCtor();
  const rangeBallasts = new WeakMapCtor();
  // (ArrayBuffer.prototype.byteLength: V8's own accessor.)
  const byteLength = /** @type {Accessor<number>} */ (getOwnPropertyDescriptor(AB.prototype, 'byteLength')).get;
  /**
   * @param {string} what
   * @param {number} bytes
   */
  const ballast = (what, bytes) => {
    try {
      return new AB(bytes);
    } catch (_) {
      throw new RangeErrorCtor(
        what + ': the Intl objects of this script hold more memory than the sandbox allows; ' + 'make one formatter and reuse it rather than one per value.',
      );
    }
  };
  /**
   * @template T
   * @param {T} o
   * @param {string} what
   * @param {number} bytes
   * @returns {T}
   */
  const charge = (o, what, bytes) => {
    if (isObject(o)) rapply(wmSet, ballasts, [o, ballast(what, bytes)]);
    return o;
  };
  // V8 keeps one formatter per kind for a call with no options and a string locale (or none), made again when the
  // locale changes; any other call makes a throwaway one. Mirrored here, so that only a formatter made is charged.
  /** @type {NullProtoDictionary<string>} */
  const lastLocale = { __proto__: null };
  /** @type {unknown[] | null} */
  let thrownAway = null;
  /**
   * @param {string} kind
   * @param {number} bytes
   * @param {Value} locales
   * @param {Value} options
   */
  const churn = (kind, bytes, locales, options) => {
    if (options === undefined && (locales === undefined || typeof locales === 'string')) {
      const key = locales === undefined ? '' : locales;
      if (lastLocale[kind] === key) return;
      lastLocale[kind] = key;
    }
    // Garbage at the next call: a young heap array of that size (8 bytes a slot) makes the next scavenge come that
    // much sooner, and a scavenge frees the throwaway formatter with it (an ArrayBuffer would wait for a full
    // collection). Kept in a variable, so that no optimizing compiler drops an allocation nobody reads.
    thrownAway = new ArrayCtor(bytes >> 3);
  };

  // The kind of each Intl object the constructors made (subclasses' included), for the kinds whose guards convert an
  // argument: such a guard first checks its receiver here, and hands anything else to the builtin untouched, which
  // throws its TypeError before converting anything. (Every Intl object a script can hold as a receiver comes from
  // a constructor.) Other kinds are not recorded: an entry per formatter is work for every collection.
  /** @type {{ __proto__?: null } & { [K in IntlName]?: true }} */
  const KINDS = { __proto__: null, NumberFormat: true, ListFormat: true, DisplayNames: true, Segmenter: true };
  const kinds = new WeakMapCtor();
  /** @param {Value} o */
  const kindOf = (o) => rapply(wmGet, kinds, [o]);

  // The original in a Proxy whose call runs apply(original, receiver, args), where the original was.
  /**
   * @template {PropertyKey} K
   * @param {{ [P in K]?: unknown }} owner
   * @param {K} key
   * @param {(f: Function, self: Value, args: Value[]) => unknown} apply the call: the original, its receiver, its arguments
   */
  const guardMethod = (owner, key, apply) => {
    const original = owner[key];
    if (typeof original !== 'function') return;
    owner[key] = asNative(new ProxyCtor(original, { __proto__: null, apply }), original);
  };
  // A getter replaced by guarded, named "get <key>" as the original (a function rather than a Proxy: a getter is
  // read on every use, nf.format(x), and V8 calls a Proxy getter through its slow path).
  /**
   * @param {Record<PropertyKey, unknown>} owner
   * @param {string} key
   * @param {(get: (this: unknown) => Function) => ((this: unknown) => Function)} guarded
   */
  const guardGetter = (owner, key, guarded) => {
    // (NumberFormat's format and Collator's compare: V8's own accessors.)
    const get = /** @type {Accessor<Function>} */ (getOwnPropertyDescriptor(owner, key)).get;
    defineProperty(owner, key, { __proto__: null, get: asNative(guarded(get), get) });
  };

  // Locale-aware methods of strings, numbers, dates and BigInts. A string method converts its receiver once, here,
  // and the builtin gets the string (a null or undefined receiver goes to the builtin, for its own TypeError).
  const SP = G.String.prototype;
  /**
   * @param {'normalize' | 'toLocaleUpperCase' | 'toLocaleLowerCase' | 'localeCompare'} name
   * @param {(args: Value[]) => Value[]} convert
   */
  const stringMethod = (name, convert) =>
    guardMethod(SP, name, (f, self, args) => {
      if (isNullish(self)) return rapply(f, self, args);
      const s = textOf(self, 'String.prototype.' + name);
      return rapply(f, s, convert(args));
    });
  stringMethod('normalize', (args) => args);
  stringMethod('toLocaleUpperCase', (args) => args);
  stringMethod('toLocaleLowerCase', (args) => args);
  stringMethod('localeCompare', (args) => {
    const that = textOf(arg(args, 0), 'String.prototype.localeCompare');
    const locales = arg(args, 1);
    const options = arg(args, 2);
    churn('collator', B.Collator, locales, options);
    return [that, locales, options];
  });
  /**
   * @param {'Date' | 'Number' | 'BigInt'} type
   * @param {'toLocaleString' | 'toLocaleDateString' | 'toLocaleTimeString'} name
   * @param {string} kind
   * @param {number} bytes
   */
  const localeMethod = (type, name, kind, bytes) =>
    guardMethod(G[type].prototype, name, (f, self, args) => {
      churn(kind, bytes, arg(args, 0), arg(args, 1));
      return rapply(f, self, args);
    });
  localeMethod('Date', 'toLocaleString', 'date', B.DateTimeFormat);
  localeMethod('Date', 'toLocaleDateString', 'dateOnly', B.DateTimeFormat);
  localeMethod('Date', 'toLocaleTimeString', 'timeOnly', B.DateTimeFormat);
  localeMethod('Number', 'toLocaleString', 'number', B.NumberFormat);
  localeMethod('BigInt', 'toLocaleString', 'number', B.NumberFormat);

  // Per constructor, the guards of its prototype's methods.
  /** @type {{ __proto__?: null } & { [K in IntlName]?: (P: Record<PropertyKey, unknown>) => void }} */
  const METHODS = {
    __proto__: null,
    Segmenter(P) {
      // A Segments object holds its own copy of the input and a break iterator over it; so does each iterator. Their
      // prototype is reached through the first Segments made, before the script can see it.
      let segmentsGuarded = false;
      /** @param {Record<PropertyKey, unknown>} segmentsP */
      const guardIterator = (segmentsP) =>
        guardMethod(segmentsP, symIterator, (f, self, args) => {
          const it = rapply(f, self, args);
          // The input's share of its Segments' charge: the iterator keeps the copy alive too.
          const charged = rapply(wmGet, ballasts, [self]);
          const input = charged === undefined ? 0 : rapply(byteLength, charged, []) - B.segments;
          return charge(it, '%Segments.prototype%[Symbol.iterator]', B.segmentIterator + input);
        });
      guardMethod(P, 'segment', (f, self, args) => {
        if (kindOf(self) !== 'Segmenter') return rapply(f, self, args);
        const s = textOf(arg(args, 0), 'Intl.Segmenter.prototype.segment');
        const segments = rapply(f, self, [s]);
        if (!segmentsGuarded) {
          segmentsGuarded = true;
          guardIterator(getPrototypeOf(segments));
        }
        return charge(segments, 'Intl.Segmenter.prototype.segment', B.segments + B.perInputChar * s.length);
      });
    },
    ListFormat(P) {
      for (const name of ['format', 'formatToParts']) {
        const what = 'Intl.ListFormat.prototype.' + name;
        guardMethod(P, name, (f, self, args) => {
          const list = arg(args, 0);
          if (kindOf(self) !== 'ListFormat' || list === undefined) return rapply(f, self, args);
          return rapply(f, self, [iterableOf(stringList(f, self, list, what))]);
        });
      }
    },
    DisplayNames(P) {
      guardMethod(P, 'of', (f, self, args) => {
        if (kindOf(self) !== 'DisplayNames') return rapply(f, self, args);
        return rapply(f, self, [textOf(arg(args, 0), 'Intl.DisplayNames.prototype.of')]);
      });
    },
    NumberFormat(P) {
      // format is a getter of a function bound to the formatter, made once per formatter: its guarded twin is too.
      const what = 'Intl.NumberFormat.prototype.format';
      const twins = new WeakMapCtor();
      guardGetter(
        P,
        'format',
        (get) =>
          /** @type {Accessor<Function>} */ (
            getOwnPropertyDescriptor(
              {
                get format() {
                  const bound = rapply(get, this, []);
                  let twin = rapply(wmGet, twins, [bound]);
                  if (twin === undefined) {
                    twin = asNative((/** @type {Value} */ value) => bound(mathValue(value, what)), bound);
                    rapply(wmSet, twins, [bound, twin]);
                  }
                  return twin;
                },
              },
              'format',
            )
          ).get,
      );
      // formatToParts and the range methods take strings too (any number of digits).
      guardMethod(P, 'formatToParts', (f, self, args) => {
        if (kindOf(self) !== 'NumberFormat' || args.length === 0) return rapply(f, self, args);
        return rapply(f, self, [mathValue(args[0], 'Intl.NumberFormat.prototype.formatToParts')]);
      });
      for (const name of ['formatRange', 'formatRangeToParts']) {
        const range = 'Intl.NumberFormat.prototype.' + name;
        guardMethod(P, name, (f, self, args) => {
          // An undefined end is the builtin's TypeError, before either is converted.
          const start = arg(args, 0);
          const end = arg(args, 1);
          if (kindOf(self) !== 'NumberFormat' || start === undefined || end === undefined) return rapply(f, self, args);
          const x = mathValue(start, range);
          return rapply(f, self, [x, mathValue(end, range)]);
        });
      }
    },
    Collator(P) {
      const what = 'Intl.Collator.prototype.compare';
      const twins = new WeakMapCtor();
      guardGetter(
        P,
        'compare',
        (get) =>
          /** @type {Accessor<Function>} */ (
            getOwnPropertyDescriptor(
              {
                get compare() {
                  const bound = rapply(get, this, []);
                  let twin = rapply(wmGet, twins, [bound]);
                  if (twin === undefined) {
                    twin = asNative((/** @type {Value} */ x, /** @type {Value} */ y) => {
                      const a = textOf(x, what);
                      return bound(a, textOf(y, what));
                    }, bound);
                    rapply(wmSet, twins, [bound, twin]);
                  }
                  return twin;
                },
              },
              'compare',
            )
          ).get,
      );
    },
    DateTimeFormat(P) {
      // The first formatRange builds an interval formatter the object keeps (about twice the formatter's size).
      for (const name of ['formatRange', 'formatRangeToParts']) {
        const what = 'Intl.DateTimeFormat.prototype.' + name;
        guardMethod(P, name, (f, self, args) => {
          const r = rapply(f, self, args);
          if (!rapply(wmHas, rangeBallasts, [self])) rapply(wmSet, rangeBallasts, [self, ballast(what, B.dateRange)]);
          return r;
        });
      }
    },
    Locale(P) {
      for (const name of ['maximize', 'minimize']) {
        const what = 'Intl.Locale.prototype.' + name;
        guardMethod(P, name, (f, self, args) => charge(rapply(f, self, args), what, B.Locale));
      }
    },
  };

  // A constructor that charges what it makes, called with new (or by a subclass, or Reflect.construct) or, for the
  // three that allow it, without. A function named in the source, because V8's messages name an object after the
  // source name of its prototype's constructor ("incompatible receiver #<NumberFormat>"), which neither a Proxy
  // nor a computed name gives. Called with new, V8 first makes it a receiver from newTarget's prototype; the builtin
  // then gets that same prototype through a function of the prelude's, so that the script's newTarget is read once
  // (a Proxy newTarget sees one get of "prototype", as in plain V8). A receiver made from Object.prototype may mean
  // that newTarget's prototype was no object (the builtin then uses its own default): that newTarget is read again.
  // With itself as newTarget, an object is built with the builtin's own (the same prototype), as in plain V8.
  // Called without new on an instance of its own, DateTimeFormat and NumberFormat return that instance with a
  // formatter attached: charged, but not of the kind (the methods' receiver check refuses it, as V8's does).
  /** @type {{ __proto__?: null } & { [K in IntlName]: (make: MakeIntl) => (this: Value, ...args: Value[]) => object }} */
  const NAMED = {
    __proto__: null,
    DateTimeFormat: (make) =>
      function DateTimeFormat(...args) {
        return make(this, args, new.target);
      },
    NumberFormat: (make) =>
      function NumberFormat(...args) {
        return make(this, args, new.target);
      },
    Collator: (make) =>
      function Collator(...args) {
        return make(this, args, new.target);
      },
    PluralRules: (make) =>
      function PluralRules(...args) {
        return make(this, args, new.target);
      },
    RelativeTimeFormat: (make) =>
      function RelativeTimeFormat(...args) {
        return make(this, args, new.target);
      },
    ListFormat: (make) =>
      function ListFormat(...args) {
        return make(this, args, new.target);
      },
    DisplayNames: (make) =>
      function DisplayNames(locales, options) {
        return make(this, arguments, new.target);
      },
    Segmenter: (make) =>
      function Segmenter(...args) {
        return make(this, args, new.target);
      },
    Locale: (make) =>
      function Locale(tag) {
        return make(this, arguments, new.target);
      },
    DurationFormat: (make) =>
      function DurationFormat(...args) {
        return make(this, args, new.target);
      },
  };
  const ObjectPrototype = G.Object.prototype;
  const prototypeOf = function () {};
  /**
   * @param {IntlName} name
   * @param {Function} C
   */
  const chargingConstructor = (name, C) => {
    const what = 'Intl.' + name;
    const bytes = B[name];
    const kinded = KINDS[name] === true;
    /** @type {Function | null} */
    let guarded = null;
    guarded = NAMED[name]((self, args, newTarget) => {
      let o;
      if (newTarget === undefined) {
        o = rapply(C, self, args);
        if (o === self || !kinded) return charge(o, what, bytes);
      } else if (newTarget === guarded) {
        o = rconstruct(C, args, C);
      } else {
        const proto = getPrototypeOf(self);
        if (proto === ObjectPrototype) o = rconstruct(C, args, newTarget);
        else {
          prototypeOf.prototype = proto;
          try {
            o = rconstruct(C, args, prototypeOf);
          } finally {
            prototypeOf.prototype = null;
          }
        }
      }
      if (kinded) rapply(wmSet, kinds, [o, name]);
      return charge(o, what, bytes);
    });
    if (guarded.length !== C.length) defineProperty(guarded, 'length', { __proto__: null, value: C.length, configurable: true });
    readOnlyPrototype(guarded, C.prototype);
    const statics = getOwnPropertyDescriptor(C, 'supportedLocalesOf');
    if (statics !== undefined) defineProperty(guarded, 'supportedLocalesOf', statics);
    C.prototype.constructor = guarded;
    return asNative(guarded, C);
  };
  const I = G.Intl;
  if (I) {
    // Non-standard (V8's own): a break iterator over any text, held outside the heap.
    delete I.v8BreakIterator;
    /** @type {IntlName[]} */
    const CONSTRUCTORS = [
      'DateTimeFormat',
      'NumberFormat',
      'Collator',
      'PluralRules',
      'RelativeTimeFormat',
      'ListFormat',
      'DisplayNames',
      'Segmenter',
      'Locale',
      'DurationFormat',
    ];
    for (let i = 0; i < CONSTRUCTORS.length; i++) {
      const name = CONSTRUCTORS[i];
      const C = I[name];
      if (typeof C !== 'function' || NAMED[name] === undefined) continue;
      I[name] = chargingConstructor(name, C);
      const methods = METHODS[name];
      if (methods !== undefined) methods(C.prototype);
    }
  }
}
