// The prelude's guards on strings, arrays, typed arrays, regular expressions, URI encoding and JSON.stringify bound
// what a script can build, and must otherwise be V8's own builtins to the script: each case runs the same probe in a
// plain isolated-vm context (same V8, no prelude) and in the sandbox, and compares what the script can observe:
// which conversions run (valueOf, toString, Symbol.toPrimitive) and in what order, which properties are read (through
// proxies), what is returned, and what is thrown, with its type and message. The bounds themselves are kept by
// string-builders.test.ts, regexp-source.test.ts, replace-bound.test.ts and json-bound.test.ts.
import t from 'tap';
import ivm from 'isolated-vm';
import { FakeHost } from './helpers/fake-host.ts';
import { startEngine } from './helpers/engine.ts';

const engine = await startEngine({ poolSize: 1 });
t.teardown(() => engine.close());
const plainIsolate = new ivm.Isolate({ memoryLimit: 128 });
t.teardown(() => plainIsolate.dispose());

// What the probes share: a log, values that log their conversions, proxies that log every operation on them, and T,
// which logs what a call returned or threw.
const PROBE = `const log = [];
const L = (s) => log.push(s);
const spy = (name, v) => ({ toString() { L('toString:' + name); return typeof v === 'string' ? v : String(v); }, valueOf() { L('valueOf:' + name); return v; } });
const prim = (name, v) => ({ [Symbol.toPrimitive](hint) { L('toPrimitive:' + name + ':' + hint); return v; } });
const traced = (name, target) => new Proxy(target, {
  get(o, k, r) { L('get:' + name + ':' + String(k)); return Reflect.get(o, k, r); },
  has(o, k) { L('has:' + name + ':' + String(k)); return Reflect.has(o, k); },
  getOwnPropertyDescriptor(o, k) { L('gopd:' + name + ':' + String(k)); return Reflect.getOwnPropertyDescriptor(o, k); },
  ownKeys(o) { L('ownKeys:' + name); return Reflect.ownKeys(o); },
  getPrototypeOf(o) { L('getPrototypeOf:' + name); return Reflect.getPrototypeOf(o); },
  set(o, k, v, r) { L('set:' + name + ':' + String(k)); return Reflect.set(o, k, v, r); },
  defineProperty(o, k, d) { L('define:' + name + ':' + String(k)); return Reflect.defineProperty(o, k, d); },
});
const shown = (r) => (typeof r === 'string' ? JSON.stringify(r) : typeof r === 'object' && r !== null ? 'object ' + Object.prototype.toString.call(r) : String(r));
const T = (label, f) => { try { L(label + ' => ' + shown(f())); } catch (e) { L(label + ' threw ' + (e && e.constructor && e.constructor.name) + ': ' + (e && e.message)); } };
`;

/** What the probe logged, in the sandbox. */
const sandbox = async (body: string): Promise<unknown> => {
  const r = await engine.execute({
    source: `return (() => {\n${PROBE}\n${body}\nreturn log;\n})()`,
    bindings: [],
    hostCall: new FakeHost().hostCall,
    limits: { wallMs: 10000, cpuMs: 10000 },
  });
  if (!r.ok) throw new Error(`sandbox: ${r.error?.type}: ${r.error?.message}`);
  return r.result;
};
/** The same in a fresh plain context. */
const plain = async (body: string): Promise<unknown> => {
  const context = await plainIsolate.createContext();
  try {
    return JSON.parse((await context.eval(`JSON.stringify((() => {\n${PROBE}\n${body}\nreturn log;\n})())`, { timeout: 10000 })) as string);
  } finally {
    context.release();
  }
};
const same = async (t: Pick<typeof import('tap').default, 'same'>, body: string, what: string) => {
  const [inSandbox, inPlain] = [await sandbox(body), await plain(body)];
  t.same(inSandbox, inPlain, what);
};

