// compiling a regular expression allocates outside the heap (about 128 bytes per source character:
// a 64 M-character source took a host to 500 MB and returned ok, a 10 M-character alternation ended one in a fatal
// out-of-memory error). The prelude gives every way of compiling a source the eval limit (prelude-resources.ts);
// these cases pin the paths it covers and the semantics it keeps, each compared with this process's own V8.
import t from 'tap';
import { FakeHost } from './helpers/fake-host.ts';
import { startEngine } from './helpers/engine.ts';
import { MAX_DYNAMIC_SOURCE } from '../../engine/prelude-resources.ts';

const engine = await startEngine({ poolSize: 1 });
t.teardown(() => engine.close());
const run = async (source: string) => {
  const r = await engine.execute({ source, bindings: [], hostCall: new FakeHost().hostCall, limits: { wallMs: 5000, cpuMs: 5000 } });
  return r.ok ? r.result : `${r.error?.type}: ${r.error?.message}`;
};
const attempt = (expr: string) =>
  `(() => { try { const v = ${expr}; return v instanceof RegExp ? String(v) : v } catch (e) { return e.constructor.name + ': ' + e.message.slice(0, 90) } })()`;

const SEMANTICS = [
  `new RegExp('a+b', 'gi')`,
  `RegExp('x')`,
  `new RegExp(/ab/g, 'y')`,
  `new RegExp(/ab/g).flags`,
  `new RegExp(undefined)`,
  `(() => { const r = /q/; return RegExp(r) === r && new RegExp(r) !== r })()`,
  `(() => { const r = /q/; return RegExp(r, 'g') === r })()`,
  `new RegExp({ toString() { return 'obj' } })`,
  `new RegExp({ [Symbol.match]: true, source: 'like', flags: 'm' })`,
  `(() => { let n = 0; new RegExp({ toString() { n++; return 'once' } }); return n })()`,
  `(() => { let n = 0; new RegExp({ [Symbol.match]: 1, get source() { n++; return 's' }, get flags() { n++; return 'g' } }); return n })()`,
  `new RegExp(Symbol('s'))`,
  `new RegExp('(')`,
  `new RegExp('a', 'zz')`,
  `[RegExp.name, RegExp.length, /x/.constructor === RegExp, /x/ instanceof RegExp, RegExp.prototype.constructor === RegExp, typeof RegExp.escape]`,
  `(() => { 'abc'.match(/(b)(c)/); return [RegExp.$1, RegExp.$2, RegExp.lastMatch, RegExp['$\`']] })()`,
  `(() => { class R extends RegExp { exec(s) { return super.exec(s) } } const r = new R('b', 'g'); return [r instanceof R, r.test('abc'), 'a,b'.split(new R(',')).length] })()`,
  `'a1b2c3'.split(/\\d/)`,
  `(() => { const r = /a/; r.compile('b+', 'g'); return [r.source, r.flags] })()`,
  `(() => { const r = /a/; r.compile(/c/i); return String(r) })()`,
  `(() => { try { /a/.compile(/c/, 'g') } catch (e) { return e.constructor.name } })()`,
  `'xaay'.match('a+')[0]`,
  `[...'a1a2'.matchAll('a\\\\d')].length`,
  `'xyz'.search('z')`,
  `'a.b'.match({ [Symbol.match]: () => 'custom' })`,
  `'3.5'.search(3.5)`,
  `String(null).match(null)[0]`,
  `'undefined'.search()`,
];

t.test('RegExp and the methods that compile a source behave as before', async (t) => {
  const source = `return [${SEMANTICS.map(attempt).join(',\n')}]`;
  t.same(await run(source), new Function(source)());
});

t.test(`a source of ${MAX_DYNAMIC_SOURCE} characters compiles; one more is refused on every path, before it is parsed`, async (t) => {
  // One character class: a source of any length that V8 compiles to a small matcher (a long literal would be its own
  // "Regular expression too large" once executed).
  const at = (n: number) => `const p = '[' + 'a'.repeat(${n - 2}) + ']';`;
  const paths: Record<string, string> = {
    construct: 'new RegExp(p)',
    call: 'RegExp(p, "g")',
    object: 'new RegExp({ toString: () => p })',
    regExpLike: 'new RegExp({ [Symbol.match]: true, source: p })',
    subclass: 'new (class extends RegExp {})(p)',
    compile: '/x/.compile(p)',
    match: "'b'.match(p)",
    matchAll: "[...'b'.matchAll(p)]",
    search: "'b'.search(p)",
    // A RegExp-like receiver without a constructor: the species constructor is the RegExp of the language itself.
    split: "RegExp.prototype[Symbol.split].call({ [Symbol.match]: true, constructor: undefined, source: p, flags: '' }, 'b')",
    splitSpecies: "RegExp.prototype[Symbol.split].call({ [Symbol.match]: true, constructor: { [Symbol.species]: null }, source: p, flags: '' }, 'b')",
    regExpMatchAll: "[...RegExp.prototype[Symbol.matchAll].call({ [Symbol.match]: true, constructor: undefined, source: p, flags: 'g', lastIndex: 0 }, 'b')]",
  };
  const outcome = (n: number) => `${at(n)} const out = {}; for (const [k, f] of Object.entries({ ${Object.entries(paths)
    .map(([k, e]) => `${k}: () => ${e}`)
    .join(', ')} })) {
    try { f(); out[k] = 'compiled' } catch (e) { out[k] = e.constructor.name + ': ' + e.message.slice(0, 150) } } return out`;
  const fits = (await run(outcome(MAX_DYNAMIC_SOURCE))) as Record<string, string>;
  const over = (await run(outcome(MAX_DYNAMIC_SOURCE + 1))) as Record<string, string>;
  for (const k of Object.keys(paths)) {
    t.equal(fits[k], 'compiled', `${k}: ${MAX_DYNAMIC_SOURCE} characters`);
    t.equal(
      over[k],
      `SyntaxError: Invalid regular expression: a source longer than ${MAX_DYNAMIC_SOURCE} characters is refused in the sandbox.`,
      `${k}: one more`,
    );
  }
  t.equal(
    await run(`const r = new RegExp('b'.repeat(${MAX_DYNAMIC_SOURCE})); return new RegExp(r, 'g').source.length`),
    MAX_DYNAMIC_SOURCE,
    'a RegExp object as the pattern keeps its source',
  );
});
