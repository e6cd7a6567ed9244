// Honest accounting over real HTTP (/app/v1/execute), a real engine and real bindings: a killed execution still
// reports the CPU it used (in its result and in executions_list), host time in bindings is reported, and a killed
// execution's in-flight binding calls stop instead of running on.
import t from 'tap';
import { startTestApp } from '../helpers/app.ts';
import { http } from '../helpers/http.ts';
import { callerFor } from '../helpers/callers.ts';
import { uploadBytes } from '../spreadsheets/helpers.ts';

/** One second of spinning (a fixed count of iterations would vary with the JIT's background threads under load). */
const BURN = 'const until = Date.now() + 1000; while (Date.now() < until) {}';
/** Usually reaches the 64 MB heap limit in ~0.1 s, and the isolate is disposed under the script (memory_limit). */
const FAST_BOMB = 'const bomb = []; for (;;) bomb.push(new Array(1 << 17).fill(0.5));';

/** 10,000 rows × 10 columns: 100,000 cells, the most one spreadsheet_read takes. */
function bigCsv(): Buffer {
  const lines = ['a,b,c,d,e,f,g,h,i,j'];
  for (let r = 0; r < 10_000; r++) lines.push(Array.from({ length: 10 }, (_, c) => (c % 2 ? `text ${r}-${c}` : String(r * 10 + c))).join(','));
  return Buffer.from(lines.join('\n'));
}

t.test('execution accounting', async (t) => {
  const app = await startTestApp(t, { env: { RATE_LIMIT_MAX: '100000', ENGINE_POOL_SIZE: '1', ENGINE_MAX_POOL_SIZE: '1' } });
  const owner = await callerFor(app, { email: 'accounting@example.com', org: 'org-accounting' });
  const exec = async (script: string) => {
    const res = await http(`${app.url}/app/v1/execute`, { json: { script }, token: owner.token });
    t.equal(res.status, 200);
    return res.body;
  };

  t.test('a script killed for memory after burning CPU reports that CPU, in its result and in executions_list', async (t) => {
    const killed = await exec(`${BURN} ${FAST_BOMB}`);
    t.equal(killed.error?.type, 'memory_limit');
    // Before sampling, an isolate disposed at its memory limit could not be asked and cpuMs read 0. A second of
    // spinning gets at least a quarter of a core even on a loaded machine.
    t.ok(killed.stats.cpuMs >= 250 && killed.stats.cpuMs <= killed.stats.wallMs + 5, `killed: ${killed.stats.cpuMs} ms of CPU in ${killed.stats.wallMs} ms`);
    const audit = await exec('return (await executions_list({ limit: 1 })).items[0]');
    t.equal(audit.result.errorType, 'memory_limit');
    t.ok(Math.abs(audit.result.cpuMs - killed.stats.cpuMs) <= 1, `executions_list records the same CPU (${audit.result.cpuMs} ms)`);
  });

  t.test("a killed execution's 16 in-flight spreadsheet_read calls stop; host time is reported", async (t) => {
    const file = await uploadBytes(app, owner, 'big.csv', bigCsv(), 'text/csv');
    const one = await exec(`const wb = await spreadsheet_read({ fileId: ${JSON.stringify(file.fileId)} }); return wb.sheets[0].tables[0].rows.length;`);
    t.equal(one.result, 10_000);
    t.ok(one.stats.hostMs > 0 && one.stats.hostMs <= one.stats.wallMs + 1, `one read: hostMs ${one.stats.hostMs} within wallMs ${one.stats.wallMs}`);

    const started = performance.now();
    const cpu0 = process.cpuUsage();
    const killed = await exec(`
      const reads = [];
      for (let i = 0; i < 16; i++) reads.push(spreadsheet_read({ fileId: ${JSON.stringify(file.fileId)} }));
      await reads[0];
      ${FAST_BOMB}`);
    const answered = performance.now();
    t.match(killed.error?.type, /^(memory_limit|timeout)$/, `killed (${killed.error?.type})`);
    t.ok(killed.stats.hostMs > 0, `host time charged: ${killed.stats.hostMs} ms`);
    // Whatever host work is left after the answer (parsing the other 15 files) shows as this process's CPU.
    const cpuAnswer = process.cpuUsage(cpu0);
    await new Promise((r) => setTimeout(r, 3000));
    const cpuAfter = process.cpuUsage(cpu0);
    const afterMs = (cpuAfter.user + cpuAfter.system - cpuAnswer.user - cpuAnswer.system) / 1000;
    t.comment(
      `request to answer ${(answered - started).toFixed(0)} ms (script wall ${killed.stats.wallMs}), CPU after the answer ${afterMs.toFixed(0)} ms, one read ${one.stats.hostMs} ms`,
    );
    t.ok(afterMs < Math.max(150, one.stats.hostMs), `host work stopped: ${afterMs.toFixed(0)} ms of CPU after the answer`);
    // Uncancelled, the 16 reads would run to their end (16 × one read on the server's thread) before the answer, which
    // waits for every call to settle; cancelled, the answer comes well inside half of that.
    t.ok(answered - started - killed.stats.wallMs < 8 * one.stats.hostMs + 500, 'the answer was not held up by the cancelled calls');
    const next = await exec('return 1');
    t.equal(next.result, 1, 'the engine serves the next script');
  });
});