t.test('repeat, padStart and padEnd convert each argument once, in order, and throw as V8 does', async (t) => {
  await same(
    t,
    `
    T('repeat', () => String.prototype.repeat.call(spy('receiver', 'ab'), spy('count', 2)));
    T('repeat of null', () => String.prototype.repeat.call(null, spy('count', 2)));
    T('repeat of a symbol', () => String.prototype.repeat.call(Symbol('x'), 2));
    T('repeat Infinity', () => 'a'.repeat(Infinity));
    T('repeat -1', () => 'a'.repeat(spy('count', -1)));
    T('repeat -Infinity', () => 'a'.repeat(new (class Count { valueOf() { L('valueOf:count'); return -Infinity; } })()));
    T('repeat [-1]', () => 'a'.repeat([-1]));
    T('repeat "-1.5"', () => 'a'.repeat('-1.5'));
    T('empty repeat 2^40', () => ''.repeat(2 ** 40));
    T('repeat 1n', () => 'a'.repeat(1n));
    T('repeat 2.7', () => 'ab'.repeat(2.7));
    T('padStart', () => String.prototype.padStart.call(spy('receiver', 'ab'), spy('max', 5), spy('fill', 'xy')));
    T('padEnd', () => String.prototype.padEnd.call(prim('receiver', 'ab'), prim('max', 5), prim('fill', 'xy')));
    T('padEnd of undefined', () => String.prototype.padEnd.call(undefined, spy('max', 5)));
    T('padEnd 2^40 with an empty fill', () => 'ab'.padEnd(2 ** 40, ''));
    T('padStart shorter than the string', () => 'abc'.padStart(spy('max', 2), spy('fill', 'z')));
    T('padStart a symbol', () => 'a'.padStart(Symbol()));
    T('padStart 2^40', () => 'ab'.padStart(2 ** 40, spy('fill', 'x')));
  `,
    'conversions, results and errors',
  );
});

t.test('join and toLocaleString of arrays read the length, then the separator, then each element once', async (t) => {
  await same(
    t,
    `
    T('join', () => Array.prototype.join.call(traced('o', { length: spy('length', 2), 0: 'a', 1: 'b' }), spy('sep', '-')));
    T('join past 2^32 - 1', () => Array.prototype.join.call({ length: 2 ** 32 + 1 }, spy('sep', '-')));
    T('join of a cycle', () => { const a = [1]; a.push(a); return a.join(spy('sep', ';')); });
    T('join of an object in a cycle', () => { const o = { length: 2, 0: 1 }; o[1] = { toString() { return Array.prototype.join.call(o, spy('inner', '+')); } }; return Array.prototype.join.call(o, spy('sep', ';')); });
    T('join of an empty array', () => [].join(spy('sep', ';')));
    T('join of a sparse array', () => { const a = []; a[2 ** 20] = 'x'; return [a.join('').length, a.join().length]; });
    T('toLocaleString', () => Array.prototype.toLocaleString.call(traced('o', { length: 2, 0: 1, 1: { toLocaleString() { L('args ' + arguments.length); return prim('r', 'R'); } } }), 'en'));
    T('toLocaleString not callable', () => [{ toLocaleString: 1 }].toLocaleString());
    T('toLocaleString a string', () => [{ toLocaleString: 'abc' }].toLocaleString());
    T('toLocaleString of null', () => Array.prototype.toLocaleString.call(null));
    T('toLocaleString past 2^32 - 1', () => Array.prototype.toLocaleString.call({ length: 2 ** 32 + 1 }));
    T('toString', () => Array.prototype.toString.call(traced('o', { length: 1, 0: 'a', join: Array.prototype.join })));
    T('encodeURI', () => encodeURI(spy('uri', 'a b')));
    T('encodeURIComponent of a symbol', () => encodeURIComponent(Symbol()));
    T('escape', () => escape(prim('s', 'a b')));
  `,
    'conversions, reads, results and errors',
  );
});

