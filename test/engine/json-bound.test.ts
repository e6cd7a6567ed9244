// JSON.stringify is bounded by counting the text it will write (engine/prelude/json.js) and refusing past a
// limit before anything is built. Two things must hold for that to be both safe and invisible: the count is exact
// (refusing at limit - 1 and never at the text's own length, or a script's JSON stops short or a big text slips by),
// and the text is the native serializer's, user code included. The first half checks the counting function itself
// against the native serializer on generated values; the second runs JSON.stringify in the sandbox beside Node's.
import t from 'tap';
import { boundJson } from '../../engine/prelude/json.js';
import { FakeHost, BINDINGS } from './helpers/fake-host.ts';
import { startEngine } from './helpers/engine.ts';

type Within = ((value: unknown, replacer: unknown, space: unknown, limit: number) => string | undefined | object) & { OVER: object; misses: number };
const within = boundJson() as unknown as Within;
const rawJSON = (JSON as unknown as { rawJSON(text: string): unknown }).rawJSON;

// A small seeded generator, so a failure names a case that can be replayed.
let seed = 0x2f6b1d;
const rnd = () => {
  seed = (seed * 1103515245 + 12345) & 0x7fffffff;
  return seed / 0x80000000;
};
const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)];
const CHARS = [
  'a',
  'b',
  'Z',
  '0',
  ' ',
  '"',
  '\\',
  '/',
  '\n',
  '\t',
  '\b',
  '\f',
  '\r',
  '\u0001',
  '\u001f',
  '\u007f',
  'é',
  '€',
  '\u2028',
  '😀',
  '\ud800',
  '\udc00',
  '\udbff\udfff',
];
const str = () => Array.from({ length: Math.floor(rnd() * 8) }, () => pick(CHARS)).join('');
const NUMBERS = [0, -0, 1, -1, 3.5, 1e21, 1e-7, 5e-324, -1.7976931348623157e308, NaN, Infinity, -Infinity, 123456789];
function value(depth: number): unknown {
  const r = rnd();
  if (depth <= 0 || r < 0.35) {
    return pick<() => unknown>([
      str,
      () => pick(NUMBERS),
      () => rnd() < 0.5,
      () => null,
      () => undefined,
      () => () => 1,
      () => Symbol('s'),
      () => new Date(Math.floor(rnd() * 1e12)),
      () => new String(str()),
      () => rawJSON(pick(['1', '"q"', 'null', '-2e5'])),
      () => ({ toJSON: (k: string) => (k.length % 2 ? k : [k, 1]) }),
    ])();
  }
  if (r < 0.65) {
    const a: unknown[] = [];
    const n = Math.floor(rnd() * 5);
    for (let i = 0; i < n; i++) if (rnd() < 0.85) a[i] = value(depth - 1);
    a.length = n; // holes are written as null
    return a;
  }
  const o: Record<string, unknown> = {};
  const n = Math.floor(rnd() * 5);
  for (let i = 0; i < n; i++)
    Object.defineProperty(o, pick([str(), String(i), 'k' + i, '__proto__', '']), {
      value: value(depth - 1),
      enumerable: true,
      configurable: true,
      writable: true,
    });
  return o;
}
const replacers: [string, () => unknown][] = [
  ['none', () => undefined],
  [
    'function',
    () =>
      function (this: unknown, k: string, v: unknown) {
        return typeof v === 'number' ? v * 2 : k.startsWith('k1') ? undefined : v;
      },
  ],
  ['list', () => [...Array.from({ length: 4 }, () => pick(['k0', 'k1', 'k2', '', '0', '1', '__proto__'])), 1, new String('k3'), new Number(0)]],
  ['other', () => pick([null, 'x', 42, {}])],
];
const spaces = [undefined, 0, 1, 2, 4, 10, 12, -3, 2.9, '', '\t', '--', 'abcdefghijklmn', new Number(3), new String('..'), NaN];

