// the engine's own reporting never reads a string of the script's longer than MAX_READ_TEXT. Reading
// any part of a rope (a string made by concatenation: 2^28 characters cost a few bytes) makes V8 flatten all of it,
// so an uncaught throw, an Error's name or message, or a console line carrying one took the isolate far past its heap
// (600-860 MB) and ended as memory_limit instead of the script's own error. Shorter strings read as before.
import t from 'tap';
import { FakeHost, BINDINGS } from './helpers/fake-host.ts';
import { isolatesRss, startEngine } from './helpers/engine.ts';
import { MAX_READ_TEXT } from '../../engine/prelude-resources.ts';

const ROPE = `let s = 'x'.repeat(2 ** 24); for (let i = 0; i < 4; i++) s = s + s;`;
const NOT_SHOWN = '[268435456 characters, not shown]';

t.test('a huge string reaches the outcome and the logs by its length, without flattening', async (t) => {
  // One host process, whose RSS is the isolate's (an in-process engine would leave isolated-vm handles in this
  // process, which can abort it at exit).
  const engine = await startEngine({ hosts: 1, poolSize: 1, maxPoolSize: 1 });
  t.teardown(() => engine.close());
  const run = (source: string) => engine.execute({ source, bindings: BINDINGS, hostCall: new FakeHost().hostCall, limits: { wallMs: 5000, cpuMs: 5000 } });
  const before = isolatesRss(engine);
  let peak = before;
  const sampler = setInterval(() => {
    peak = Math.max(peak, isolatesRss(engine));
  }, 2);
  const cases: [string, string, string][] = [
    ['thrown string', `${ROPE} throw s`, `Uncaught ${NOT_SHOWN}`],
    ['Error message', `${ROPE} throw new Error(s)`, `Error: ${NOT_SHOWN}`],
    ['Error name', `${ROPE} const e = new Error('m'); e.name = s; throw e`, `${NOT_SHOWN}: m`],
    ['plain object', `${ROPE} throw { name: 'E', message: s }`, `E: ${NOT_SHOWN}`],
    ['rejection', `${ROPE} await Promise.reject(new TypeError(s))`, `TypeError: ${NOT_SHOWN}`],
    [
      'toJSON of an argument',
      `${ROPE} await files_list({ toJSON() { throw new Error(s); } })`,
      `TypeError: files_list: the argument must be JSON-serializable (Error: ${NOT_SHOWN})`,
    ],
    ['toJSON of the result', `${ROPE} return { toJSON() { throw new Error(s); } }`, `The result is not JSON-serializable: Error: ${NOT_SHOWN}`],
  ];
  for (const [name, source, message] of cases) {
    const r = await run(source);
    t.equal(r.error?.type, 'script_error', `${name}: ${r.error?.type} ${r.error?.message?.slice(0, 80)}`);
    t.equal(r.error?.message, message, name);
  }
  const logged = await run(`${ROPE} console.log(s); console.info('a', s, 'b'); console.warn(new RangeError(s));
    console.error({ toJSON() {}, toString() { return s; } }); return s.length`);
  t.equal(logged.result, 2 ** 28, 'the script itself still has its string');
  t.same(
    logged.logs.map((l) => [l.level, l.message]),
    [
      ['log', NOT_SHOWN],
      ['info', `a ${NOT_SHOWN} b`],
      ['warn', `RangeError: ${NOT_SHOWN}`],
      ['error', NOT_SHOWN],
    ],
  );
  clearInterval(sampler);
  t.ok(peak - before < 150 * 1024 * 1024, `host RSS grew ${((peak - before) / 1048576).toFixed(0)} MB (flattening one would take 256 MB)`);
});

t.test('strings up to the limit are read as before', async (t) => {
  const engine = await startEngine({ poolSize: 1 });
  t.teardown(() => engine.close());
  const run = (source: string) => engine.execute({ source, bindings: BINDINGS, hostCall: new FakeHost().hostCall, limits: { wallMs: 5000, cpuMs: 5000 } });
  const at = await run(`throw 'y'.repeat(${MAX_READ_TEXT})`);
  t.match(at.error?.message, /^Uncaught y{1000}/, 'a thrown string at the limit shows its beginning');
  const over = await run(`throw 'y'.repeat(${MAX_READ_TEXT}) + 'z'`);
  t.equal(over.error?.message, `Uncaught [${MAX_READ_TEXT + 1} characters, not shown]`, 'one more character is shown by its length');
  const message = await run(`throw new Error('boom '.repeat(1000))`);
  t.match(message.error?.message, /^Error: (boom ){300}/, 'a long message keeps its beginning');
  t.equal(message.error?.line, 1, 'and its line');
  const logs = await run(`console.log('a'.repeat(70000)); return 1`);
  t.equal(logs.logs[0].message, 'a'.repeat(64 * 1024), 'a long console line is cut at the log budget');
  t.equal(logs.truncated, true);
  const many = await run(`const x = 'b'.repeat(40000); console.log(x, x, x); return 1`);
  t.equal(many.logs[0].message, `${'b'.repeat(40000)} ${'b'.repeat(64 * 1024 - 40001)}`, 'arguments past the budget are not formatted');
});
