// Scripts that describe what a script can observe of Intl and of the locale-aware methods, run once in a plain V8
// context and once in the sandbox (test/engine/standard-intl.test.ts): each is a function body returning a record of
// label → text, and the two records must be equal label by label.

/**
 * Every own property of Intl, of each Intl constructor and its prototype, of the Segments and segment-iterator
 * prototypes, and the locale methods of String, Number, Date, BigInt, Array, %TypedArray% and Object: kind,
 * attributes, and for functions their name, length, prototype, own keys, extensibility and Function#toString.
 * Getters that return functions (format, compare) are read twice from one instance. Read before anything else
 * touches Intl, so a guard that installs itself on first use shows as what it is until then.
 */
export const SHAPE_PROBE = `
  const out = {};
  const key = (k) => (typeof k === 'symbol' ? k.toString() : k);
  const fnText = Function.prototype.toString;
  const fn = (f) => (typeof f !== 'function' ? typeof f : [f.name, f.length, Object.getPrototypeOf(f) === Function.prototype,
    fnText.call(f), Reflect.ownKeys(f).map(key).join(), 'prototype' in f, Object.isExtensible(f),
    JSON.stringify(Object.getOwnPropertyDescriptor(f, 'name')), JSON.stringify(Object.getOwnPropertyDescriptor(f, 'length'))].join(' | '));
  const property = (o, k) => {
    const d = Object.getOwnPropertyDescriptor(o, k);
    if (d === undefined) return 'none';
    if ('value' in d) return ['data', d.writable, d.enumerable, d.configurable, typeof d.value === 'function' ? fn(d.value) : typeof d.value === 'object' ? 'object' : String(d.value)].join(' ');
    return ['accessor', d.enumerable, d.configurable, 'get ' + fn(d.get), 'set ' + fn(d.set)].join(' ');
  };
  const describe = (label, o) => {
    out[label + ' keys'] = Reflect.ownKeys(o).map(key).join();
    out[label + ' proto'] = String(Object.getPrototypeOf(o) === Object.prototype || Object.getPrototypeOf(o) === Function.prototype);
    for (const k of Reflect.ownKeys(o)) out[label + '.' + key(k)] = property(o, k);
  };
  out['globalThis.Intl'] = property(globalThis, 'Intl');
  // Each constructor's property on Intl, before any of them is read.
  for (const k of Reflect.ownKeys(Intl)) out['Intl.' + key(k) + ' (first)'] = property(Intl, k);
  describe('Intl', Intl);
  for (const n of Object.getOwnPropertyNames(Intl)) {
    const C = Intl[n];
    if (typeof C !== 'function') continue;
    describe('Intl.' + n, C);
    if (C.prototype) describe('Intl.' + n + '.prototype', C.prototype);
  }
  const instances = { NumberFormat: () => new Intl.NumberFormat('en'), Collator: () => new Intl.Collator('en'), DateTimeFormat: () => new Intl.DateTimeFormat('en') };
  for (const n in instances) {
    const o = instances[n]();
    for (const k of Reflect.ownKeys(Intl[n].prototype)) {
      const d = Object.getOwnPropertyDescriptor(Intl[n].prototype, k);
      if (typeof d.get === 'function' && k !== Symbol.toStringTag) out['new Intl.' + n + '().' + key(k)] = String(o[k] === o[k]) + ' ' + fn(o[k]);
    }
  }
  const segments = new Intl.Segmenter('en').segment('ab');
  describe('%SegmentsPrototype%', Object.getPrototypeOf(segments));
  describe('%SegmentIteratorPrototype%', Object.getPrototypeOf(segments[Symbol.iterator]()));
  const locale = [[String, ['localeCompare', 'toLocaleUpperCase', 'toLocaleLowerCase', 'normalize', 'toLocaleString']], [Number, ['toLocaleString']],
    [Date, ['toLocaleString', 'toLocaleDateString', 'toLocaleTimeString']], [BigInt, ['toLocaleString']], [Array, ['toLocaleString']],
    [Object.getPrototypeOf(Int8Array), ['toLocaleString']], [Object, ['toLocaleString']]];
  for (const [T, names] of locale) for (const m of names) out[T.name + '.prototype.' + m] = property(T.prototype, m);
  return out;
`;

