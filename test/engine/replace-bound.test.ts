// replace, replaceAll and RegExp.prototype[Symbol.replace] build their result in one step, and a
// replacement can be far longer than what it replaces (a function returning one 16 M-character string for 30 matches:
// 480 M characters, result ok; '$&' 30 times over 4 M matches: a host past its memory cap). The prelude bounds the
// result like repeat's (prelude-resources.ts). Every case below is also run by this process's own V8: the answers
// must be the same, on short subjects (the original does the work) and on long ones (where a template is expanded by
// the prelude's own GetSubstitution).
import t from 'tap';
import { FakeHost } from './helpers/fake-host.ts';
import { startEngine } from './helpers/engine.ts';

const engine = await startEngine({ poolSize: 1 });
t.teardown(() => engine.close());
const run = async (source: string) => {
  const r = await engine.execute({ source, bindings: [], hostCall: new FakeHost().hostCall, limits: { wallMs: 5000, cpuMs: 5000 } });
  return r.ok ? r.result : `${r.error?.type}: ${r.error?.message}`;
};
const attempt = (expr: string) => `(() => { try { return ${expr} } catch (e) { return e.constructor.name + ': ' + e.message.slice(0, 120) } })()`;

const TEMPLATES = ['[$&]', '$$', '$`|', "|$'", '$1-$2', '$10$01$0$9', '$<year>/$<month>', '$<nope>', '$<unclosed', '$', 'a$', '$$$&$`', 'plain'];
const CASES = (subject: string) => [
  ...TEMPLATES.flatMap((tpl) => [
    `${subject}.replace(/(\\d{4})-(\\d{2})/g, ${JSON.stringify(tpl)})`,
    `${subject}.replace(/(?<year>\\d{4})-(?<month>\\d{2})/, ${JSON.stringify(tpl)})`,
    `${subject}.replaceAll('-', ${JSON.stringify(tpl)})`,
    `${subject}.replace('20', ${JSON.stringify(tpl)})`,
  ]),
  `${subject}.replace(/(?<y>\\d{4})(-)?/g, (...a) => JSON.stringify(a.slice(0, 3)) + typeof a[a.length - 1])`,
  `${subject}.replaceAll('', '.').length`,
  `${subject}.replace(/x*/g, '<$&>').length`,
  `${subject}.replace(/(?=(\\d))/g, '$1').length`,
  `${subject}.replaceAll(/-/g, (m, at) => at)`,
  `${subject}.replaceAll(/-/, '+')`,
  `${subject}.replace({ toString: () => '-' }, '$&$&')`,
  `${subject}.replace({ [Symbol.replace]: (s, r) => 'custom ' + r }, 'x')`,
  `(() => { const re = /-/y; re.lastIndex = 4; return [${subject}.replace(re, '+'), re.lastIndex] })()`,
  `(() => { class R extends RegExp { exec(s) { const m = super.exec(s); if (m) m[0] = m[0] + '!'; return m } } return ${subject}.replace(new R('-', 'g'), '[$&]') })()`,
  `String.prototype.replace.call(12345, 3, '$&$&')`,
  `String.prototype.replaceAll.call(null, 'a', 'b')`,
  `[String.prototype.replace.length, String.prototype.replaceAll.name, RegExp.prototype[Symbol.replace].name, RegExp.prototype[Symbol.replace].length]`,
];

t.test('replacing answers as the native methods do, on a short subject and on a long one', async (t) => {
  for (const [label, subject] of [
    ['short', `'2024-05 and 1999-12-31'`],
    ['long', `('2024-05 and 1999-12-31 ' + 'z'.repeat(5000))`],
  ]) {
    const source = `return [${CASES(subject).map(attempt).join(',\n')}]`;
    t.same(await run(source), new Function(source)(), `${label} subject`);
  }
});

