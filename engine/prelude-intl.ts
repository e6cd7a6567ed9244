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
// Measured costs: the first Intl constructor an execution uses, about 90 us (guards install on first use); then
// Segmenter#segment +1.6 us a call (3 us before), toLocaleDateString with options +8 us (of about 45).

/** Longest input (UTF-16 units, summed over a list) an ICU-backed method accepts. */
export const MAX_INTL_INPUT = 1 << 20;

/**
 * Bytes charged per object (RSS per object kept, less the heap's part, measured with 5,000 of each in a host): what the
 * constructors make, what Segmenter#segment and its iterator make (plus per input character), the interval
 * formatter a DateTimeFormat builds on its first formatRange, and a Locale from maximize/minimize.
 */
export const INTL_BYTES = {
  DateTimeFormat: 28 * 1024, NumberFormat: 2048, Collator: 2048, PluralRules: 2048, RelativeTimeFormat: 9 * 1024,
  ListFormat: 1024, DisplayNames: 3 * 1024, Segmenter: 6 * 1024, Locale: 1024, DurationFormat: 2048,
  segments: 2048, segmentIterator: 4096, perInputChar: 3, dateRange: 56 * 1024,
} as const;

/**
 * A section of RESOURCE_GUARDS (prelude-resources.ts), in its scope: uses G, rapply, rconstruct, defineProperty,
 * getOwnPropertyDescriptor, getPrototypeOf, fixed, arrayFrom, wrap, replaceMethod, text, tooLong,
 * RangeErrorCtor, AB (the original ArrayBuffer) and S (String.prototype). MAX_INTL is replaced there.
 */
