// Intl and the locale-aware methods look and behave in the sandbox exactly as in plain V8, though every one of them
// is guarded (engine/prelude-intl.ts: inputs capped, ICU memory charged): descriptors, names, lengths, prototypes and
// Function#toString from the first read on; arguments converted once, in V8's order, with V8's errors; iterables
// read step by step and closed on error; the same function on every read of a bound getter. Each probe
// (helpers/intl-probes.ts) runs in a plain isolated-vm context (same V8, no prelude) and in the sandbox, label by
// label. The one declared removal, Intl.v8BreakIterator (non-standard; a break iterator over any text, outside the
// heap), is deleted in the plain context first and checked for on its own.
import t from 'tap';
import ivm from 'isolated-vm';
import { FakeHost } from './helpers/fake-host.ts';
import { startEngine } from './helpers/engine.ts';
import { BEHAVIOUR_PROBE, SHAPE_PROBE } from './helpers/intl-probes.ts';
import { MAX_INTL_INPUT } from '../../engine/prelude-intl.ts';

const engine = await startEngine({ poolSize: 1 });
t.teardown(() => engine.close());
const plainIsolate = new ivm.Isolate({ memoryLimit: 64 });
t.teardown(() => plainIsolate.dispose());

type Texts = { [label: string]: string };
const sandbox = async (body: string): Promise<Texts> => {
  const r = await engine.execute({
    source: `return JSON.stringify((() => {\n${body}\n})())`,
    bindings: [],
    hostCall: new FakeHost().hostCall,
    limits: { wallMs: 10000, cpuMs: 10000 },
  });
  if (!r.ok) throw new Error(`sandbox: ${r.error?.type}: ${r.error?.message}`);
  return JSON.parse(r.result as string);
};
const plain = async (body: string): Promise<Texts> => {
  const context = await plainIsolate.createContext();
  try {
    return JSON.parse((await context.eval(`delete Intl.v8BreakIterator; JSON.stringify((() => {\n${body}\n})())`, { timeout: 10000 })) as string);
  } finally {
    context.release();
  }
};

/** Every label whose text differs, with both texts (an empty list when the records are equal). */
function differences(expected: Texts, actual: Texts): string[] {
  const out: string[] = [];
  for (const label of new Set([...Object.keys(expected), ...Object.keys(actual)])) {
    if (expected[label] !== actual[label]) out.push(`${label}\n    V8:      ${expected[label]}\n    sandbox: ${actual[label]}`);
  }
  return out;
}

t.test('every Intl constructor, prototype member and locale method is shaped as in V8', async (t) => {
  const [expected, actual] = [await plain(SHAPE_PROBE), await sandbox(SHAPE_PROBE)];
  t.ok(Object.keys(expected).length > 200, `${Object.keys(expected).length} properties compared`);
  t.same(differences(expected, actual), [], "descriptors, names, lengths, prototypes, toString and getter identity are V8's");
  t.equal(actual['globalThis.Intl'], 'data true false true object', 'Intl is a plain data property from the start');
  t.match(
    actual['Intl.NumberFormat (first)'],
    /^data true false true NumberFormat \| 0 \| true \| function NumberFormat\(\) \{ \[native code\] \}/,
    'each constructor is a data property before its first read',
  );
});

t.test('arguments, receivers, options and iterables are handled as in V8', async (t) => {
  const [expected, actual] = [await plain(BEHAVIOUR_PROBE), await sandbox(BEHAVIOUR_PROBE)];
  t.ok(Object.keys(expected).length > 500, `${Object.keys(expected).length} calls compared`);
  t.same(differences(expected, actual), [], "results, errors and every conversion the script can see are V8's");
  // The regressions this replaced, by name.
  t.equal(actual['nf.format(null)'], '0', 'format(null) is 0 (ToNumber), not NaN');
  t.match(actual['nf.formatToParts(-0)'], /"type":"minusSign"/, 'formatToParts(-0) keeps its sign');
  t.match(actual["'a'.localeCompare(symbol)"], /^throws TypeError/, 'localeCompare(Symbol()) throws');
  t.match(
    actual['listFormat.format(iterable yielding a number)'],
    /^throws TypeError: .* \| it @@iterator, it next, it next, it return$/,
    'ListFormat reads an iterable step by step and closes it on a non-string',
  );
  t.equal(actual['nf.format identity'].startsWith('[true,'), true, 'nf.format === nf.format');
});

