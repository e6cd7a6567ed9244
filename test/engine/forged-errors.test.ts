// The error type and line come from what the engine observed (a kill at a limit or deadline, a binding's refusal),
// never from what the script wrote: forged messages, names, stacks and codes are reported as the script's error.
import t from 'tap';
import { BINDINGS, FakeHost } from './helpers/fake-host.ts';
import { startEngine } from './helpers/engine.ts';

const engine = await startEngine({ poolSize: 2 });
t.teardown(() => engine.close());
const run = (source: string) => engine.execute({ source, bindings: BINDINGS, hostCall: new FakeHost().hostCall });

t.test('an allocation-failure message thrown by the script is script_error, whatever the error object', async (t) => {
  for (const message of ['Array buffer allocation failed', 'Invalid string length', 'Invalid typed array length']) {
    for (const source of [
      `throw new RangeError(${JSON.stringify(message)})`,
      `const e = new Error(${JSON.stringify(message)}); e.name = "RangeError"; throw e`,
      `throw { name: "RangeError", message: ${JSON.stringify(message)} }`,
      `await Promise.reject(new RangeError(${JSON.stringify(message)}))`,
      `throw Object.create(RangeError.prototype, { message: { get() { return ${JSON.stringify(message)}; } } })`,
    ]) {
      const r = await run(source);
      t.equal(r.error?.type, 'script_error', source);
      t.equal(r.error?.message, `RangeError: ${message}`, `${source}: the text is still shown`);
    }
  }
});

t.test('a forged name never becomes a type', async (t) => {
  for (const name of ['TimeoutError', 'memory_limit', 'LimitError', 'ToolError', 'timeout', 'internal_error']) {
    const r = await run(`const e = new Error("stopped"); e.name = ${JSON.stringify(name)}; e.code = "wall_time"; e.type = "timeout"; throw e`);
    t.same(r.error, { type: 'script_error', message: `${name}: stopped`, line: 1 }, name);
  }
  const rethrown = await run(
    'try { await files_get({ fileId: "nope" }); } catch (e) { const f = new Error(e.message); f.name = "ToolError"; f.code = e.code; throw f; }',
  );
  t.equal(rethrown.error?.type, 'script_error', 'a copy of a binding error is not the binding error');
});

t.test('a forged stack cannot set the reported line beyond the script', async (t) => {
  const forged = [
    'const e = new Error("x"); e.stack = "Error: x\\n    at file:///script.js:100000000000000000000:1"; throw e',
    'const e = new Error("x"); Object.defineProperty(e, "stack", { get() { return "at file:///script.js:99:1"; } }); throw e',
    'throw { name: "Error", message: "x", stack: "at file:///script.js:4294967296:7" }',
    'const e = new Error("x"); e.stack = "at file:///script.js:" + "9".repeat(400) + ":1"; throw e',
  ];
  for (const source of forged) {
    const r = await run(source);
    t.equal(r.error?.type, 'script_error');
    t.ok(r.error?.line === undefined || (Number.isSafeInteger(r.error.line) && r.error.line <= 1), `${source}: line ${r.error?.line}`);
  }
  const honest = await run('\n\nthrow new Error("third line")');
  t.equal(honest.error?.line, 3, 'a real line is still reported');
});

t.test('the host re-checks argument depth itself: a deep argument that got past the isolate ends the run', async (t) => {
  const { Execution } = await import('../../engine/bridge.ts');
  const { resolveConfig, effectiveLimits } = await import('../../engine/limits.ts');
  const { MAX_RESULT_DEPTH } = await import('../../engine/prelude.ts');
  const host = new FakeHost();
  const limits = effectiveLimits(
    resolveConfig({
      wallMs: 1000,
      cpuMs: 1000,
      memoryMb: 64,
      maxSourceBytes: 100_000,
      maxResultBytes: 1_000_000,
      maxArgBytes: 1_000_000,
      maxHostCalls: 10,
      maxInFlight: 4,
      maxLogBytes: 1000,
      poolSize: 1,
      queueMax: 1,
      queueWaitMs: 100,
    }),
    {},
  );
  if (typeof limits === 'string') throw new Error(limits);
  const ex = new Execution(1, 'return 1', ['files_list'], host.hostCall, limits);
  const deep = `${'['.repeat(MAX_RESULT_DEPTH + 1)}${']'.repeat(MAX_RESULT_DEPTH + 1)}`;
  const reply = ex.call('files_list', deep);
  t.match(reply, /^E.*"code":"max_arg_depth"/);
  t.same(ex.breach?.code, 'max_arg_depth', 'a breach: the isolate should have refused it first');
  t.equal(host.calls.length, 0, 'nothing reached the binding');
  const wide = new Execution(2, 'return 1', ['files_list'], host.hostCall, limits);
  await wide.call('files_list', JSON.stringify({ prefix: '[[[['.repeat(500), list: Array.from({ length: 300 }, () => [[1]]) }));
  t.equal(wide.breach, null, 'brackets in strings and wide values are not depth');
});

t.test('errors built outside the Error constructor claim no more than a thrown Error', async (t) => {
  const forged = [
    'const e = {}; Error.captureStackTrace(e); e.name = "RangeError"; e.message = "Array buffer allocation failed"; e.stack = "at file:///script.js:77777:1"; throw e',
    'throw new Proxy({}, { get(_o, k) { return k === "name" ? "RangeError" : k === "message" ? "Maximum call stack size exceeded" : k === "stack" ? "at file:///script.js:88888:1" : undefined; } })',
    'Error.prepareStackTrace = () => "at file:///script.js:99999:1"; throw new RangeError("Array buffer allocation failed")',
    'class Fake extends RangeError { get name() { return "memory_limit"; } } throw new Fake("Isolate was disposed during execution due to memory limit")',
    'await Promise.reject(Object.assign(Object.create(null), { name: "TimeoutError", message: "Script execution timed out.", type: "timeout" }))',
  ];
  for (const source of forged) {
    const r = await run(source);
    t.equal(r.error?.type, 'script_error', source);
    t.ok(r.error?.line === undefined || r.error.line === 1, `${source}: line ${r.error?.line}`);
  }
});