t.test('the count is exact and the text is the native one, on 600 generated values', async (t) => {
  let checked = 0;
  const wrong: string[] = [];
  for (let i = 0; i < 600; i++) {
    const v = value(4);
    const [kind, makeReplacer] = pick(replacers);
    const replacer = makeReplacer();
    const space = pick(spaces);
    const native = JSON.stringify(v, replacer as never, space as never);
    const label = `case ${i} (${kind}, space ${JSON.stringify(space)}): ${native?.slice(0, 60)}`;
    if (within(v, replacer, space, 1e9) !== native) {
      wrong.push(`${label}: different text`);
      continue;
    }
    if (native === undefined) continue;
    checked++;
    if (within(v, replacer, space, native.length) !== native) wrong.push(`${label}: refused at its own length ${native.length}`);
    if (within(v, replacer, space, native.length - 1) !== within.OVER) wrong.push(`${label}: not refused at ${native.length - 1}`);
  }
  t.same(wrong, [], 'no case differs');
  t.equal(within.misses, 0, 'every refusal came from the count, none from the length of a text already built');
  t.ok(checked > 450, `${checked} texts checked at their length and one less`);
});

t.test('Number and Boolean objects are counted at their widest, and only they are', async (t) => {
  // The count sees '{}' and cannot call valueOf a second time: a Number object is charged the 24 characters of the
  // widest number, a Boolean object the 5 of false. [value, characters charged beyond the text]:
  const cases: [unknown, number][] = [
    [new Number(-1.7976931348623157e308), 0],
    [new Number(1), 23],
    [new Boolean(false), 0],
    [new Boolean(true), 1],
    [[new Number(5), { a: new Boolean(true) }], 24],
  ];
  for (const [v, slack] of cases) {
    const native = JSON.stringify(v);
    t.equal(within(v, undefined, undefined, native.length + slack), native, `${native} fits ${slack} characters above its length`);
    t.equal(within(v, undefined, undefined, native.length + slack - 1), within.OVER, `and not one less`);
  }
  for (const v of [new Map([[1, 2]]), new Set([1]), Object.create(null), new (class Empty {})(), [new Map(), {}]]) {
    const native = JSON.stringify(v);
    t.equal(within(v, undefined, undefined, native.length), native, `${native} (${Object.prototype.toString.call(v)}) is counted exactly`);
  }
});

t.test('user code runs as often and in the same order as without the bound', async (t) => {
  const trace = (log: string[]) => {
    const o = {
      get a() {
        log.push('get a');
        return {
          toJSON(k: string) {
            log.push(`toJSON ${k}`);
            return [1, new String('s')];
          },
        };
      },
      b: Object.assign(new String('x'), {
        toString() {
          log.push('toString');
          return 'y';
        },
      }),
    };
    return o;
  };
  const replacer = (log: string[]) =>
    function (this: unknown, k: string, v: unknown) {
      log.push(`replacer ${k}`);
      return v;
    };
  for (const [name, r] of [
    ['no replacer', () => undefined],
    ['a replacer', replacer],
    ['a list', () => ['b', 'a']],
  ] as const) {
    const native: string[] = [];
    const bounded: string[] = [];
    const a = JSON.stringify(trace(native), (r as (l: string[]) => never)(native), 1);
    const b = within(trace(bounded), (r as (l: string[]) => unknown)(bounded), 1, 1e6);
    t.equal(b, a, `${name}: same text`);
    t.same(bounded, native, `${name}: same calls in the same order`);
  }
});

const engine = await startEngine({ poolSize: 1 });
t.teardown(() => engine.close());
const run = async (source: string, limits = {}) => {
  const r = await engine.execute({ source, bindings: BINDINGS, hostCall: new FakeHost().hostCall, limits: { wallMs: 5000, cpuMs: 5000, ...limits } });
  return r.ok ? r.result : `${r.error?.type}: ${r.error?.message}`;
};