t.test('Intl.v8BreakIterator, non-standard, is removed whole', async (t) => {
  const r = await sandbox(`return { own: String(Object.getOwnPropertyNames(Intl).includes('v8BreakIterator')), read: typeof Intl.v8BreakIterator };`);
  t.same(r, { own: 'false', read: 'undefined' });
});

t.test('the input caps hold on every conversion path', async (t) => {
  // What reaches ICU is measured after the guard's own conversion: a string from valueOf, toString or
  // @@toPrimitive, a receiver, each string of an iterable (which is closed when the total passes the cap).
  const over = MAX_INTL_INPUT + 1;
  const r = await sandbox(`
    const long = 'x'.repeat(${over});
    const digits = '1'.repeat(${over});
    const out = {};
    const t = (label, f) => { try { f(); out[label] = 'accepted'; } catch (e) { out[label] = e.name + (/longer than ${MAX_INTL_INPUT} characters/.test(e.message) ? ' (cap)' : ': ' + e.message); } };
    const nf = new Intl.NumberFormat('en');
    t('format, a string', () => nf.format(digits));
    t('format, valueOf', () => nf.format({ valueOf: () => digits }));
    t('format, @@toPrimitive', () => nf.format({ [Symbol.toPrimitive]: () => digits }));
    t('formatToParts, toString', () => nf.formatToParts({ valueOf: undefined, toString: () => digits }));
    t('formatRange, the end', () => nf.formatRange(1, { valueOf: () => digits }));
    t('formatRangeToParts, the start', () => nf.formatRangeToParts(digits, 2));
    t('compare', () => new Intl.Collator('en').compare('a', { toString: () => long }));
    t('localeCompare, the receiver', () => String.prototype.localeCompare.call({ toString: () => long }, 'a'));
    t('localeCompare, the argument', () => 'a'.localeCompare(long));
    t('toLocaleUpperCase', () => String.prototype.toLocaleUpperCase.call({ toString: () => long }));
    t('toLocaleLowerCase', () => long.toLocaleLowerCase());
    t('normalize', () => long.normalize());
    t('of', () => new Intl.DisplayNames('en', { type: 'region' }).of({ toString: () => long }));
    t('segment', () => new Intl.Segmenter('en').segment({ toString: () => long }));
    let closed = 0;
    const parts = { [Symbol.iterator]() { let i = 0; return { next: () => (i++ < 3 ? { value: 'y'.repeat(${Math.ceil(over / 2)}), done: false } : { done: true }), return() { closed++; return {}; } }; } };
    t('ListFormat#format', () => new Intl.ListFormat('en').format(parts));
    t('ListFormat#formatToParts', () => new Intl.ListFormat('en').formatToParts(parts));
    out.closed = String(closed);
    return out;`);
  const labels = [
    'format, a string',
    'format, valueOf',
    'format, @@toPrimitive',
    'formatToParts, toString',
    'formatRange, the end',
    'formatRangeToParts, the start',
    'compare',
    'localeCompare, the receiver',
    'localeCompare, the argument',
    'toLocaleUpperCase',
    'toLocaleLowerCase',
    'normalize',
    'of',
    'segment',
    'ListFormat#format',
    'ListFormat#formatToParts',
  ];
  t.same(
    r,
    { ...Object.fromEntries(labels.map((l) => [l, 'RangeError (cap)'])), closed: '2' },
    'each is refused past the cap; the two lists closed their iterators',
  );
});