/**
 * What each guarded function does with unusual arguments and receivers: its result or error (type and message),
 * and, in order, every conversion and property read the script's objects saw (valueOf, toString, @@toPrimitive,
 * proxy traps, iterator steps and closing). Also how constructors read their options, newTarget and subclassing,
 * the legacy call forms, identity on repeated reads, and which functions are constructors.
 */
export const BEHAVIOUR_PROBE = `
  const out = {};
  let log = [];
  const spy = (label, target) => new Proxy(target, {
    get(t, k, r) { log.push(label + '.get ' + String(k)); return Reflect.get(t, k, r); },
    has(t, k) { log.push(label + '.has ' + String(k)); return Reflect.has(t, k); },
    getOwnPropertyDescriptor(t, k) { log.push(label + '.gopd ' + String(k)); return Reflect.getOwnPropertyDescriptor(t, k); },
    ownKeys(t) { log.push(label + '.ownKeys'); return Reflect.ownKeys(t); },
    getPrototypeOf(t) { log.push(label + '.getPrototypeOf'); return Reflect.getPrototypeOf(t); },
  });
  const counted = (label, v) => ({ valueOf() { log.push(label + '.valueOf'); return v; }, toString() { log.push(label + '.toString'); return String(v); } });
  const show = (v) => {
    if (typeof v === 'string') return v;
    if (typeof v === 'bigint') return v + 'n';
    if (Object.is(v, -0)) return '-0';
    try { return JSON.stringify(v); } catch (e) { return String(v); }
  };
  const t = (label, f) => {
    log = [];
    let r;
    try { r = show(f()); } catch (e) { r = 'throws ' + (e && e.constructor && e.constructor.name) + ': ' + (e && e.message); }
    out[label] = r + (log.length ? ' | ' + log.join(', ') : '');
  };
  const values = [['null', null], ['-0', -0], ['true', true], ['numeric string', '1e3'], ['long digits', '1'.repeat(50)], ['undefined', undefined],
    ['bigint', 12n], ['symbol', Symbol('s')], ['valueOf', counted('o', 5)], ['valueOf string', counted('o', '7')], ['date', new Date(5)],
    ['@@toPrimitive', { [Symbol.toPrimitive](hint) { log.push('toPrimitive ' + hint); return '8'; } }],
    ['@@toPrimitive not callable', { [Symbol.toPrimitive]: 1 }], ['@@toPrimitive object', { [Symbol.toPrimitive]() { return {}; } }],
    ['no primitive', { valueOf() { return {}; }, toString() { return {}; } }], ['proxy', spy('p', { valueOf() { return 3; } })], ['array', [3]]];
  const nf = new Intl.NumberFormat('en');
  for (const [k, v] of values) {
    t('nf.format(' + k + ')', () => nf.format(v));
    t('nf.formatToParts(' + k + ')', () => nf.formatToParts(v));
    t('nf.formatRange(' + k + ', end)', () => nf.formatRange(v, counted('end', 10)));
    t('nf.formatRangeToParts(start, ' + k + ')', () => nf.formatRangeToParts(counted('start', 1), v));
    t('collator.compare(' + k + ', y)', () => new Intl.Collator('en').compare(v, counted('y', 'b')));
    t("'a'.localeCompare(" + k + ')', () => 'a'.localeCompare(v));
    t('localeCompare on ' + k, () => String.prototype.localeCompare.call(v, counted('that', 'b')));
    t('toLocaleUpperCase on ' + k, () => String.prototype.toLocaleUpperCase.call(v, 'en'));
    t("'A'.toLocaleLowerCase(" + k + ')', () => 'A'.toLocaleLowerCase(v));
    t('normalize on ' + k, () => String.prototype.normalize.call(v, counted('form', 'NFC')));
    t("'a'.normalize(" + k + ')', () => 'a'.normalize(v));
    t('displayNames.of(' + k + ')', () => new Intl.DisplayNames('en', { type: 'region' }).of(v));
    t('segmenter.segment(' + k + ')', () => [...new Intl.Segmenter('en').segment(v)].length);
    t('pluralRules.select(' + k + ')', () => new Intl.PluralRules('en').select(v));
    t('relativeTimeFormat.format(' + k + ')', () => new Intl.RelativeTimeFormat('en').format(v, 'day'));
    t('Number#toLocaleString on ' + k, () => Number.prototype.toLocaleString.call(v));
    t('BigInt#toLocaleString on ' + k, () => BigInt.prototype.toLocaleString.call(v));
    t('Date#toLocaleString on ' + k, () => Date.prototype.toLocaleString.call(v));
    t('Date#toLocaleDateString(' + k + ')', () => new Date(0).toLocaleDateString(v, { timeZone: 'UTC' }));
    t('(5).toLocaleString(' + k + ')', () => (5).toLocaleString(v));
    t('[' + k + ', 1].toLocaleString()', () => [v, 1].toLocaleString('en'));
    t('ListFormat#format on ' + k, () => Intl.ListFormat.prototype.format.call(v, ['a']));
    t('listFormat.format(' + k + ')', () => new Intl.ListFormat('en').format(v));
    t('NumberFormat#formatToParts on ' + k, () => Intl.NumberFormat.prototype.formatToParts.call(v, counted('x', 1)));
    t('NumberFormat#format getter on ' + k, () => Object.getOwnPropertyDescriptor(Intl.NumberFormat.prototype, 'format').get.call(v));
    t('Segmenter#segment on ' + k, () => Intl.Segmenter.prototype.segment.call(v, counted('s', 'ab')));
    t('DisplayNames#of on ' + k, () => Intl.DisplayNames.prototype.of.call(v, counted('c', 'US')));
  }
  // A start or end that is not a number is refused with a RangeError after both are converted, in this order. (Its
  // message names the value: V8 prints the object it was given, the sandbox the primitive it converted it to.)
  t('nf.formatRange(object that is no number) order', () => { try { nf.formatRange(spy('p', {}), counted('end', 10)); } catch (e) { return e.constructor.name; } });

  const spied = (o) => spy('options', o);
  for (const n of ['DateTimeFormat', 'NumberFormat', 'Collator', 'PluralRules', 'RelativeTimeFormat', 'ListFormat', 'Segmenter', 'DurationFormat', 'DisplayNames', 'Locale']) {
    const args = n === 'DisplayNames' ? [spy('locales', ['en']), spied({ type: 'region' })] : n === 'Locale' ? ['en', spied({ region: 'US' })] : [spy('locales', ['en']), spied({})];
    t('new Intl.' + n + ' reads', () => typeof new Intl[n](...args));
    t('Intl.' + n + '() without new', () => typeof Intl[n]('en'));
    t('Intl.' + n + '.supportedLocalesOf', () => Intl[n].supportedLocalesOf ? Intl[n].supportedLocalesOf(['en', 'pt-BR']) : 'none');
    t('Reflect.construct(Intl.' + n + ', args, X)', () => { function X() {} X.prototype = { q: 1 }; const o = Reflect.construct(Intl[n], args, X); return [Object.getPrototypeOf(o) === X.prototype, o.q]; });
    t('Reflect.construct(Intl.' + n + ', args, X) where X.prototype is 5', () => { function X() {} X.prototype = 5; return Object.getPrototypeOf(Reflect.construct(Intl[n], args, X)) === Intl[n].prototype; });
    t('Reflect.construct(Intl.' + n + ', args, X) where X.prototype is Object.prototype', () => { function X() {} X.prototype = Object.prototype; return Object.getPrototypeOf(Reflect.construct(Intl[n], args, X)) === Object.prototype; });
    t('Reflect.construct(Intl.' + n + ', args, proxy)', () => { const o = Reflect.construct(Intl[n], args, spy('newTarget', function () {})); return Object.getPrototypeOf(o) === Intl[n].prototype; });
    t('class extends Intl.' + n, () => { class S extends Intl[n] { constructor() { super(...args); } } const o = new S(); return [o instanceof S, o instanceof Intl[n], Object.prototype.toString.call(o)]; });
    t('Intl.' + n + ' identity', () => [Intl[n] === Intl[n], Intl[n].prototype.constructor === Intl[n], Object.getPrototypeOf(Intl[n]) === Function.prototype]);
  }
  t('legacy DateTimeFormat call', () => { const o = Object.create(Intl.DateTimeFormat.prototype); const r = Intl.DateTimeFormat.call(o, 'en', { timeZone: 'UTC' }); return [r === o, Object.getOwnPropertySymbols(o).length, r.format(0), r.resolvedOptions().locale]; });
  t('legacy NumberFormat call', () => { const o = Object.create(Intl.NumberFormat.prototype); const r = Intl.NumberFormat.call(o, 'en'); return [r === o, r.format(1234)]; });
  t('legacy NumberFormat formatToParts', () => { const o = Object.create(Intl.NumberFormat.prototype); Intl.NumberFormat.call(o, 'en'); return o.formatToParts(counted('x', 1)); });
  t('legacy Collator call', () => { const o = Object.create(Intl.Collator.prototype); const r = Intl.Collator.call(o, 'en'); return [r === o, r.compare('a', 'b')]; });
  t('nf.format identity', () => { const a = new Intl.NumberFormat(); const f = a.format; return [f === a.format, f !== new Intl.NumberFormat().format, f.name, f.length, Reflect.ownKeys(f).join(), 'prototype' in f, Function.prototype.toString.call(f), f.call(null, 5)]; });
  t('collator.compare identity', () => { const a = new Intl.Collator(); const f = a.compare; return [f === a.compare, f.name, f.length, Reflect.ownKeys(f).join(), Function.prototype.toString.call(f)]; });
  t('dateTimeFormat.format identity', () => { const a = new Intl.DateTimeFormat(); return [a.format === a.format, a.format.name, a.format.length]; });
  t('new nf.format', () => new (new Intl.NumberFormat().format)(1));
  t('new collator.compare', () => new (new Intl.Collator().compare)('a', 'b'));
  t('new formatToParts', () => new Intl.NumberFormat.prototype.formatToParts(1));
  t('new segment', () => new Intl.Segmenter.prototype.segment('a'));
  t('new localeCompare', () => new String.prototype.localeCompare('a'));
  t('new toLocaleString', () => new Number.prototype.toLocaleString());
  t('format getter on a subclass instance', () => { class M extends Intl.NumberFormat { twice(v) { return this.format(v * 2); } } return new M('en').twice(2); });

  const iterable = (values, label) => ({ [Symbol.iterator]() {
    let i = 0;
    log.push(label + ' @@iterator');
    return {
      next() { log.push(label + ' next'); return i < values.length ? { value: values[i++], done: false } : { value: undefined, done: true }; },
      return() { log.push(label + ' return'); return {}; },
    };
  } });
  const lf = new Intl.ListFormat('en');
  for (const m of ['format', 'formatToParts']) {
    t('listFormat.' + m + '(iterable)', () => lf[m](iterable(['a', 'b', 'c'], 'it')));
    t('listFormat.' + m + '(iterable yielding a number)', () => lf[m](iterable(['a', 1, 'c'], 'it')));
    t('listFormat.' + m + '(iterable yielding an object)', () => lf[m](iterable(['a', {}, 'c'], 'it')));
    t('listFormat.' + m + '(iterable yielding null)', () => lf[m](iterable([null], 'it')));
    t('listFormat.' + m + '(string)', () => lf[m]('abc'));
    t('listFormat.' + m + '(5)', () => lf[m](5));
    t('listFormat.' + m + '(null)', () => lf[m](null));
    t('listFormat.' + m + '({})', () => lf[m]({}));
    t('listFormat.' + m + '(function)', () => lf[m](function () {}));
    t('listFormat.' + m + '()', () => lf[m]());
    t('listFormat.' + m + '([])', () => lf[m]([]));
    t('listFormat.' + m + '(proxy of an array)', () => lf[m](spy('array', ['x', 'y'])));
    t('listFormat.' + m + ' @@iterator returns 1', () => lf[m]({ [Symbol.iterator]() { return 1; } }));
    t('listFormat.' + m + ' next returns 1', () => lf[m]({ [Symbol.iterator]() { return { next() { return 1; } }; } }));
    t('listFormat.' + m + ' next is 1', () => lf[m]({ [Symbol.iterator]() { return { next: 1 }; } }));
    t('listFormat.' + m + ' return throws', () => lf[m]({ [Symbol.iterator]() { return { next() { return { value: 1, done: false }; }, return() { throw new Error('from return'); } }; } }));
    t('listFormat.' + m + ' results read', () => lf[m]({ [Symbol.iterator]() { let n = 0; return { next() { return spy('result' + n, n++ < 1 ? { value: 'a', done: false } : { done: true }); } }; } }));
    t('listFormat.' + m + ' with Array.prototype[Symbol.iterator] replaced', () => {
      const original = Array.prototype[Symbol.iterator];
      let n = 0;
      Array.prototype[Symbol.iterator] = function () { n++; return original.call(this); };
      try { return [lf[m](['a', 'b']), n]; } finally { Array.prototype[Symbol.iterator] = original; }
    });
    t('listFormat.' + m + ' with %ArrayIteratorPrototype%.next replaced', () => {
      const proto = Object.getPrototypeOf([][Symbol.iterator]());
      const original = proto.next;
      let n = 0;
      proto.next = function () { n++; return original.call(this); };
      try { return [lf[m](['a', 'b']), n]; } finally { proto.next = original; }
    });
    t('ListFormat#' + m + ' on another Intl object', () => Intl.ListFormat.prototype[m].call(new Intl.NumberFormat(), iterable(['a'], 'it')));
  }
  t('subclass of ListFormat', () => { class L extends Intl.ListFormat {} return new L('en', { type: 'disjunction' }).format(['a', 'b']); });

  t('segments', () => {
    const s = new Intl.Segmenter('en', { granularity: 'word' }).segment('hi there');
    const it = s[Symbol.iterator]();
    return [it.next().value.segment, s.containing(4).segment, Object.prototype.toString.call(it), s[Symbol.iterator].name, Function.prototype.toString.call(s[Symbol.iterator])];
  });
  t('segment()', () => [...new Intl.Segmenter().segment()].map((x) => x.segment).join('|'));
  t('locale maximize/minimize', () => [new Intl.Locale('pt').maximize().toString(), new Intl.Locale('pt-Latn-BR').minimize().toString()]);
  t('Locale#maximize on {}', () => Intl.Locale.prototype.maximize.call({}));
  t('dateTimeFormat.formatRange', () => new Intl.DateTimeFormat('en', { timeZone: 'UTC' }).formatRange(counted('a', 0), counted('b', 864e5)));
  t('DateTimeFormat#formatRange on {}', () => Intl.DateTimeFormat.prototype.formatRange.call({}, counted('a', 0), counted('b', 864e5)));
  t('dateTimeFormat.formatRangeToParts', () => new Intl.DateTimeFormat('en', { timeZone: 'UTC' }).formatRangeToParts(0, 864e5).length);
  // A builtin never reads a missing argument from Array.prototype: a guard that did would run these getters.
  t('missing arguments are not looked up on Array.prototype', () => {
    for (let i = 0; i < 3; i++) Object.defineProperty(Array.prototype, i, { get() { log.push('Array.prototype[' + i + ']'); return undefined; }, set(v) { log.push('set Array.prototype[' + i + ']'); }, configurable: true });
    try {
      return ['a'.localeCompare(), (5).toLocaleString(), 5n.toLocaleString(), new Date(0).toLocaleString(), 'a'.toLocaleUpperCase(), 'a'.normalize(),
        (() => { try { return nf.formatRange(1); } catch (e) { return e.constructor.name; } })(), nf.formatToParts().length, new Intl.ListFormat('en').format(),
        [...new Intl.Segmenter('en').segment()].length, (() => { try { return new Intl.DisplayNames('en', { type: 'region' }).of(); } catch (e) { return e.constructor.name; } })(),
        new Intl.Collator('en').compare(), nf.format()];
    } finally {
      for (let i = 0; i < 3; i++) delete Array.prototype[i];
    }
  });
  t('Intl tag and keys', () => [Object.prototype.toString.call(Intl), Object.keys(Intl).join()]);
  t('frozen prototype', () => { Object.freeze(Intl.NumberFormat.prototype); return new Intl.NumberFormat('en').format(2); });
  return out;
`;
