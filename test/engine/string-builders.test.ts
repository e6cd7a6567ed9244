// the builtins that assemble one string from many parts (Array#join, toString and toLocaleString, their
// typed-array forms, encodeURI, encodeURIComponent, escape) are bounded by the prelude like repeat and padEnd
// (prelude-resources.ts). What a script sees of them is otherwise unchanged: these cases pin the semantics kept.
import t from 'tap';
import { FakeHost } from './helpers/fake-host.ts';
import { startEngine } from './helpers/engine.ts';

const engine = await startEngine({ poolSize: 1 });
t.teardown(() => engine.close());
const run = async (source: string) => {
  const r = await engine.execute({ source, bindings: [], hostCall: new FakeHost().hostCall, limits: { wallMs: 5000, cpuMs: 5000 } });
  return r.ok ? r.result : `${r.error?.type}: ${r.error?.message}`;
};
const thrown = (expr: string) => `try { ${expr}; return 'no error' } catch (e) { return e.constructor.name + ': ' + e.message }`;

t.test('join, toString and toLocaleString keep their semantics', async (t) => {
  t.equal(await run(`return [1, null, undefined, 'a', { toString() { return 'o' } }, [2, 3]].join('-')`), '1---a-o-2,3');
  t.same(
    await run('const a = [1, 2]; a.push(a); return [a.join(), String(a), a.toString(), `${a}`]'),
    ['1,2,', '1,2,', '1,2,', '1,2,'],
    'a cycle joins as empty where it recurs',
  );
  t.same(
    await run(
      `return [[1, [2, [3]]].join(';'), [].join(), [, ,].join(), Array.prototype.join.call({ length: 3, 0: 'x', 2: 'z' }, '+'), Array.prototype.join.call('abc', '.')]`,
    ),
    ['1;2,3', '', ',', 'x++z', 'a.b.c'],
  );
  t.equal(await run(thrown('[Symbol("s")].join()')), 'TypeError: Cannot convert a Symbol value to a string');
  t.equal(await run(thrown('Array.prototype.join.call(null)')), 'TypeError: Array.prototype.join called on null or undefined');
  t.equal(
    await run(`return [1234.5, new Date(0)].toLocaleString('en-US', { timeZone: 'UTC' })`),
    '1,234.5,1/1/1970, 12:00:00 AM',
    'locales and options reach the elements',
  );
  t.same(
    await run(`let n = 0; const a = [{ toString() { n++; return 'x' } }, { toString() { n++; return 'y' } }]; return [a.join(), n]`),
    ['x,y', 2],
    'each element is converted once',
  );
  t.same(await run('return [Array.prototype.join.length, Array.prototype.join.name, Array.prototype.toLocaleString.length]'), [1, 'join', 0]);
  t.same(
    await run(
      `Object.defineProperty(Array.prototype, '0', { set() { globalThis.leak = this }, configurable: true }); return [['a', 'b'].join('+'), typeof globalThis.leak]`,
    ),
    ['a+b', 'undefined'],
    'a setter on Array.prototype never sees the parts being joined',
  );
});

t.test('typed arrays and percent-encoding keep their semantics', async (t) => {
  t.same(
    await run(
      `return [new Uint8Array([1, 2, 3]).join('|'), new Float64Array([1.5, -2]).join(), String(new Int16Array([7, -7])), new Uint8Array([1, 2]).toLocaleString()]`,
    ),
    ['1|2|3', '1.5,-2', '7,-7', '1,2'],
  );
  t.match(await run(thrown('Uint8Array.prototype.join.call([1, 2])')), /^TypeError: /, 'join of a typed array still checks its receiver');
  t.same(await run(`return [encodeURIComponent('a b/é€😀'), encodeURI('http://x/a b?q=é'), escape('a b€'), decodeURIComponent(encodeURIComponent('é'))]`), [
    'a%20b%2F%C3%A9%E2%82%AC%F0%9F%98%80',
    'http://x/a%20b?q=%C3%A9',
    'a%20b%u20AC',
    'é',
  ]);
  t.equal(await run(thrown(`encodeURIComponent('\\uD800')`)), 'URIError: URI malformed');
  t.same(await run('return [encodeURIComponent.name, encodeURIComponent.length]'), ['encodeURIComponent', 1]);
});

t.test('up to the limit they build; past it they refuse with a RangeError', async (t) => {
  t.equal(await run(`return Array(2).fill('x'.repeat(2 ** 23)).join('').length`), 2 ** 24, '16 M characters joined');
  t.equal(await run(thrown(`Array(2).fill('x'.repeat(2 ** 24)).join('')`)), 'RangeError: Invalid string length');
  t.equal(await run(thrown(`Array(3).fill('x'.repeat(2 ** 23)).toLocaleString()`)), 'RangeError: Invalid string length');
  t.equal(await run('return new Uint8Array(2 ** 22).join().length'), 2 ** 23 - 1, 'a typed array whose text fits is joined at once');
  t.equal(await run(thrown('new Uint8Array(2 ** 23).join(",,")')), 'RangeError: Invalid string length');
  t.equal(
    await run(thrown('const a = []; a.length = 2 ** 32 - 1; a.join()')),
    'RangeError: Invalid string length',
    'a huge sparse array is refused at once, not walked',
  );
  t.equal(await run(`return encodeURIComponent('x'.repeat(2 ** 24 - 1)).length`), 2 ** 24 - 1, 'unreserved characters count once');
  t.equal(await run(thrown(`encodeURIComponent('é'.repeat(2 ** 22))`)), 'RangeError: Invalid string length', '4 M "é" would be 24 M characters');
  t.equal(await run(`return escape('€'.repeat(2 ** 21)).length`), 6 * 2 ** 21);
});
