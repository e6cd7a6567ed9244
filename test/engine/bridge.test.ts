// The bridge as a script author and as the server see it: bindings are async globals taking one JSON
// argument, failures are catchable Errors with code and resolution, and the per-execution caps hold.
import t from 'tap';
import { BINDINGS, FakeHost } from './helpers/fake-host.ts';
import { startEngine } from './helpers/engine.ts';
import type { HostCall } from '../../engine/index.ts';

const engine = await startEngine({ poolSize: 2, maxHostCalls: 20, maxInFlight: 4, maxArgBytes: 1024 });
t.teardown(() => engine.close());
const run = (source: string, host = new FakeHost(), limits = {}) => engine.execute({ source, bindings: BINDINGS, hostCall: host.hostCall, limits });
const runWith = (source: string, hostCall: HostCall) => engine.execute({ source, bindings: BINDINGS, hostCall });

t.test('bindings are non-writable, non-configurable async global functions', async (t) => {
  const r = await run(`
    const d = Object.getOwnPropertyDescriptor(globalThis, 'files_list');
    const AsyncFunction = (async () => {}).constructor;
    return { writable: d.writable, configurable: d.configurable, async: files_list instanceof AsyncFunction,
      name: files_list.name, all: ${JSON.stringify(BINDINGS)}.every((n) => typeof globalThis[n] === 'function') }`);
  t.same(r.result, { writable: false, configurable: false, async: true, name: 'files_list', all: true });
  const only = await engine.execute({ source: 'return [typeof files_list, typeof context]', bindings: ['context'], hostCall: new FakeHost().hostCall });
  t.same(only.result, ['undefined', 'function'], 'only the requested bindings exist');
});

t.test('the one argument crosses as JSON; no argument arrives as null', async (t) => {
  const host = new FakeHost();
  const r = await run(
    `
    const page = await files_list({ state: 'active', limit: 2, cursor: null, skip: undefined, f() {} });
    await context();
    return page`,
    host,
  );
  t.same(
    host.calls.map((c) => [c.name, c.argsJson]),
    [
      ['files_list', '{"state":"active","limit":2,"cursor":null}'],
      ['context', 'null'],
    ],
  );
  t.same(r.result, { items: host.files.slice(0, 2), nextCursor: '2' }, 'the reply arrives parsed');
});

t.test('a binding error is a catchable Error with code and resolution', async (t) => {
  const r = await run(`
    try { await files_get({ fileId: 'nope' }); }
    catch (e) { return { isError: e instanceof Error, name: e.name, message: e.message, code: e.code, resolution: e.resolution }; }`);
  t.same(r.result, {
    isError: true,
    name: 'ToolError',
    message: 'Not found.',
    code: 'not_found',
    resolution: 'Check the identifier; it may belong to another organization or have been deleted.',
  });
});

t.test('an uncaught binding error is a tool_error with the code and the line of the call', async (t) => {
  const r = await run('const ok = await context();\nawait files_get({ fileId: "nope" });');
  t.equal(r.ok, false);
  t.same(r.error, {
    type: 'tool_error',
    code: 'not_found',
    message: 'Not found.',
    resolution: 'Check the identifier; it may belong to another organization or have been deleted.',
    line: 2,
  });
  const renamed = await run('try { await files_get({ fileId: "x" }) } catch (e) { e.code = "forged"; throw e }');
  t.equal(renamed.error?.code, 'not_found', 'a rethrown error keeps the code the host gave');
});

t.test('a host that throws is an internal_error tool error, with nothing of the exception', async (t) => {
  const throwing: HostCall = async () => {
    throw new Error('database password is hunter2');
  };
  const r = await engine.execute({ source: 'await context()', bindings: ['context'], hostCall: throwing });
  t.equal(r.error?.type, 'tool_error');
  t.equal(r.error?.code, 'internal_error');
  t.notMatch(JSON.stringify(r), /hunter2/);
});

t.test('caps: the host-call cap ends the execution; calls past the in-flight cap wait their turn', async (t) => {
  const calls = await run('for (let i = 0; i < 100; i++) { try { await context(); } catch {} } return "survived"');
  t.equal(calls.error?.type, 'limit_exceeded');
  t.equal(calls.error?.code, 'max_host_calls');
  t.equal(calls.stats.hostCalls, 20, 'the 21st never reached the host');
  // A host that counts how many calls it holds at once.
  let now = 0,
    peak = 0,
    seen = 0;
  const counting: HostCall = async (name, json, signal) => {
    now++;
    seen++;
    peak = Math.max(peak, now);
    await new Promise((r) => setTimeout(r, 3));
    now--;
    return new FakeHost().hostCall(name, json, signal);
  };
  const all = await runWith(
    'const r = await Promise.all(Array.from({ length: 20 }, (_, i) => context().then(() => i))); return r.reduce((a, b) => a + b, 0)',
    counting,
  );
  t.same({ ok: all.ok, result: all.result, error: all.error }, { ok: true, result: 190, error: undefined }, 'Promise.all over 20 calls with 4 in flight');
  t.equal(seen, 20);
  t.equal(peak, 4, 'never more than maxInFlight at the host');
  const order: number[] = [];
  const ordered = await runWith(
    'await Promise.all([0, 1, 2, 3, 4, 5, 6, 7].map((i) => files_get({ fileId: "fil_" + "a".repeat(25) + "bcdefghi"[i] }).catch(() => 0))); return 1',
    async (name, json, signal) => {
      order.push(JSON.parse(json).fileId.at(-1).charCodeAt(0) - 98);
      return new FakeHost().hostCall(name, json, signal);
    },
  );
  t.equal(ordered.result, 1);
  t.same(order, [0, 1, 2, 3, 4, 5, 6, 7], 'waiting calls cross in the order they were made');
  const over = await run('await Promise.all(Array.from({ length: 21 }, () => context()))');
  t.equal(over.error?.code, 'max_host_calls', 'only the total-calls cap fails');
  const caught = await run(
    'const r = await Promise.allSettled(Array.from({ length: 6 }, () => files_get({ fileId: "nope" }))); return r.map((x) => x.status)',
    new FakeHost({ delayMs: 2 }),
  );
  t.same(caught.result, Array(6).fill('rejected'), 'queued calls reject like any other');
});