t.test('join and toLocaleString of typed arrays check the receiver first and use its own length', async (t) => {
  await same(
    t,
    `
    T('join of a detached array', () => { const a = new Uint8Array(4); a.buffer.transfer(); return a.join(spy('sep', '-')); });
    T('join of an array', () => Uint8Array.prototype.join.call([1], spy('sep', '-')));
    T('join detached by its separator', () => { const a = new Uint8Array(4); return a.join({ toString() { a.buffer.transfer(); return '-'; } }); });
    T('join with a length property', () => { const a = new Uint8Array(3); Object.defineProperty(a, 'length', { value: 1 }); return a.join(spy('sep', '-')); });
    T('join of BigInts', () => new BigUint64Array([1n, 2n]).join(spy('sep', '-')));
    T('toLocaleString with a length property', () => { const a = new Float64Array(3); Object.defineProperty(a, 'length', { value: 1 }); return a.toLocaleString(); });
    T('toLocaleString of a detached array', () => { const a = new Uint8Array(4); a.buffer.transfer(); return a.toLocaleString(); });
    T('toLocaleString of an array', () => Uint8Array.prototype.toLocaleString.call([1]));
    T('toLocaleString of an object', () => Uint8Array.prototype.toLocaleString.call({}));
    T('toLocaleString calls each number', () => { const saved = Number.prototype.toLocaleString; Number.prototype.toLocaleString = function (...a) { L('number ' + a.length + ' ' + typeof this); return prim('x', 'x'); }; try { return new Uint8Array(2).toLocaleString() + new Uint8Array(1).toLocaleString('en', { style: 'decimal' }); } finally { Number.prototype.toLocaleString = saved; } });
    T('toLocaleString detached by an element', () => { const a = new Uint8Array(3); const saved = Number.prototype.toLocaleString; Number.prototype.toLocaleString = function () { a.buffer.transfer(); return 'n'; }; try { return a.toLocaleString(); } finally { Number.prototype.toLocaleString = saved; } });
  `,
    'receiver checks, lengths, results and errors',
  );
});

t.test('the RegExp constructor and compile read and convert their arguments as V8 does', async (t) => {
  await same(
    t,
    `
    const like = (name, extra) => traced(name, Object.assign({ [Symbol.match]: true, source: 'a+', flags: 'g', constructor: RegExp }, extra));
    T('RegExp(regexp)', () => RegExp(traced('re', /ab/g)).source);
    T('new RegExp(regexp, flags)', () => new RegExp(traced('re', /ab/g), spy('flags', 'i')).flags);
    T('RegExp(regexp-like)', () => RegExp(like('like')).source);
    T('new RegExp(regexp-like)', () => new RegExp(like('like')).flags);
    T('new RegExp(regexp-like, flags)', () => new RegExp(like('like'), spy('flags', 'y')).flags);
    T('RegExp of a RegExp whose Symbol.match is undefined', () => { const r = /a/; r[Symbol.match] = undefined; return RegExp(r) === r; });
    T('RegExp of a RegExp whose Symbol.match is false', () => { const r = /a/; r[Symbol.match] = false; return RegExp(r) === r; });
    T('new RegExp(pattern, flags)', () => new RegExp(spy('pattern', 'x'), spy('flags', 'g')).toString());
    T('invalid flags', () => new RegExp(spy('pattern', 'x'), spy('flags', 'gg')));
    T('invalid pattern', () => new RegExp(spy('pattern', '('), spy('flags', 'g')));
    T('a new target', () => Reflect.construct(RegExp, [spy('pattern', 'x'), spy('flags', 'g')], traced('newTarget', function () {})).flags);
    T('a new target without a prototype', () => { const nt = function () {}; nt.prototype = null; return Object.getPrototypeOf(Reflect.construct(RegExp, ['x'], nt)) === RegExp.prototype; });
    T('a subclass', () => { class R extends RegExp {} const r = new R('a', 'g'); return [r instanceof R, r.constructor === R, r.flags].join(); });
    T('a symbol', () => new RegExp(Symbol()));
    T('compile', () => { const r = /a/g; r.lastIndex = 3; const x = r.compile(spy('pattern', 'b'), spy('flags', 'i')); return [x === r, r.source, r.flags, r.lastIndex].join(); });
    T('compile a RegExp with flags', () => /a/g.compile(/b/y, spy('flags', 'g')));
    T('compile of an object', () => RegExp.prototype.compile.call({}, spy('pattern', 'x')));
    T('compile an invalid pattern', () => /a/.compile(spy('pattern', '('), spy('flags', 'g')));
    T('source of the prototype', () => RegExp.prototype.source);
    T('source of an object', () => Object.getOwnPropertyDescriptor(RegExp.prototype, 'source').get.call({}));
  `,
    'reads, conversions, results and errors',
  );
});

