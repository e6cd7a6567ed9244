// V8's RegExp cache is per isolate and keyed by pattern text; a pattern built from a string is salted per
// organization (prelude-resources.ts), a literal cannot be: an execution whose code may hold long literals empties
// the cache when it is over (engine/v8-flags.ts). Real isolates, a pool of one so both tenants share it.
import t from 'tap';
import { regExpLiteralChars } from '../../engine/regexp-literals.ts';
import { startEngine } from './helpers/engine.ts';
import { runAs, sameAgainstFresh } from './helpers/cache-timing.ts';

// A ~30 KB literal whose compilation (and first match) takes milliseconds. Before: B's run of A's literal took
// 0.24-0.28 of a fresh one's time, in the script or in code it evaluated.
const literal = (tag: string) => `/${Array.from({ length: 2500 }, (_, i) => `w${i}q${tag}`).join('|')}|z/`;

for (const [label, script] of [
  ['in the script', (tag: string) => `return ${literal(tag)}.test('zz')`],
  ['in code given to eval', (tag: string) => `return (0, eval)(${JSON.stringify(literal(tag))}).test('zz')`],
  ['in code given to new Function', (tag: string) => `return new Function('x', ${JSON.stringify(`return ${literal(tag)}.test(x)`)})('zz')`],
  [
    'in a parameter given to the AsyncFunction constructor',
    (tag: string) => `return await new (async function () {}).constructor(${JSON.stringify(`r = ${literal(tag)}`)}, 'return r.test("zz")')()`,
  ],
] as const) {
  t.test(`a long regular-expression literal ${label} of one organization is not a cache hit for another`, async (t) => {
    const m = await sameAgainstFresh(script);
    t.ok(m.same > 0.6 * m.fresh, `B's run of A's literal (${m.same} ms) compiles like a fresh one (${m.fresh} ms), A ${m.a} ms`);
  });
}

t.test('what a text holds of regular-expression literals is bounded from above', async (t) => {
  // Texts whose literals are known by construction, each piece a literal (its pattern's length) or something that
  // looks like one: classes and escapes holding slashes, a literal right after a block comment, divisions, comments,
  // strings and template text with slashes; lines end with each line terminator, some with a comment holding slashes.
  const pieces: [string, number][] = [
    ['/[/]x\\//', 6],
    ['/a|b/g', 3],
    ['/\\//', 2],
    ['/[*/]k/', 5],
    ['/[//]q/iu', 5],
    ['/* c *//m/', 1],
    ['x / y / z', 0],
    ["'g/h'", 0],
    ['"//"', 0],
    ['`i/${x}/`', 0],
    ['(1) / 2', 0],
    ['/* e/f */ 0', 0],
  ];
  for (const [piece, length] of pieces) {
    if (regExpLiteralChars(`v.push(${piece});`) < length) t.fail(`under: ${piece} alone`);
  }
  const terminators = ['\n', '\r', '\r\n', '\u2028', '\u2029'];
  let seed = 7;
  const next = (n: number) => (seed = (seed * 1103515245 + 12345) % 2 ** 31) % n;
  for (let k = 0; k < 300; k++) {
    let text = 'const x = 6, y = 3, z = 1; const v = [];';
    let held = 0;
    for (let line = 0; line < 5; line++) {
      const chosen = Array.from({ length: 4 }, () => pieces[next(pieces.length)]);
      held += chosen.reduce((n, [, length]) => n + length, 0);
      text += `${terminators[next(terminators.length)]}v.push(${chosen.map(([piece]) => piece).join(', ')});${next(2) ? ' // see a/b/c' : ''}`;
    }
    // What V8 reads there (the construction is right), then the bound.
    const values = new Function(`${text}\nreturn v;`)() as unknown[];
    const read = values.filter((v): v is RegExp => v instanceof RegExp).reduce((n, r) => n + r.source.length, 0);
    if (read !== held) t.fail(`construction: V8 reads ${read}, expected ${held} in ${JSON.stringify(text)}`);
    if (regExpLiteralChars(text) < held) t.fail(`under: ${regExpLiteralChars(text)} < ${held} in ${JSON.stringify(text)}`);
  }
  t.pass('each piece alone and 300 texts of them, none under');
  t.equal(regExpLiteralChars('return 1 + 1'), 0);
  t.equal(regExpLiteralChars('// a comment\n/* another */\nconst x = 1; // and one more'), 0, 'comments alone count nothing');
  t.equal(regExpLiteralChars("fetch('https://host/api/v1'); // see a/b"), 18, "'//' opens no literal, what follows may");
  t.equal(regExpLiteralChars(`x = /${'a'.repeat(300)}/`), 300);
});

t.test("V8's gc, which the engine empties the cache with, is out of the scripts' reach", async (t) => {
  const engine = await startEngine({ poolSize: 1, maxPoolSize: 1 });
  t.teardown(() => engine.close());
  const r = await runAs(
    engine,
    `
    const out = [typeof gc, typeof globalThis.gc];
    try { globalThis.gc = () => 1; } catch (e) { out.push(e.name); }
    try { Object.defineProperty(globalThis, 'gc', { value: () => 1 }); } catch (e) { out.push(e.name); }
    out.push(typeof globalThis.gc, new Function('return typeof gc')(), (0, eval)('typeof gc'));
    return out;`,
    'org_a',
  );
  t.same(r.result, ['undefined', 'undefined', 'TypeError', 'undefined', 'undefined', 'undefined']);
});

t.test('an execution with long literals keeps its isolate and its results', async (t) => {
  const engine = await startEngine({ poolSize: 1, maxPoolSize: 1 });
  t.teardown(() => engine.close());
  const source = `const r = ${literal('k')}; return [r.test('w7qk'), r.test('zz'), r.test('nope'), (0, eval)(${JSON.stringify(literal('e'))}).test('w9qe')]`;
  for (let i = 0; i < 4; i++) {
    const r = await runAs(engine, source, i % 2 ? 'org_a' : 'org_b', 5_000);
    t.same(r.result, [true, true, false, true], `run ${i}`);
    const after = await runAs(engine, 'return 1 + 1', 'org_c');
    t.equal(after.result, 2, 'the next execution runs');
  }
  t.equal(engine.stats().isolatesBuilt, 1, 'one isolate served them all');
});
