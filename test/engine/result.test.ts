// The result shape of research B5 as a script author reads it: values after a JSON round trip, error
// types with the user's own line numbers, and stats.
import t from 'tap';
import { BINDINGS, FakeHost } from './helpers/fake-host.ts';
import { startEngine } from './helpers/engine.ts';

const engine = await startEngine({ poolSize: 2 });
t.teardown(() => engine.close());
const run = (source: string) => engine.execute({ source, bindings: BINDINGS, hostCall: new FakeHost().hostCall });

t.test('a successful result has exactly the documented fields', async (t) => {
  const r = await run(
    'const page = await files_list({ limit: 1 }); console.log("n", page.items.length); return { when: new Date(0), page, set: new Set([1]) }',
  );
  t.same(Object.keys(r).sort(), ['logs', 'ok', 'result', 'stats', 'truncated']);
  t.equal(r.ok, true);
  t.same(r.result, { when: '1970-01-01T00:00:00.000Z', page: { items: [new FakeHost().files[0]], nextCursor: '1' }, set: {} });
  t.same(r.logs, [{ level: 'log', message: 'n 1' }]);
  t.equal(r.truncated, false);
  t.same(Object.keys(r.stats).sort(), ['cpuMs', 'hostCalls', 'hostMs', 'queueMs', 'wallMs']);
  t.equal(r.stats.hostCalls, 1);
  t.ok(r.stats.hostMs >= 0 && r.stats.hostMs <= r.stats.wallMs, `host time within the run (${r.stats.hostMs} ms)`);
  t.ok(r.stats.wallMs > 0 && r.stats.cpuMs > 0 && r.stats.cpuMs <= r.stats.wallMs + 1, JSON.stringify(r.stats));
});

t.test('syntax errors report the line in the user source', async (t) => {
  const cases: [string, number][] = [
    ['return )', 1],
    ['const a = 1;\nconst b = 2;\nconst c = ;', 3],
    ['const s = "fine";\n\n\n\nlet x = "unterminated\nreturn x', 5],
    ['const a = 1;\nawait context(;\n', 2],
  ];
  for (const [source, line] of cases) {
    const r = await run(source);
    t.equal(r.error?.type, 'syntax_error', JSON.stringify(source));
    t.equal(r.error?.line, line, `line ${line}`);
    t.notMatch(r.error?.message, /script\.js|\[/, 'the message carries no wrapper location');
  }
  const closing = await run('}); (function () { throw 1 })(); (async function () {');
  t.equal(closing.error?.type, 'syntax_error', 'a body cannot close the wrapping function');
});

t.test('script errors report name, message and the line that threw', async (t) => {
  const r = await run('const a = await context();\nfunction deep(n) {\n  if (n === 0) return null.boom;\n  return deep(n - 1);\n}\nreturn deep(3);');
  t.same(r.error, { type: 'script_error', message: "TypeError: Cannot read properties of null (reading 'boom')", line: 3 });
  const custom = await run('class Oops extends Error { name = "Oops" }\n\nthrow new Oops("it broke")');
  t.same(custom.error, { type: 'script_error', message: 'Oops: it broke', line: 3 });
  const long = await run('throw new Error("x".repeat(10000))');
  t.ok(long.error!.message.length <= 2048, 'messages are capped at 2 KB');
});

t.test('memory exhaustion is memory_limit, stack exhaustion is script_error', async (t) => {
  const mem = await run('const a = []; for (;;) a.push({ x: Math.random() })');
  t.equal(mem.error?.type, 'memory_limit', 'the isolate was killed at its heap limit');
  // A refused ArrayBuffer is a RangeError the script could have caught: the script's error, reported as such, since
  // the same text thrown by the script itself must not pass for an engine verdict (see forged-errors.test.ts).
  const refused = await run('const a = []; for (;;) a.push(new ArrayBuffer(8 << 20))');
  t.same(refused.error, { type: 'script_error', message: 'RangeError: Array buffer allocation failed', line: 1 });
  const stack = await run('const f = () => f(); f()');
  t.equal(stack.error?.type, 'script_error');
  t.match(stack.error?.message, /RangeError: Maximum call stack size exceeded/);
});
