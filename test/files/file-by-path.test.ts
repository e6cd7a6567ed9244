// Files are paths, so every binding that acts on one existing file takes its path (`name`, or `path` as agents write
// it) wherever it takes its `fileId`: an agent that knows "notes/todo.md" needs no files_list first.
import t from 'tap';
import { startTestApp } from '../helpers/app.ts';
import { callerFor, caller as as } from '../helpers/callers.ts';
import { ServiceError } from '../../runtime-api/errors.ts';
import { BINDINGS } from '../../runtime-api/registry.ts';
import { files_get } from '../../runtime-api/bindings/files/files_get.ts';
import { files_trash } from '../../runtime-api/bindings/files/files_trash.ts';
import { files_restore } from '../../runtime-api/bindings/files/files_restore.ts';
import { files_read_text } from '../../runtime-api/bindings/files/files_read_text.ts';
import { files_read_bytes } from '../../runtime-api/bindings/files/files_read_bytes.ts';
import { files_write_text } from '../../runtime-api/bindings/files/files_write_text.ts';
import { spreadsheet_read } from '../../runtime-api/bindings/spreadsheets/spreadsheet_read.ts';

const fail = (p: Promise<unknown>) =>
  p.then(
    () => {
      throw new Error('expected a ServiceError');
    },
    (e) => e as ServiceError,
  );

/** Bindings that take a `fileId` but where `name` means something else, or where a path would be a guess. */
const ID_ONLY: Record<string, string> = {
  files_update: '`name` is the new path',
  files_write_text: '`name` is the path to write',
  files_delete: 'permanent: only an id, never a guess among trashed versions',
  files_export: 'takes a list of ids or a prefix',
};

t.test('every binding acting on one file takes its path too', async (t) => {
  for (const b of BINDINGS) {
    const entries = (b.input as { entries?: Record<string, unknown> }).entries;
    if (!entries || !('fileId' in entries) || b.name in ID_ONLY) continue;
    t.ok('name' in entries, `${b.name} takes \`name\` beside \`fileId\``);
  }
});

t.test('reading, trashing and restoring by path', async (t) => {
  const app = await startTestApp(t, { env: { RATE_LIMIT_MAX: '100000' } });
  const call = as(app, await callerFor(app, { email: 'paths@example.com', org: 'by-path' }));
  const csv = await call(files_write_text, { name: 'reports/q1.csv', mediaType: 'text/csv', text: 'region,revenue\nnorth,1200\n' });

  for (const key of ['name', 'path'] as const) {
    t.equal((await call(files_get, { [key]: 'reports/q1.csv' })).fileId, csv.fileId, `files_get by ${key}`);
    t.equal((await call(files_read_text, { [key]: 'reports/q1.csv' })).text, 'region,revenue\nnorth,1200\n', `files_read_text by ${key}`);
    t.equal((await call(files_read_bytes, { [key]: 'reports/q1.csv' })).size, 26, `files_read_bytes by ${key}`);
    const wb = await call(spreadsheet_read, { [key]: 'reports/q1.csv' });
    t.same(wb.sheets[0].tables[0].rows, [['north', 1200]], `spreadsheet_read by ${key}`);
  }

  const missing = await fail(call(files_read_text, { name: 'reports/nope.csv' }));
  t.equal(missing.code, 'not_found');
  t.match(missing.resolution, /reports\/nope\.csv/, 'the refusal names the path');
  const both = await fail(call(files_read_text, { fileId: csv.fileId, name: 'reports/q1.csv' }));
  t.equal(both.code, 'invalid_input', 'an id and a path together are refused');
  t.match(both.resolution, /fileId.*name|one of them/);
  t.equal((await fail(call(files_read_text, {}))).code, 'invalid_input', 'naming no file is refused');

  // Two versions of one path in the trash: restoring by path brings back the one trashed last.
  const v1 = await call(files_write_text, { name: 'drafts/plan.txt', text: 'v1' });
  await call(files_trash, { path: 'drafts/plan.txt' });
  const v2 = await call(files_write_text, { name: 'drafts/plan.txt', text: 'v2' });
  const trashed = await call(files_trash, { name: 'drafts/plan.txt' });
  t.equal(trashed.fileId, v2.fileId, 'files_trash by path trashes the active file there');
  t.equal(trashed.state, 'trashed');
  const restored = await call(files_restore, { path: 'drafts/plan.txt' });
  t.equal(restored.fileId, v2.fileId, 'files_restore by path restores the version trashed last');
  t.equal((await call(files_read_text, { name: 'drafts/plan.txt' })).text, 'v2');
  t.equal((await fail(call(files_restore, { name: 'drafts/plan.txt' }))).code, 'path_taken', 'the older version meets the restored one');
  t.equal((await call(files_restore, { fileId: v1.fileId, onConflict: 'rename' })).state, 'active', 'and an id still picks any version');
  const none = await fail(call(files_restore, { name: 'drafts/never.txt' }));
  t.equal(none.code, 'not_found');
  t.match(none.resolution, /trash/, 'the refusal says no such path is in the trash');
});