// Each expression evaluated in the sandbox and in this process: JSON.stringify must answer the same, errors included.
const EXPRESSIONS = [
  `JSON.stringify({ b: 1, a: [1, , 3, undefined, () => 1, Symbol('s')], c: { d: null, e: 'é"\\n\\u0001\\ud800😀' } })`,
  `JSON.stringify({ b: 1, 2: 'two', a: 3, 1: 'one' }, ['b', 2, 'a', '1', 'b'])`,
  `JSON.stringify({ a: { a: 1, b: 2 }, b: [{ a: 3, c: 4 }] }, ['a', 'b'], 2)`,
  `JSON.stringify({ x: [1, { y: 2 }] }, function (k, v) { return typeof v === 'number' && !Array.isArray(this) ? [k, v] : v }, '\\t')`,
  `JSON.stringify([new Date(0), { toJSON(k) { return 'key ' + k } }, JSON.rawJSON('1e400')], null, 3)`,
  `JSON.stringify({ a: new String('s'), b: new Number(2), c: new Boolean(false), d: Object(1n) })`,
  `JSON.stringify(1n)`,
  `JSON.stringify({ big: 2n })`,
  `(() => { const a = { b: {} }; a.b.c = a; return JSON.stringify(a) })()`,
  `JSON.stringify(new Proxy({ b: 1, a: 2 }, { ownKeys: () => ['a', 'b'] }))`,
  `JSON.stringify({ a: 1 }, null, new Number(2)) + JSON.stringify({ a: 1 }, null, new String('->'))`,
  `JSON.stringify({ a: { toJSON() { return JSON.stringify({ inner: [1, 2] }, null, 1) } } })`,
  `JSON.stringify(undefined) === undefined && JSON.stringify(() => 1) === undefined && JSON.stringify(Symbol()) === undefined`,
  `[JSON.stringify.name, JSON.stringify.length, Object.keys(JSON).length, typeof JSON.stringify.prototype]`,
  `(() => { try { new JSON.stringify({}) } catch (e) { return e.constructor.name } })()`,
  `JSON.stringify('x'.repeat(100), null, 2).length`,
];
t.test('JSON.stringify in the sandbox answers as the native one does', async (t) => {
  const source = `return [${EXPRESSIONS.map((e) => `(() => { try { return ${e} } catch (e) { return e.constructor.name + ': ' + e.message } })()`).join(',\n')}]`;
  const expected = new Function(source)();
  t.same(await run(source), expected);
});

t.test('up to the limit of a built string it writes; past it, a RangeError before anything is built', async (t) => {
  // {"a":"…"} is 8 characters around the string: 2 ** 24 in all is the most a built string may have.
  t.equal(await run(`return JSON.stringify({ a: 'x'.repeat(2 ** 24 - 8) }).length`), 2 ** 24);
  t.equal(await run(`try { JSON.stringify({ a: 'x'.repeat(2 ** 24 - 7) }); return 'built' } catch (e) { return e.message }`), 'Invalid string length');
  t.equal(
    await run(`try { JSON.stringify({ a: '\\n'.repeat(2 ** 23 - 3) }); return 'built' } catch (e) { return e.message }`),
    'Invalid string length',
    'escapes count twice',
  );
  t.equal(
    await run(`let d = []; for (let i = 0; i < 3000; i++) d = [d]; try { JSON.stringify(d, null, 10); return 'built' } catch (e) { return e.message }`),
    'Invalid string length',
    'indentation that grows with depth counts',
  );
});

t.test('results, arguments and logs are measured before their text is built', async (t) => {
  const shared = `const s = 'x'.repeat(2 ** 24); const refs = Array(30).fill(s);`;
  // The isolates live in this process (poolSize 1, no host processes): its RSS is what they allocate.
  const rssBefore = process.memoryUsage.rss();
  let peak = rssBefore;
  const sampler = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage.rss());
  }, 5);
  t.equal(await run(`${shared} return refs`), 'limit_exceeded: The result is larger than 1048576 bytes.');
  t.equal(await run(`${shared} await files_list({ refs }); return 'called'`), 'limit_exceeded: files_list: the argument is larger than 262144 bytes.');
  t.equal(await run(`${shared} console.log(refs); return 'logged'`), 'logged');
  t.equal(await run(`return Array(3).fill('x'.repeat(100))`, { maxResultBytes: 309 }), 'limit_exceeded: The result is larger than 309 bytes.');
  t.same(await run(`return Array(3).fill('x'.repeat(100))`, { maxResultBytes: 310 }), Array(3).fill('x'.repeat(100)), 'a result of exactly the limit passes');
  clearInterval(sampler);
  // Before the bound each of these built 480 M characters first (about 1 GB each in a host).
  t.ok(peak - rssBefore < 200 * 1024 * 1024, `all refused without building the text (RSS grew ${((peak - rssBefore) / 1048576).toFixed(0)} MB)`);
});