t.test('a result up to 2^24 characters is built; past it, a RangeError before anything is', async (t) => {
  const thrown = (expr: string) => run(`try { return ${expr}.length } catch (e) { return e.constructor.name + ': ' + e.message }`);
  // (Millions of matches would first fill the heap with their positions: a memory_limit of V8's own.)
  t.equal(await thrown(`'x'.repeat(2 ** 23).replaceAll('x'.repeat(1024), 'y'.repeat(2048))`), 2 ** 24, 'a string pattern doubling 8 M characters');
  t.equal(await thrown(`'x'.repeat(2 ** 23).replaceAll('x'.repeat(1024), 'y'.repeat(2049))`), 'RangeError: Invalid string length', 'one more per match');
  t.equal(await thrown(`'x'.repeat(2 ** 20).replace(/x+/, '$&'.repeat(16))`), 2 ** 24, 'a template repeating one 1 M-character match 16 times');
  t.equal(await thrown(`'x'.repeat(2 ** 20).replace(/x+/g, '$&'.repeat(17))`), 'RangeError: Invalid string length', '17 times');
  t.equal(await thrown(`'ab'.repeat(2 ** 13).replace(/(?=(\\w+))/g, '$1')`), 'RangeError: Invalid string length', 'captures reaching past their match');
  t.equal(await thrown(`'x'.repeat(2 ** 14).replaceAll('x', '$\`')`), 'RangeError: Invalid string length', 'the prefix, repeated at each match');
  t.equal(await thrown(`'x'.repeat(30).replace(/x/g, () => 'y'.repeat(2 ** 23))`), 'RangeError: Invalid string length', 'a function returning one big string');
  t.equal(await thrown(`'x'.repeat(30).replaceAll('x', () => 'y'.repeat(2 ** 23))`), 'RangeError: Invalid string length', 'the same with a string pattern');
  t.equal(
    await thrown(`RegExp.prototype[Symbol.replace].call(/x/g, 'x'.repeat(30), () => 'y'.repeat(2 ** 23))`),
    'RangeError: Invalid string length',
    'called directly',
  );
  // An exec of the script's own decides what matched, where, and how often: nothing about the subject bounds it.
  const ownExec = (result: string, times: number) =>
    `(() => { const re = /x/g; let n = 0; const r = ${result}; re.exec = () => (n++ < ${times} ? r : null); return re })()`;
  t.equal(
    await thrown(`'x'.replace(${ownExec(`{ index: 0, 0: '', 1: 'y'.repeat(2 ** 24), length: 2 }`, 30)}, '$1')`),
    'RangeError: Invalid string length',
    'a capture of its own, 30 times at one position',
  );
  t.equal(
    await thrown(`'x'.replace(${ownExec(`{ index: 0, 0: '', length: 1 }`, 2 ** 16)}, 'z'.repeat(4096))`),
    'RangeError: Invalid string length',
    'a template without $, 2^16 times at one position',
  );
  // Used matches at position 1 alternate with skipped ones at 0 whose matched string is long and whose replacement
  // is empty: subtracting what the skipped ones "remove" would cancel what the used ones add.
  t.equal(
    await thrown(
      `(() => { const big = 'y'.repeat(2 ** 23); const re = /x/g; let n = 0; re.exec = () => (n++ < 60 ? (n % 2 ? { index: 1, 0: '', length: 1 } : { index: 0, 0: big, length: 1 }) : null); return 'xx'.replace(re, (m) => (m === '' ? big : '')) })()`,
    ),
    'RangeError: Invalid string length',
    'skipped matches with long matched strings do not cancel what the used ones add',
  );
  t.equal(
    await thrown(
      `(() => { let n = 0; const re = /x/g; Object.defineProperty(RegExp.prototype, 'global', { configurable: true, get() { re.exec = () => (n++ < 2 ** 16 ? { index: 0, 0: '', length: 1 } : null); return 'g' } }); return 'x'.replace(re, 'z'.repeat(4096)) })()`,
    ),
    'RangeError: Invalid string length',
    'a flag getter that swaps exec midway',
  );
});
