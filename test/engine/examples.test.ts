// The example scripts (fixtures/scripts/examples) run as written against a host with the real bindings'
// shapes, and do what their opening comment says.
import t from 'tap';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { BINDINGS, FakeHost } from './helpers/fake-host.ts';
import { ROOT, startEngine } from './helpers/engine.ts';

const engine = await startEngine({ poolSize: 2 });
t.teardown(() => engine.close());
const example = (name: string) => readFileSync(join(ROOT, 'fixtures/scripts/examples', `${name}.js`), 'utf8');
const run = (name: string, host = new FakeHost()) => engine.execute({ source: example(name), bindings: BINDINGS, hostCall: host.hostCall });

t.test('list-active-files pages through every active file', async (t) => {
  const r = await run('list-active-files');
  t.equal(r.ok, true, r.error?.message ?? 'ok');
  t.same(r.result, [
    'report-1.csv (text/csv, 1000 bytes)',
    'report-2.csv (text/csv, 2000 bytes)',
    'report-3.csv (text/csv, 3000 bytes)',
    'report-4.csv (text/csv, 4000 bytes)',
    'photo.png (image/png, 5000 bytes)',
  ]);
  t.same(r.logs, [{ level: 'log', message: '5 active files' }]);
});

t.test('sum-sizes totals bytes per media type', async (t) => {
  const r = await run('sum-sizes');
  t.same(r.result, { totals: { 'text/csv': 10000, 'image/png': 5000 }, all: 15000, quotaUsedPercent: 0 });
});

t.test('batch-rename renames through files_update and reports failures', async (t) => {
  const host = new FakeHost();
  const r = await run('batch-rename', host);
  t.same((r.result as { renamed: string[] }).renamed, ['2026/report-1.csv', '2026/report-2.csv', '2026/report-3.csv', '2026/report-4.csv']);
  t.same((r.result as { failed: unknown[] }).failed, []);
  t.equal(host.called('files_update').length, 4);
  t.same(r.logs, [{ level: 'info', message: 'renamed 4, failed 0' }]);
});

t.test('begin-upload returns the part plan', async (t) => {
  const r = await run('begin-upload');
  const plan = r.result as { parts: { partNumber: number; bytes: number; url: string }[] };
  t.equal(plan.parts.length, 3);
  t.same(
    plan.parts.map((p) => p.bytes),
    [8388608, 8388608, 4194304],
  );
  t.match(plan.parts[2].url, /\/parts\/3$/);
});

t.test('check-context summarises the caller', async (t) => {
  const r = await run('check-context');
  t.same(r.result, {
    organization: 'org-a',
    user: 'ana@example.com',
    role: 'member',
    canRead: true,
    canWrite: true,
    canAdminister: false,
    trashRetentionDays: 30,
  });
});

t.test('every example stays far inside the default limits', async (t) => {
  for (const name of ['list-active-files', 'sum-sizes', 'batch-rename', 'begin-upload', 'check-context']) {
    const r = await run(name);
    t.equal(r.ok, true, name);
    t.ok(r.stats.wallMs < 1000 && r.stats.hostCalls <= 10, `${name}: ${JSON.stringify(r.stats)}`);
  }
});