t.test('match, matchAll and search look up their method once and make a RegExp of anything else', async (t) => {
  await same(
    t,
    `
    T('match', () => 'xab'.match(traced('m', { toString() { L('toString:m'); return 'a'; } })));
    T('match a string', () => String.prototype.match.call(spy('receiver', 'xab'), spy('pattern', 'a')).index);
    T('match of null', () => String.prototype.match.call(null, spy('pattern', 'a')));
    T('match a custom matcher', () => 'x'.match({ [Symbol.match](s) { L('custom ' + s); return 1; } }));
    T('match with RegExp.prototype[Symbol.match] replaced', () => { const o = RegExp.prototype[Symbol.match]; RegExp.prototype[Symbol.match] = function (s) { L('matcher ' + this.source + ' ' + this.flags + ' ' + s); return 9; }; try { return 'x'.match('y'); } finally { RegExp.prototype[Symbol.match] = o; } });
    T('matchAll a string', () => [...String.prototype.matchAll.call(spy('receiver', 'aba'), spy('pattern', 'a'))].length);
    T('matchAll a non-global RegExp', () => 'a'.matchAll(traced('re', /a/)));
    T('matchAll a RegExp-like object', () => 'a'.matchAll(traced('like', { [Symbol.match]: true, flags: spy('flags', 'x') })));
    T('matchAll a RegExp-like object without flags', () => 'a'.matchAll(traced('like', { [Symbol.match]: true, flags: undefined })));
    T('matchAll with RegExp.prototype[Symbol.matchAll] replaced', () => { const o = RegExp.prototype[Symbol.matchAll]; RegExp.prototype[Symbol.matchAll] = function (s) { L('matcher ' + this.source + ' ' + this.flags + ' ' + s); return 9; }; try { return 'x'.matchAll('y'); } finally { RegExp.prototype[Symbol.matchAll] = o; } });
    T('search a string', () => String.prototype.search.call(spy('receiver', 'xab'), spy('pattern', 'b')));
    T('search a RegExp', () => 'xab'.search(traced('re', /b/)));
    T('a Symbol.match that is not callable', () => 'a'.match({ [Symbol.match]: 1 }));
    T('a Symbol.search that is not callable, of a class', () => 'a'.search(new (class Foo { get [Symbol.search]() { return 'str'; } })()));
    T('a Symbol.match that is not callable, of a function', () => 'a'.match(Object.assign(() => {}, { [Symbol.match]: [1] })));
    T('a Symbol.matchAll that is not callable', () => 'a'.matchAll({ [Symbol.matchAll]: {} }));
    T('a number, with String.prototype[Symbol.match] defined', () => { Object.defineProperty(String.prototype, Symbol.match, { get() { L('String.prototype[Symbol.match]'); }, configurable: true }); try { return 'a1'.match(1)[0] + 'a1'.search(1) + [...'a1'.matchAll(1)].length; } finally { delete String.prototype[Symbol.match]; } });
  `,
    'reads, conversions, results and errors',
  );
});

t.test('Symbol.split and Symbol.matchAll of RegExp-like objects read their species, flags and lastIndex as V8 does', async (t) => {
  await same(
    t,
    `
    const like = (name, extra) => traced(name, Object.assign({ [Symbol.match]: true, source: ',', flags: '', lastIndex: spy('lastIndex', 1) }, extra));
    const split = (rx, ...args) => RegExp.prototype[Symbol.split].call(rx, ...args);
    const matchAll = (rx, s) => RegExp.prototype[Symbol.matchAll].call(rx, s);
    T('split without a constructor', () => split(like('like', { constructor: undefined }), spy('string', 'a,b,c'), spy('limit', 5)).join('|'));
    T('split with a species', () => split(like('like', { constructor: traced('C', { [Symbol.species]: function (r, f) { L('species ' + typeof r + ' ' + f + ' ' + typeof new.target); return /,/y; } }) }), 'a,b').join('|'));
    T('split with a null species', () => split(like('like', { constructor: { [Symbol.species]: null } }), 'a,b').join('|'));
    T('split with a species that is not a constructor', () => split(like('like', { constructor: { [Symbol.species]: () => 1 } }), 'a,b'));
    T('split with a constructor that is not an object', () => split(like('like', { constructor: 1 }), 'a,b'));
    T('split of a number', () => split(1, 'a,b'));
    T('split by a subclass', () => { class R extends RegExp {} return 'a1b'.split(new R('\\\\d')).join(); });
    T('matchAll without a constructor', () => [...matchAll(like('like', { constructor: undefined, flags: spy('flags', 'g') }), spy('string', 'a,b,c'))].map((m) => m.index).join());
    T('matchAll with a species', () => matchAll(like('like', { constructor: { [Symbol.species]: function (r, f) { L('species ' + f); return { lastIndex: 0 }; } } }), 'a'));
    T('matchAll a RegExp', () => [...'a1b2'.matchAll(traced('re', /\\d/g))].length);
  `,
    'reads, conversions, results and errors',
  );
});