t.test('caps: an oversized argument is a catchable limit error', async (t) => {
  const host = new FakeHost();
  const r = await run(
    `
    try { await files_list({ prefix: 'x'.repeat(2000) }); } catch (e) { return [e.name, e.code]; }`,
    host,
  );
  t.same(r.result, ['LimitError', 'max_arg_bytes']);
  t.equal(host.calls.length, 0, 'it never crossed');
  const multibyte = await run('await files_list({ prefix: "é".repeat(600) })', host);
  t.equal(multibyte.error?.code, 'max_arg_bytes', 'counted in UTF-8 bytes by the host (600 chars, 1200 bytes)');
});

t.test('a call made after the script returned is refused and never reaches the host', async (t) => {
  const host = new FakeHost({ delayMs: 5 });
  const r = await run('context().then(() => files_trash({ fileId: "fil_aaaaaaaaaaaaaaaaaaaaaaaaab" })); return "done"', host);
  t.equal(r.result, 'done');
  await new Promise((resolve) => setTimeout(resolve, 30));
  t.same(
    host.calls.map((c) => c.name),
    ['context'],
  );
  t.equal(host.files[0].state, 'active', 'nothing was trashed');
});

t.test('the wall deadline is hard even while a host call is pending', async (t) => {
  const host = new FakeHost({ delayMs: 'never' });
  const t0 = performance.now();
  const r = await run('await files_list({}); return 1', host, { wallMs: 100 });
  t.equal(r.error?.type, 'timeout');
  t.ok(performance.now() - t0 < 250, 'answered at the deadline');
  t.equal(host.calls[0].signal.aborted, true, "the call's signal was aborted");
  const next = await run('return (await context()).organization.id');
  t.equal(next.result, 'org_a', 'the next execution is unaffected');
});

t.test('a reply arriving after the execution ended never runs script code', async (t) => {
  const host = new FakeHost({ delayMs: 40 });
  const r = await run('files_list({}).then(() => { while (true) {} }); return "returned"', host);
  t.equal(r.result, 'returned');
  await new Promise((resolve) => setTimeout(resolve, 80));
  const after = await Promise.all([run('return 1'), run('return 2'), run('return 3')]);
  t.same(
    after.map((x) => x.result),
    [1, 2, 3],
    'no slot is stuck in the late continuation',
  );
});

t.test('host CPU in bindings is reported as hostMs; waiting on I/O is not', async (t) => {
  const engine = await startEngine({ poolSize: 1 });
  t.teardown(() => engine.close());
  // A binding that works (a fixed amount of CPU on the server thread, like a parse) against one that waits (60 ms timer).
  const work = () => {
    let h = 0;
    for (let i = 0; i < 3e7; i++) h = (h * 31 + i) | 0;
    return h;
  };
  const busy = async () => ({ ok: true as const, json: String(work()) });
  const idle = async () => {
    await new Promise((r) => setTimeout(r, 60));
    return { ok: true as const, json: 'null' };
  };
  const source = 'await files_list({}); await Promise.all([context(), context()]); return 1';
  const from = process.threadCpuUsage();
  work();
  const spent = process.threadCpuUsage(from);
  const one = (spent.user + spent.system) / 1000;
  const working = await engine.execute({ source, bindings: BINDINGS, hostCall: busy });
  const waiting = await engine.execute({ source, bindings: BINDINGS, hostCall: idle });
  t.equal(working.result, 1);
  t.equal(waiting.result, 1);
  t.ok(
    working.stats.hostMs >= 2 * one && working.stats.hostMs <= working.stats.wallMs + 5,
    `3 calls of ${one.toFixed(1)} ms CPU each: hostMs ${working.stats.hostMs} (wall ${working.stats.wallMs})`,
  );
  t.ok(waiting.stats.hostMs < 40, `3 calls waiting 60 ms: hostMs ${waiting.stats.hostMs} (wall ${waiting.stats.wallMs})`);
  t.ok(working.stats.cpuMs < 40, 'while the isolate itself barely worked');
});

t.test('calls the script left unanswered at its end are reported as the isolate saw them, whatever the host did', async (t) => {
  // The host answers at once: with host processes the reply can even beat the outcome back to the server, so the
  // report must come from the isolate (an apply fails on an unanswered write however fast that write completes).
  const instant: HostCall = async () => ({ ok: true, json: '{}' });
  const unawaited = await runWith('files_list({}); context(); files_list({}); return 1', instant);
  t.equal(unawaited.ok, true);
  t.same([...(unawaited.unansweredCalls ?? [])].sort(), ['context', 'files_list'], 'each binding left pending, once');
  const awaited = await runWith('await files_list({}); await context(); return 1', instant);
  t.equal(awaited.unansweredCalls, undefined, 'nothing is reported when every call was answered');
  const failed = await runWith('files_get({ fileId: "x" }); throw new Error("boom")', instant);
  t.equal(failed.ok, false);
  t.same(failed.unansweredCalls, ['files_get'], 'a failing script reports its pending calls too');
});