export const INTL_GUARDS = `
    // ICU copies and indexes its input outside the V8 heap: bound what reaches it.
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

    // What ICU holds is charged to the isolate's memory limit (see prelude-intl.ts).
    const WeakMapCtor = WeakMap;
    const ArrayCtor = Array;
    const wmSet = WeakMapCtor.prototype.set;
    const wmGet = WeakMapCtor.prototype.get;
    const wmHas = WeakMapCtor.prototype.has;
    const ballasts = new WeakMapCtor();
    const rangeBallasts = new WeakMapCtor();
    const byteLength = getOwnPropertyDescriptor(AB.prototype, 'byteLength').get;
    const isObject = (o) => o !== null && (typeof o === 'object' || typeof o === 'function');
    const ballast = (what, bytes) => {
      try {
        return new AB(bytes);
      } catch (_) {
        throw new RangeErrorCtor(what + ': the Intl objects of this script hold more memory than the sandbox allows; '
          + 'make one formatter and reuse it rather than one per value.');
      }
    };
    const charge = (o, what, bytes) => {
      if (isObject(o)) rapply(wmSet, ballasts, [o, ballast(what, bytes)]);
      return o;
    };
    // V8 keeps one formatter per kind for a call with no options and a string locale (or none), made again when the
    // locale changes; any other call makes a throwaway one. Mirrored here, so that only a formatter made is charged.
    const lastLocale = { __proto__: null };
    let thrownAway = null;
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
    const B = ${JSON.stringify(INTL_BYTES)};

    const receiver = (name) => (self, args) => {
      text(self, 'String.prototype.' + name, MAX_INTL);
      return args;
    };
    wrap(S, 'normalize', receiver('normalize'));
    wrap(S, 'toLocaleUpperCase', receiver('toLocaleUpperCase'));
    wrap(S, 'toLocaleLowerCase', receiver('toLocaleLowerCase'));
    wrap(S, 'localeCompare', (self, args) => {
      text(self, 'String.prototype.localeCompare', MAX_INTL);
      args[0] = text(args[0], 'String.prototype.localeCompare', MAX_INTL);
      churn('collator', B.Collator, args[1], args[2]);
      return args;
    });
    const localeMethod = (type, name, kind, bytes) => wrap(G[type].prototype, name, (self, args) => {
      churn(kind, bytes, args[0], args[1]);
      return args;
    });
    localeMethod('Date', 'toLocaleString', 'date', B.DateTimeFormat);
    localeMethod('Date', 'toLocaleDateString', 'dateOnly', B.DateTimeFormat);
    localeMethod('Date', 'toLocaleTimeString', 'timeOnly', B.DateTimeFormat);
    localeMethod('Number', 'toLocaleString', 'number', B.NumberFormat);
    localeMethod('BigInt', 'toLocaleString', 'number', B.NumberFormat);

    // Intl is guarded when a script first reaches it, one constructor at a time: most scripts never do, and wrapping
    // every constructor costs a context about 250 us. globalThis.Intl, then each constructor on it, is an accessor
    // that installs the guard and becomes a plain property again. What the guards use is captured now, and they loop
    // by index, so nothing the script changed before (an array iterator, Reflect, ...) is called.
    const I = G.Intl;
    const symIterator = Symbol.iterator;
    const lazily = (owner, key, install) => {
      let value;
      let done = false;
      const settle = (v) => {
        try { defineProperty(owner, key, { __proto__: null, value: v, writable: true, enumerable: false, configurable: true }); } catch (_) { /* a frozen owner keeps the accessor */ }
      };
      defineProperty(owner, key, { __proto__: null, enumerable: false, configurable: true,
        get: asNative(() => { if (!done) { done = true; value = install(); settle(value); } return value; }, 'get ' + key),
        set: asNative((v) => { if (!done) { done = true; install(); } value = v; settle(v); }, 'set ' + key) });
    };
    // A constructor that charges what it makes, called with new (or by a subclass) or, for the three that allow it,
    // without; prototype, supportedLocalesOf, name and length are the original's.
    const chargingConstructor = (name, C) => {
      const what = 'Intl.' + name;
      const bytes = B[name];
      const guarded = function (...args) {
        return charge(new.target === undefined ? rapply(C, this, args) : rconstruct(C, args, new.target), what, bytes);
      };
      asNative(guarded, C);
      const supported = getOwnPropertyDescriptor(C, 'supportedLocalesOf');
      if (supported !== undefined) defineProperty(guarded, 'supportedLocalesOf', supported);
      defineProperty(guarded, 'name', { __proto__: null, value: name, configurable: true });
      defineProperty(guarded, 'length', { __proto__: null, value: C.length, configurable: true });
      defineProperty(guarded, 'prototype', fixed(C.prototype));
      defineProperty(C.prototype, 'constructor', { __proto__: null, value: guarded, writable: true, enumerable: false, configurable: true });
      return guarded;
    };
    const RANGE_METHODS = ['formatRange', 'formatRangeToParts'];
    const LOCALE_METHODS = ['maximize', 'minimize'];
    // Per constructor, the guards of its prototype's methods.
    const METHODS = { __proto__: null,
      Segmenter(segP) {
        // A Segments object holds its own copy of the input and a break iterator over it; so does each iterator. Their
        // prototype is reached through the first Segments made, before the script can see it.
        const segment = segP.segment;
        let iterate = null;
        const guardIterator = (segmentsP) => {
          iterate = segmentsP[symIterator];
          replaceMethod(segmentsP, symIterator, 0, function () {
            const it = rapply(iterate, this, []);
            // The input's share of its Segments' charge: the iterator keeps the copy alive too.
            const charged = rapply(wmGet, ballasts, [this]);
            const input = charged === undefined ? 0 : rapply(byteLength, charged, []) - B.segments;
            return charge(it, '%Segments.prototype%[Symbol.iterator]', B.segmentIterator + input);
          });
        };
        replaceMethod(segP, 'segment', 1, function (input) {
          const s = input === undefined ? input : text(input, 'Intl.Segmenter.prototype.segment', MAX_INTL);
          const segments = rapply(segment, this, [s]);
          if (iterate === null) guardIterator(getPrototypeOf(segments));
          return charge(segments, 'Intl.Segmenter.prototype.segment', B.segments + B.perInputChar * (s === undefined ? 9 : s.length));
        });
      },
      ListFormat(lfP) {
        wrap(lfP, 'format', list('Intl.ListFormat.prototype.format'));
        wrap(lfP, 'formatToParts', list('Intl.ListFormat.prototype.formatToParts'));
      },
      DisplayNames(dnP) {
        wrap(dnP, 'of', firstText('Intl.DisplayNames.prototype.of'));
      },
      NumberFormat(nf) {
        // format is a getter returning a bound function; formatRange and friends take strings too.
        const getFormat = getOwnPropertyDescriptor(nf, 'format').get;
        defineProperty(nf, 'format', { __proto__: null, configurable: true, enumerable: false, get() {
          const bound = rapply(getFormat, this, []);
          return (v) => bound(typeof v === 'number' || typeof v === 'bigint' ? v : text(v, 'Intl.NumberFormat.prototype.format', MAX_INTL));
        } });
        wrap(nf, 'formatToParts', firstText('Intl.NumberFormat.prototype.formatToParts'));
      },
      Collator(cp) {
        const getCompare = getOwnPropertyDescriptor(cp, 'compare').get;
        defineProperty(cp, 'compare', { __proto__: null, configurable: true, enumerable: false, get() {
          const bound = rapply(getCompare, this, []);
          return (a, b) => bound(text(a, 'Intl.Collator.prototype.compare', MAX_INTL), text(b, 'Intl.Collator.prototype.compare', MAX_INTL));
        } });
      },
      DateTimeFormat(dtf) {
        // The first formatRange builds an interval formatter the object keeps (about twice the formatter's size).
        for (let i = 0; i < RANGE_METHODS.length; i++) {
          const name = RANGE_METHODS[i];
          const original = dtf[name];
          if (typeof original !== 'function') continue;
          replaceMethod(dtf, name, original.length, function (...args) {
            const r = rapply(original, this, args);
            if (!rapply(wmHas, rangeBallasts, [this])) rapply(wmSet, rangeBallasts, [this, ballast('Intl.DateTimeFormat.prototype.' + name, B.dateRange)]);
            return r;
          });
        }
      },
      Locale(lp) {
        for (let i = 0; i < LOCALE_METHODS.length; i++) {
          const name = LOCALE_METHODS[i];
          const original = lp[name];
          if (typeof original === 'function') replaceMethod(lp, name, 0, function () { return charge(rapply(original, this, []), 'Intl.Locale.prototype.' + name, B.Locale); });
        }
      },
    };
    const CONSTRUCTORS = ['DateTimeFormat', 'NumberFormat', 'Collator', 'PluralRules', 'RelativeTimeFormat', 'ListFormat',
      'DisplayNames', 'Segmenter', 'Locale', 'DurationFormat'];
    if (I) lazily(G, 'Intl', () => {
      // Non-standard (V8's own): a break iterator over any text, held outside the heap.
      delete I.v8BreakIterator;
      for (let i = 0; i < CONSTRUCTORS.length; i++) {
        const name = CONSTRUCTORS[i];
        const C = I[name];
        if (typeof C !== 'function') continue;
        lazily(I, name, () => {
          const guarded = chargingConstructor(name, C);
          const methods = METHODS[name];
          if (methods !== undefined) methods(C.prototype);
          return guarded;
        });
      }
      return I;
    });
`;
