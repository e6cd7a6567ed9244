// Configurable limits as a caller experiences them: source size, wall and CPU time, result and log size,
// and per-execution overrides that can only tighten the engine's configuration.
import t from 'tap';
import { BINDINGS, FakeHost } from './helpers/fake-host.ts';
import { startEngine, testConfig } from './helpers/engine.ts';
import { createEngine } from '../../engine/index.ts';

const engine = await startEngine({ poolSize: 2, maxSourceBytes: 1000, maxResultBytes: 2000, maxLogBytes: 300, maxLogLines: 5, wallMs: 2000, cpuMs: 2000 });
t.teardown(() => engine.close());
const run = (source: string, limits = {}) => engine.execute({ source, bindings: BINDINGS, hostCall: new FakeHost().hostCall, limits });

t.test('a source over maxSourceBytes is refused before any isolate sees it', async (t) => {
  const before = engine.stats().executions;
  const r = await run(`return "${'é'.repeat(600)}"`);
  t.same(r.error, { type: 'limit_exceeded', code: 'max_source_bytes', message: 'The script is larger than 1000 bytes.' });
  const huge = await run('//' + 'x'.repeat(10 * 1024 * 1024));
  t.equal(huge.error?.code, 'max_source_bytes', 'a 10 MB source too');
  t.equal(engine.stats().executions, before, 'neither reached an isolate');
  t.equal((await run(`return "${'x'.repeat(900)}".length`)).result, 900, 'just under the limit runs');
});

t.test('wall time: a busy script is stopped at the deadline', async (t) => {
  const r = await run('while (true) {}', { wallMs: 100 });
  t.equal(r.error?.type, 'timeout');
  t.equal(r.error?.code, 'wall_time');
  t.ok(r.stats.wallMs >= 95 && r.stats.wallMs < 200, `after ${r.stats.wallMs} ms`);
});

t.test('CPU time: spinning between host calls is stopped at the CPU budget', async (t) => {
  const r = await run('for (;;) { await context(); const t = Date.now(); while (Date.now() - t < 10) {} }', { cpuMs: 100, wallMs: 1000 });
  t.equal(r.error?.type, 'timeout');
  t.equal(r.error?.code, 'cpu_time');
  t.ok(r.stats.cpuMs >= 90, `used ${r.stats.cpuMs} ms CPU`);
  t.ok(r.stats.wallMs < 600, 'well before the wall deadline');
  const idle = await run('for (let i = 0; i < 5; i++) await new Promise((r) => r(context())); return "idle"', { cpuMs: 50, wallMs: 1000 });
  t.equal(idle.result, 'idle', 'waiting costs no CPU budget');
});

t.test('result size is checked inside the isolate, in UTF-8 bytes', async (t) => {
  t.equal((await run(`return 'x'.repeat(1990)`)).ok, true);
  const big = await run(`return 'x'.repeat(5000)`);
  t.same(big.error, { type: 'limit_exceeded', code: 'max_result_bytes', message: 'The result is larger than 2000 bytes.' });
  const wide = await run(`return '€'.repeat(700)`);
  t.equal(wide.error?.code, 'max_result_bytes', '700 characters but 2,100 bytes');
  const bigint = await run('return { n: 10n }');
  t.equal(bigint.error?.type, 'script_error');
  t.match(bigint.error?.message, /not JSON-serializable/);
  t.equal((await run('return undefined')).result, null, 'undefined comes back as null');
});

t.test('logs are cut at the byte budget with a marker and truncated: true', async (t) => {
  const r = await run(`for (let i = 0; i < 100; i++) console.log('line', i, 'x'.repeat(50)); return 'ok'`);
  t.equal(r.result, 'ok');
  t.equal(r.truncated, true);
  const bytes = r.logs.slice(0, -1).reduce((n, l) => n + Buffer.byteLength(l.message) + 1, 0);
  t.ok(bytes <= 300, `kept ${bytes} bytes`);
  t.match(r.logs.at(-1), { level: 'warn', message: /logs truncated/ });
  const lines = await run('for (let i = 0; i < 10; i++) console.info(i)');
  t.same(
    lines.logs.slice(0, 5).map((l) => l.message),
    ['0', '1', '2', '3', '4'],
  );
  t.equal(lines.logs.length, 6, 'five lines and the marker');
  t.equal(lines.truncated, true);
  const fits = await run('console.log("a"); console.warn("b")');
  t.equal(fits.truncated, false);
  t.same(fits.logs, [
    { level: 'log', message: 'a' },
    { level: 'warn', message: 'b' },
  ]);
});

t.test('overrides only tighten: a larger request is capped by the configuration', async (t) => {
  const r = await run('while (true) {}', { wallMs: 60_000, cpuMs: 60_000 });
  t.equal(r.error?.type, 'timeout');
  t.ok(r.stats.wallMs < 2600, `capped at the configured 2000 ms (${r.stats.wallMs})`);
  const small = await run(`return 'x'.repeat(500)`, { maxResultBytes: 100 });
  t.equal(small.error?.code, 'max_result_bytes');
});

t.test('an invalid engine configuration is refused at creation', async (t) => {
  t.throws(() => createEngine(testConfig({ poolSize: 0 })), /poolSize/);
  t.throws(() => createEngine(testConfig({ memoryMb: 4 })), /memoryMb/);
  t.throws(() => createEngine(testConfig({ pinHosts: 'yes' as never })), /pinHosts must be a boolean/);
  t.throws(() => createEngine({ ...testConfig(), inspector: true } as never), /unknown option inspector/);
});