t.test('replace and replaceAll look up Symbol.replace once, check a RegExp first, and convert in order', async (t) => {
  await same(
    t,
    `
    T('replace', () => String.prototype.replace.call(spy('receiver', 'xabx'), spy('search', 'ab'), spy('replacement', '[$&$\`$\\'$$]')));
    T('replace with a function', () => 'xabx'.replace('ab', function () { L('called ' + JSON.stringify([...arguments]) + ' ' + (this === undefined)); return prim('returned', 'Q'); }));
    T('replace of null', () => String.prototype.replace.call(null, spy('search', 'a'), 'b'));
    T('replace with a custom replacer', () => 'abc'.replace(traced('custom', { [Symbol.replace](s, r) { L('custom ' + s + ' ' + r); return 'C'; } }), 'r'));
    T('replace with a Symbol.replace that is not callable', () => 'abc'.replace({ [Symbol.replace]: 'x' }, 'r'));
    T('a number, with String.prototype[Symbol.replace] defined', () => { String.prototype[Symbol.replace] = function () { L('String.prototype[Symbol.replace]'); return 'replaced'; }; try { return 'a1b'.replace(1, 'X') + 'a1b'.replaceAll(1, 'Y') + 'a1b'.replace('1', 'Z'); } finally { delete String.prototype[Symbol.replace]; } });
    T('replaceAll', () => String.prototype.replaceAll.call(spy('receiver', 'xabxab'), spy('search', 'ab'), spy('replacement', '<$&>')));
    T('replaceAll a non-global RegExp', () => 'aa'.replaceAll(traced('re', /a/), 'b'));
    T('replaceAll a RegExp', () => String.prototype.replaceAll.call(spy('receiver', 'aa'), traced('re', /a/g), spy('replacement', 'b')));
    T('replaceAll a RegExp-like object', () => 'aa'.replaceAll(traced('like', { [Symbol.match]: true, flags: spy('flags', 'g'), [Symbol.replace]: (s, r) => 'R' }), 'b'));
    T('replaceAll a RegExp-like object with null flags', () => 'aa'.replaceAll(traced('like', { [Symbol.match]: true, flags: null }), 'b'));
    T('replaceAll the empty string', () => 'abc'.replaceAll('', '-'));
  `,
    'reads, conversions, results and errors',
  );
});

t.test('RegExp.prototype[Symbol.replace] expands templates as V8 does, named groups included', async (t) => {
  await same(
    t,
    `
    const custom = (results) => { const r = /./; r.exec = function () { L('exec'); const x = results.shift(); return x === undefined ? null : x; }; return r; };
    const replace = (rx, s, t) => RegExp.prototype[Symbol.replace].call(rx, s, t);
    T('a template', () => replace(traced('re', /(b)(?<n>c)?/g), spy('string', 'abcab'), spy('template', '[$1|$<n>|$2|$0|$01|$10|$<x>|$<n|$&]')));
    T('a receiver that is not an object', () => replace(1, spy('string', 'a'), 'b'));
    T('a function', () => 'abcab'.replace(/(b)(?<n>c)?/g, function () { L('called ' + JSON.stringify([...arguments])); return 'F'; }));
    T('groups that are a string', () => replace(custom([{ 0: 'b', index: 1, length: 1, groups: 'xyz' }]), 'abc', '[$<length>]'));
    T('groups that are null', () => replace(custom([{ 0: 'b', index: 1, length: 1, groups: null }]), 'abc', '[x]'));
    T('groups that are a string, to a function', () => replace(custom([{ 0: 'b', index: 1, length: 1, groups: 'xyz' }]), 'abc', function () { L('called ' + JSON.stringify([...arguments])); return 'F'; }));
    T('groups read through a proxy', () => replace(custom([{ 0: 'b', index: 1, length: 1, groups: traced('groups', { n: prim('n', 'N') }) }]), 'abc', '[$<n>$<m>]'));
    T('a result read through a proxy', () => replace(custom([traced('result', { 0: 'b', 1: 'c', index: 1, length: 2 })]), 'abcd', '[$1]'));
    T('an index past the end', () => replace(custom([{ 0: 'b', index: 99, length: 1 }]), 'abc', "[$\`|$']"));
    T('a negative index', () => replace(custom([{ 0: 'b', index: -5, length: 1 }]), 'abc', "[$\`|$']"));
    T('lastIndex, global', () => { const r = /b/g; r.lastIndex = 5; return 'abcb'.replace(r, 'X') + r.lastIndex; });
    T('lastIndex, sticky', () => { const r = /b/y; r.lastIndex = 1; return 'abcb'.replace(r, 'X') + r.lastIndex; });
    T('flags read through a proxy', () => replace(traced('re', /a/g), 'aXa', '$&$&'));
  `,
    'reads, conversions, results and errors',
  );
});

