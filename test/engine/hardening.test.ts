// The prelude's promises (research B2, A3): nothing of the host is reachable, intrinsics the engine uses
// cannot be hijacked, and no value the script throws or leaves rejected can hang an isolate thread.
import t from 'tap';
import { BINDINGS, FakeHost } from './helpers/fake-host.ts';
import { startEngine } from './helpers/engine.ts';

const engine = await startEngine({ poolSize: 2, wallMs: 400, cpuMs: 400 });
t.teardown(() => engine.close());
const run = (source: string, host = new FakeHost()) => engine.execute({ source, bindings: BINDINGS, hostCall: host.hostCall });
const LOOPING = 'new Proxy({}, { get() { for (;;); }, getPrototypeOf() { for (;;); } })';

/** CPU the whole process burns while it should be idle: a thread left spinning shows up here. */
async function idleCpuMs(ms = 300): Promise<number> {
  const before = process.cpuUsage();
  await new Promise((resolve) => setTimeout(resolve, ms));
  const d = process.cpuUsage(before);
  return (d.user + d.system) / 1000;
}

t.test('thrown and rejected looping proxies never escape the isolate to be read unguarded', async (t) => {
  const cases: [string, string][] = [
    [`throw ${LOOPING}`, 'timeout'],
    [`Promise.reject(${LOOPING}); return 1`, 'ok'],
    [`Promise.reject(${LOOPING}); await null; return 2`, 'ok'],
    [`await context(); Promise.reject(${LOOPING}); return 3`, 'ok'],
    [`context().then(() => { throw ${LOOPING}; }); await context(); return 4`, 'ok'],
    [`(async () => { throw ${LOOPING}; })(); return 5`, 'ok'],
    [`context().then(() => Promise.reject(${LOOPING})); return 6`, 'ok'],
  ];
  for (const [source, expected] of cases) {
    const r = await run(source);
    t.equal(r.ok ? 'ok' : r.error!.type, expected, source.slice(0, 60));
  }
  await engine.ready();
  t.equal(engine.stats().slots.ready, 2, 'both slots came back');
  const cpu = await idleCpuMs();
  t.ok(cpu < 100, `no thread left spinning (${cpu.toFixed(0)} ms CPU in 300 ms idle)`);
});

t.test('odd thrown values are reported safely', async (t) => {
  const cases: [string, string][] = [
    ['throw null', 'Uncaught null'],
    ['throw 42', 'Uncaught 42'],
    ['throw undefined', 'Uncaught undefined'],
    ['throw Symbol("s")', 'Uncaught Symbol(s)'],
    ['throw { message: 7 }', 'Error: '],
    ['throw Object.create(null)', 'Error: '],
    ['const e = new TypeError("bad"); e.name = 7; throw e', 'Error: bad'],
  ];
  for (const [source, message] of cases) {
    const r = await run(source);
    t.equal(r.error?.type, 'script_error', source);
    t.equal(r.error?.message, message, source);
  }
});

t.test('a looping prepareStackTrace, error name or toJSON only costs the script its own time', async (t) => {
  const r = await run('Error.prepareStackTrace = () => { for (;;); }; await context(); null.x');
  t.equal(r.error?.type, 'timeout');
  const named = await run('const e = new TypeError("bad"); e.name = { toString() { for (;;); } }; throw e');
  t.equal(named.error?.type, 'timeout', 'formatting the stack runs the getter inside the isolate');
  const j = await run('const p = files_get({ fileId: "nope" }); Object.prototype.toJSON = function () { for (;;); }; await p');
  t.equal(j.error?.type, 'tool_error', 'the outcome record is immune to an inherited toJSON');
  t.equal(j.error?.code, 'not_found');
});

t.test('no closure of the engine is reachable through callers or stack frames', async (t) => {
  const r = await run(`
    let fromBinding;
    try { await files_get({ fileId: 'nope' }); } catch (e) { fromBinding = e; }
    // A sloppy function called back by the engine (toJSON while console.log formats) looks at its
    // caller and at every frame's function and receiver.
    const seen = await new Promise((resolve) => console.log({ toJSON: function f() {
      Error.prepareStackTrace = (e, callSites) => callSites;
      const sites = new Error('x').stack;
      Error.prepareStackTrace = undefined;
      const engineFrames = sites.filter((s) => s.getScriptNameOrSourceURL() !== 'file:///script.js');
      resolve({
        caller: f.caller === null ? 'null' : typeof f.caller,
        engineFrames: engineFrames.length > 0,
        functions: engineFrames.map((s) => typeof s.getFunction()).filter((x) => x !== 'undefined'),
        receivers: engineFrames.map((s) => typeof s.getThis()).filter((x) => x !== 'undefined'),
      });
      return 1;
    } }));
    return {
      ...seen,
      bindingCaller: (() => { try { return typeof files_list.caller; } catch (e) { return e.name; } })(),
      hostPaths: /work|node_modules|engine\\/(run|slot)/.test(JSON.stringify(Object.getOwnPropertyNames(fromBinding).map((k) => String(fromBinding[k])))),
    };`);
  t.same(r.result, { caller: 'null', engineFrames: true, functions: [], receivers: [], bindingCaller: 'TypeError', hostPaths: false });
});

t.test('no wasm, shared memory or Atomics, and no way back to the host realm', async (t) => {
  const r = await run(`return [typeof WebAssembly, typeof SharedArrayBuffer, typeof Atomics, typeof process, typeof require,
    typeof globalThis.constructor.constructor('return this')().process, typeof setTimeout]`);
  t.same(r.result, ['undefined', 'undefined', 'undefined', 'undefined', 'undefined', 'undefined', 'undefined']);
});

t.test('console formats values and survives hostile ones', async (t) => {
  const r = await run(`
    console.log('a', 1, { b: [2] }, null, undefined);
    console.info(new RangeError('r'));
    console.warn(10n, Symbol('s'), () => 1);
    const cyclic = {}; cyclic.self = cyclic;
    console.error(cyclic, Object.create(null));
    console.log = () => { throw new Error('replaced'); };
    console.log('still mine');
    return 'done'`);
  t.equal(r.result, 'done');
  t.same(r.logs, [
    { level: 'log', message: 'a 1 {"b":[2]} null undefined' },
    { level: 'info', message: 'RangeError: r' },
    { level: 'warn', message: '10 Symbol(s) () => 1' },
    { level: 'error', message: '[object Object] {}' },
    { level: 'log', message: 'still mine' },
  ]);
});