t.test('the legacy RegExp statics reflect only the matches the script made', async (t) => {
  await same(
    t,
    `
    T('after replace', () => { 'zabcz'.replace(/(b)(c)/, 'X'); return [RegExp.$1, RegExp.$2, RegExp.lastMatch, RegExp.lastParen, RegExp.leftContext, RegExp.rightContext, RegExp.input].join('|'); });
    T('inside a replace function', () => { 'zabcz'.replace(/(b)(c)/, () => RegExp.$1 + RegExp.lastMatch); return RegExp.$1; });
    T('after split', () => { 'a1b'.split(/(\\d)/); return RegExp.$1 + RegExp.input; });
    T('after JSON.stringify of strings it escapes', () => { /(q)/.exec('q'); JSON.stringify(['a"b\\n', { 'k\\t': '\\ud800' }]); return RegExp.$1 + RegExp.input + RegExp.lastMatch; });
    T('after a long match', () => { 'x'.repeat(300).match('x'.repeat(300)); return RegExp.lastMatch.length + RegExp.input.length; });
  `,
    'statics',
  );
});

t.test('JSON.stringify runs toJSON, replacers, getters and proxies as V8 does', async (t) => {
  await same(
    t,
    `
    const S = (label, ...args) => T(label, () => JSON.stringify(...args));
    S('toJSON', { a: { toJSON(k) { L('toJSON ' + k); return { z: 1 }; } } });
    S('a replacer function', { a: 1, b: { c: [2] } }, function (k, v) { L('replacer ' + JSON.stringify(k) + ' ' + typeof v + ' ' + (Array.isArray(this) ? 'array' : typeof this)); return v; });
    S('a property list read through a proxy', traced('list', ['b', 'a']), null);
    S('a property list', { a: 1, b: 2, c: { a: 3, d: 4 } }, ['a', 'c', 1, new String('b'), new Number(1), 'a']);
    S('a property list of getters', { get a() { L('get a'); return 1; }, get b() { L('get b'); return 2; } }, ['b', 'a']);
    S('a String object', { s: Object.assign(new String('abc'), { toString() { L('String toString'); return 'xyz'; } }) });
    S('a Number object', { n: Object.assign(new Number(3), { valueOf() { L('Number valueOf'); return 4; } }) });
    S('space as a Number object', { a: [1] }, null, Object.assign(new Number(2), { valueOf() { L('space valueOf'); return 3; } }));
    S('space as a String object', { a: [1] }, null, Object.assign(new String('--'), { toString() { L('space toString'); return '~~'; } }));
    S('a BigInt', { a: 1n });
    S('a cycle', (() => { const a = {}; a.a = a; return a; })());
    S('symbols', { [Symbol()]: 1, a: Symbol() });
    S('a string with escapes', 'a"\\u2028\\ud800\\udc00\\udc00');
    S('a long string with escapes', '\\u0001"\\ud83d\\ude00'.repeat(30000));
    S('a replacer returning a String object', 5, () => new String('w'));
    S('a revoked proxy', (() => { const r = Proxy.revocable({}, {}); r.revoke(); return { a: r.proxy }; })());
  `,
    'calls, reads, results and errors',
  );
});
