// Files are paths: one active file per path (writes replace, the replaced version waits in the trash), restore and
// move onto a taken path only as the caller decides, a file and a folder never share a path, and all of it under real
// concurrency: writers racing on one path over separate connections, restores of many versions at once, an upload
// completing while a write lands on its path. Plus the two new fields, modifiedAt and executable.
import t from 'tap';
import { startTestApp } from '../helpers/app.ts';
import { callerFor, caller as as } from '../helpers/callers.ts';
import { http } from '../helpers/http.ts';
import { ServiceError } from '../../runtime-api/errors.ts';
import { fromDatabaseError } from '../../runtime-api/store/errors.ts';
import { hostError } from '../../runtime-api/execution/execution-calls.ts';
import { files_list } from '../../runtime-api/bindings/files/files_list.ts';
import { files_get } from '../../runtime-api/bindings/files/files_get.ts';
import { files_update } from '../../runtime-api/bindings/files/files_update.ts';
import { files_trash } from '../../runtime-api/bindings/files/files_trash.ts';
import { files_restore } from '../../runtime-api/bindings/files/files_restore.ts';
import { files_read_text } from '../../runtime-api/bindings/files/files_read_text.ts';
import { files_write_text } from '../../runtime-api/bindings/files/files_write_text.ts';
import { files_write_bytes } from '../../runtime-api/bindings/files/files_write_bytes.ts';
import { spreadsheet_write } from '../../runtime-api/bindings/spreadsheets/spreadsheet_write.ts';
import { upload_begin } from '../../runtime-api/bindings/uploads/upload_begin.ts';
import { upload_complete } from '../../runtime-api/bindings/uploads/upload_complete.ts';
import { derivedName } from '../../runtime-api/services/paths.ts';
import { download, putPart } from './transfer-helpers.ts';
import { fsBlobStore } from '../../runtime-api/blobs/fs.ts';
import { join } from 'node:path';

const fail = (p: Promise<unknown>) =>
  p.then(
    () => {
      throw new Error('expected a ServiceError');
    },
    (e) => e as ServiceError,
  );

t.test('files are paths', async (t) => {
  const app = await startTestApp(t, { env: { RATE_LIMIT_MAX: '100000', DATABASE_POOL_MAX: '12' } });
  let orgs = 0;
  /** A fresh organization per subtest, so lists and paths start empty. */
  const fresh = async () => {
    const who = await callerFor(app, { email: `p${++orgs}@example.com`, org: `paths-${orgs}` });
    const call = as(app, who);
    const active = async (prefix?: string) => (await call(files_list, { limit: 1000, ...(prefix ? { prefix } : {}) })).items;
    const trashed = async (prefix?: string) => (await call(files_list, { state: 'trashed', limit: 1000, ...(prefix ? { prefix } : {}) })).items;
    return { who, call, active, trashed };
  };

  t.test('a write to a taken path replaces the file; the old version waits in the trash', async (t) => {
    const { call, active, trashed } = await fresh();
    const v1 = await call(files_write_text, { name: 'report.txt', text: 'one' });
    t.equal(v1.replacedFileId, null);
    const v2 = await call(files_write_text, { name: 'report.txt', text: 'two' });
    t.not(v2.fileId, v1.fileId, 'the new content is a new file');
    t.equal(v2.replacedFileId, v1.fileId, 'the answer names the replaced file');
    const v3 = await call(files_write_bytes, { name: 'report.txt', base64: Buffer.from('three').toString('base64') });
    t.equal(v3.replacedFileId, v2.fileId, 'files_write_bytes replaces too');
    const wb = { version: 1, sheets: [{ name: 'S', tables: [{ name: 'S', columns: [{ name: 'a', type: 'integer' }], rows: [[1]] }] }] };
    const s1 = await call(spreadsheet_write, { name: 'report.csv', format: 'csv', workbook: wb });
    t.equal((await call(spreadsheet_write, { name: 'report.csv', format: 'csv', workbook: wb })).replacedFileId, s1.fileId, 'and spreadsheet_write');

    t.same(
      (await active()).map((f) => [f.name, f.fileId]),
      [
        ['report.csv', (await call(files_get, { name: 'report.csv' })).fileId],
        ['report.txt', v3.fileId],
      ],
      'one active file per path',
    );
    const inTrash = await trashed('report.txt');
    t.same(inTrash.map((f) => f.fileId).sort(), [v1.fileId, v2.fileId].sort(), 'both replaced versions are in the trash');
    t.equal((await call(files_read_text, { fileId: v1.fileId })).text, 'one', 'with their bytes');
    t.equal((await call(files_get, { name: 'report.txt' })).fileId, v3.fileId, 'files_get by path is never ambiguous');
    const none = await fail(call(files_get, { name: 'nothing/here.txt' }));
    t.equal(none.code, 'not_found');
    t.equal((await fail(call(files_get, { fileId: v1.fileId, name: 'report.txt' }))).code, 'invalid_input', 'one of fileId and name');
  });

  t.test('restore into a taken path: 409 path_taken, or replace, or rename beside it', async (t) => {
    const { who, call, active, trashed } = await fresh();
    const old = await call(files_write_text, { name: 'docs/report.txt', text: 'old' });
    const current = await call(files_write_text, { name: 'docs/report.txt', text: 'current' });
    const taken = await fail(call(files_restore, { fileId: old.fileId }));
    t.equal(taken.code, 'path_taken');
    t.equal(taken.status, 409);
    t.same(Object.keys(taken.toBody()).sort(), ['code', 'existingFileId', 'message', 'path'], 'the typed shape, with the path and who holds it');
    t.match(taken.toBody(), { path: 'docs/report.txt', existingFileId: current.fileId });
    t.match(taken.message, /"docs\/report\.txt" is taken by the active file fil_\w+\. Pass onConflict: "replace" .* or onConflict: "rename"/);
    t.match((taken.toBody('pt-BR') as { message: string }).message, /já é o caminho do arquivo ativo .* onConflict: "rename" para restaurá-lo ao lado/);
    t.match(hostError(taken, 'en-US'), { ok: false, error: { code: 'path_taken', resolution: /onConflict/ } }, 'a script sees the code and the fix');
    t.equal((await call(files_get, { fileId: old.fileId })).state, 'trashed', 'nothing changed');

    const beside = await call(files_restore, { fileId: old.fileId, onConflict: 'rename' });
    const day = beside.updatedAt.slice(0, 10);
    t.match(beside, { state: 'active', name: `docs/report (restored ${day}).txt`, renamedFrom: 'docs/report.txt', replacedFileId: null });
    t.equal((await call(files_get, { name: 'docs/report.txt' })).fileId, current.fileId, 'the current file stays');

    await call(files_trash, { fileId: beside.fileId });
    const again = await call(files_write_text, { name: `docs/report (restored ${day}).txt`, text: 'in the way' });
    const third = await call(files_restore, { fileId: beside.fileId, onConflict: 'rename' });
    t.equal(third.name, `docs/report (restored ${day}) (restored ${day}).txt`, 'a free name beside the taken one');
    t.not(third.name, again.name);

    t.equal(third.fileId, old.fileId);
    t.same(await call(files_restore, { fileId: old.fileId }), { ...third, renamedFrom: null }, 'restoring an active file changes nothing');

    const one = await call(files_write_text, { name: 'swap.txt', text: 'one' });
    const two = await call(files_write_text, { name: 'swap.txt', text: 'two' });
    const swap = await call(files_restore, { fileId: one.fileId, onConflict: 'replace' });
    t.match(swap, { name: 'swap.txt', state: 'active', replacedFileId: two.fileId, renamedFrom: null });
    t.equal((await call(files_get, { fileId: two.fileId })).state, 'trashed', 'the file it replaced is in the trash, restorable in turn');
    t.equal((await call(files_read_text, { fileId: (await call(files_get, { name: 'swap.txt' })).fileId })).text, 'one');
    const paths = (await active()).map((f) => f.name);
    t.same(paths, [...new Set(paths)], 'never two active files at one path');
    t.equal((await trashed('swap.txt')).length, 1);
    t.ok(who);
  });

  t.test('files_update onto a taken path: 409 path_taken, replace or rename', async (t) => {
    const { call, active } = await fresh();
    const a = await call(files_write_text, { name: 'a.csv', text: 'a' });
    const b = await call(files_write_text, { name: 'b.csv', text: 'b' });
    const taken = await fail(call(files_update, { fileId: a.fileId, name: 'b.csv' }));
    t.equal(taken.code, 'path_taken');
    t.match(taken.message, /"b\.csv" is taken by the active file .* or onConflict: "rename" to take a free name beside it/);
    const renamed = await call(files_update, { fileId: a.fileId, name: 'b.csv', onConflict: 'rename' });
    t.match(renamed, { name: 'b (2).csv', replacedFileId: null });
    const c = await call(files_write_text, { name: 'c.csv', text: 'c' });
    t.equal((await call(files_update, { fileId: c.fileId, name: 'b.csv', onConflict: 'rename' })).name, 'b (3).csv');
    const moved = await call(files_update, { fileId: a.fileId, name: 'b.csv', onConflict: 'replace' });
    t.match(moved, { fileId: a.fileId, name: 'b.csv', replacedFileId: b.fileId });
    t.equal((await call(files_get, { fileId: b.fileId })).state, 'trashed');
    t.equal((await call(files_update, { fileId: a.fileId, name: 'b.csv' })).name, 'b.csv', 'moving a file to its own path is no conflict');
    t.same(
      (await active()).map((f) => f.name),
      ['b (3).csv', 'b.csv'],
    );
    const byId = await fail(call(files_write_text, { fileId: a.fileId, name: 'b (3).csv', text: 'x' }));
    t.equal(byId.code, 'path_taken', 'a write by id cannot take another file’s path');
    t.match(byId.message, /Write by `name` alone to replace/);
  });

  t.test('a file and a folder never share a path (409 folder_conflict), whoever tries', async (t) => {
    const { who, call, active } = await fresh();
    const x = await call(files_write_text, { name: 'x', text: 'file x' });
    const inside = await fail(call(files_write_text, { name: 'x/y.txt', text: '' }));
    t.equal(inside.code, 'folder_conflict');
    t.equal(inside.status, 409);
    t.match(inside.toBody(), { path: 'x/y.txt', kind: 'parent_is_file', conflictingPath: 'x', conflictingFileId: x.fileId });
    t.match(inside.message, /"x\/y\.txt" cannot be created: "x" is a file .* so it cannot also be a folder\. Rename or trash "x" first/);
    t.match((inside.toBody('pt-BR') as { message: string }).message, /não pode ser criado: "x" é um arquivo/);
    t.equal((await fail(call(files_write_bytes, { name: 'x/deep/z', base64: '' }))).code, 'folder_conflict');
    t.equal((await fail(call(upload_begin, { name: 'x/big.bin', size: 10 }))).code, 'folder_conflict', 'refused before any byte is sent');

    await call(files_write_text, { name: 'dir/a/b.txt', text: 'b' });
    const onFolder = await fail(call(files_write_text, { name: 'dir/a', text: '' }));
    t.match(onFolder.toBody(), { code: 'folder_conflict', kind: 'path_is_folder', conflictingPath: 'dir/a/b.txt' });
    t.match(onFolder.message, /"dir\/a" cannot be a file: it is a folder holding other files, such as "dir\/a\/b\.txt"/);
    t.equal((await fail(call(files_write_text, { name: 'dir', text: '' }))).code, 'folder_conflict');
    t.ok(await call(files_write_text, { name: 'dir/a2', text: '' }), 'a sibling whose name starts the same is fine');
    t.ok(await call(files_write_text, { name: 'dir/a.txt', text: '' }));

    const mover = await call(files_write_text, { name: 'm', text: 'm' });
    t.equal((await fail(call(files_update, { fileId: mover.fileId, name: 'x/m' }))).code, 'folder_conflict', 'moves too');
    t.equal((await fail(call(files_update, { fileId: mover.fileId, name: 'dir/a' }))).code, 'folder_conflict');
    const onX = await call(files_update, { fileId: mover.fileId, name: 'x', onConflict: 'replace' });
    t.same([onX.name, onX.replacedFileId], ['x', x.fileId], 'onto a file, replace applies (a folder is never replaced)');
    const self = await call(files_update, { fileId: mover.fileId, name: 'x/inside' });
    t.equal(self.name, 'x/inside', 'a file may move into a folder named as itself: it no longer is in the way');

    const trashedOne = await call(files_write_text, { name: 'q', text: 'q' });
    await call(files_trash, { fileId: trashedOne.fileId });
    await call(files_write_text, { name: 'q/r', text: 'r' });
    const restoreClash = await fail(call(files_restore, { fileId: trashedOne.fileId, onConflict: 'replace' }));
    t.equal(restoreClash.code, 'folder_conflict', 'restore too, whatever onConflict says');

    // An upload begun while the path was free, completed after a file took one of its folders: refused, still open.
    const u = await call(upload_begin, { name: 'late/file.bin', size: 3 });
    t.equal((await putPart(app, who.token, u.uploadId, 1, Buffer.from('abc'))).status, 200);
    const blocker = await call(files_write_text, { name: 'late', text: 'in the way' });
    const late = await fail(call(upload_complete, { uploadId: u.uploadId }));
    t.equal(late.code, 'folder_conflict');
    t.equal((await app.deps.sql`select state from uploads where id = ${u.uploadId}`)[0].state, 'open', 'the upload stays open');
    await call(files_trash, { fileId: blocker.fileId });
    t.equal((await call(upload_complete, { uploadId: u.uploadId })).file.name, 'late/file.bin', 'and completes once the way is clear');

    const names = (await active()).map((f) => f.name);
    for (const n of names)
      t.notOk(
        names.some((m) => m.startsWith(`${n}/`)),
        `${n} is not also a folder`,
      );
  });

  t.test('writers racing on one path over separate connections: one active file, the rest in the trash, no 500', async (t) => {
    const { call, active, trashed } = await fresh();
    const results = await Promise.allSettled(Array.from({ length: 16 }, (_, i) => call(files_write_text, { name: 'race/one.txt', text: `writer ${i}` })));
    t.same(
      results.filter((r) => r.status === 'rejected'),
      [],
      'every writer succeeded',
    );
    const act = await active('race/');
    t.equal(act.length, 1, 'exactly one active file');
    t.equal((await trashed('race/')).length, 15, 'every other version is in the trash');
    const written = results.map((r) => (r as PromiseFulfilledResult<{ fileId: string; replacedFileId: string | null }>).value);
    t.equal(written.filter((w) => w.replacedFileId === null).length, 1, 'exactly one writer found the path free');
    t.equal(new Set(written.map((w) => w.replacedFileId)).size, 16, 'each replaced a different version: a chain, nothing lost');
    t.ok(
      written.some((w) => w.fileId === act[0].fileId),
      'the active one is one of them',
    );

    // The same race through two separate HTTP requests, each running a script.
    const token = (await callerFor(app, { email: `p${orgs}@example.com`, org: `paths-${orgs}` })).token;
    const script = (i: number) => `return await files_write_text({ name: "race/http.txt", text: "http ${i}" });`;
    const answers = await Promise.all([0, 1, 2, 3].map((i) => http(`${app.url}/app/v1/execute`, { token, json: { script: script(i) } })));
    for (const a of answers) t.same([a.status, a.body.ok], [200, true], JSON.stringify(a.body.error ?? ''));
    t.equal((await active('race/http')).length, 1);
    t.equal((await trashed('race/http')).length, 3);

    // A file and a folder raced: exactly one wins, the other is refused cleanly.
    const clash = await Promise.allSettled([call(files_write_text, { name: 'fx', text: '' }), call(files_write_text, { name: 'fx/y', text: '' })]);
    t.equal(clash.filter((r) => r.status === 'fulfilled').length, 1);
    const refused = clash.find((r): r is PromiseRejectedResult => r.status === 'rejected')!;
    t.equal((refused.reason as ServiceError).code, 'folder_conflict');
  });

  t.test('restoring many versions of one path at once', async (t) => {
    const { call, active, trashed } = await fresh();
    const versions = [];
    for (let i = 0; i < 6; i++) versions.push(await call(files_write_text, { name: 'many.txt', text: `v${i}` }));
    const current = versions.at(-1)!;
    const old = versions.slice(0, -1);
    const plain = await Promise.allSettled(old.map((v) => call(files_restore, { fileId: v.fileId })));
    t.ok(
      plain.every((r) => r.status === 'rejected' && (r.reason as ServiceError).code === 'path_taken'),
      'a path held: every plain restore refused',
    );
    const renamed = await Promise.allSettled(old.map((v) => call(files_restore, { fileId: v.fileId, onConflict: 'rename' })));
    const names = renamed.map((r) => (r as PromiseFulfilledResult<{ name: string }>).value.name);
    t.equal(new Set(names).size, 5, 'five restored at once, five different names');
    t.ok(
      names.every((n) => n.startsWith('many (restored ')),
      names.join(', '),
    );
    t.equal((await call(files_get, { name: 'many.txt' })).fileId, current.fileId);

    const again = [];
    for (let i = 0; i < 6; i++) again.push(await call(files_write_text, { name: 'again.txt', text: `v${i}` }));
    await call(files_trash, { fileId: again.at(-1)!.fileId });
    t.equal((await trashed('again.txt')).length, 6, 'six versions of one path, all in the trash');
    const racing = await Promise.allSettled(again.map((v) => call(files_restore, { fileId: v.fileId })));
    t.equal(racing.filter((r) => r.status === 'fulfilled').length, 1, 'the path free: exactly one restore takes it');
    t.ok(
      racing.every((r) => r.status === 'fulfilled' || (r.reason as ServiceError).code === 'path_taken'),
      'the others are refused with path_taken',
    );
    t.equal((await active('again.txt')).length, 1);
    const replacing = await Promise.allSettled(again.map((v) => call(files_restore, { fileId: v.fileId, onConflict: 'replace' })));
    t.same(
      replacing.filter((r) => r.status === 'rejected'),
      [],
      'with replace, each takes the path in turn',
    );
    t.equal((await active('again.txt')).length, 1, 'still one active file at the path');
    t.equal((await trashed('again.txt')).length, 5);
  });

  t.test('"restore everything trashed today" after a sync-like replace brings back no duplicate', async (t) => {
    const { who, call, active } = await fresh();
    for (const n of ['a', 'b', 'c']) await call(files_write_text, { name: `sync/${n}.txt`, text: 'old' });
    for (const n of ['a', 'b']) await call(files_write_text, { name: `sync/${n}.txt`, text: 'new' }); // replaced: old to the trash
    const lost = await call(files_write_text, { name: 'sync/gone.txt', text: 'deleted by mistake' });
    await call(files_trash, { fileId: lost.fileId });
    const script = `const { items } = await files_list({ state: "trashed", limit: 100 });
const out = { restored: [], skipped: [] };
for (const f of items) {
  try { out.restored.push((await files_restore({ fileId: f.fileId })).name); }
  catch (e) { if (e.code !== "path_taken") throw e; out.skipped.push(f.name); }
}
return out;`;
    const res = await http(`${app.url}/app/v1/execute`, { token: who.token, json: { script } });
    t.equal(res.body.ok, true, JSON.stringify(res.body.error ?? ''));
    t.same(res.body.result, { restored: ['sync/gone.txt'], skipped: ['sync/a.txt', 'sync/b.txt'] });
    const names = (await active('sync/')).map((f) => f.name);
    t.same(names, ['sync/a.txt', 'sync/b.txt', 'sync/c.txt', 'sync/gone.txt']);
    t.equal((await call(files_read_text, { fileId: (await call(files_get, { name: 'sync/a.txt' })).fileId })).text, 'new', 'the new versions stay');
  });

  t.test('upload_complete racing a write to its path: one active file, the other version in the trash', async (t) => {
    const { who, call, active, trashed } = await fresh();
    for (let round = 0; round < 4; round++) {
      const name = `up/race-${round}.bin`;
      const u = await call(upload_begin, { name, size: 4 });
      t.equal((await putPart(app, who.token, u.uploadId, 1, Buffer.from('upld'))).status, 200);
      const [completed, written] = await Promise.all([
        call(upload_complete, { uploadId: u.uploadId }),
        call(files_write_bytes, { name, base64: Buffer.from('text').toString('base64') }),
      ]);
      const act = await active(name);
      t.equal(act.length, 1, `round ${round}: one active file`);
      t.equal((await trashed(name)).length, 1, `round ${round}: the other in the trash`);
      const winner = act[0].fileId;
      if (winner === completed.file.fileId) t.equal(completed.replacedFileId, written.fileId);
      else t.same([winner, written.replacedFileId], [written.fileId, completed.file.fileId]);
    }
    // A completed upload replaces like any write, and says so.
    const first = await call(files_write_text, { name: 'up/plain.bin', text: 'first' });
    const u = await call(upload_begin, { name: 'up/plain.bin', size: 2 });
    await putPart(app, who.token, u.uploadId, 1, Buffer.from('hi'));
    const done = await call(upload_complete, { uploadId: u.uploadId });
    t.equal(done.replacedFileId, first.fileId);
    t.equal(done.file.fileId, u.fileId, 'the upload keeps the id upload_begin announced');
  });

  t.test('plan records writes to taken paths; apply performs them, and a failed apply leaves everything as it was', async (t) => {
    const { who, call, active, trashed } = await fresh();
    const exec = (body: unknown) => http(`${app.url}/app/v1/execute`, { token: who.token, json: body });
    const kept = await call(files_write_text, { name: 'plan/a.txt', text: 'before' });
    const old = await call(files_write_text, { name: 'plan/b.txt', text: 'b old' });
    await call(files_write_text, { name: 'plan/b.txt', text: 'b new' });
    const script = `const a = await files_write_text({ name: "plan/a.txt", text: "after", modifiedAt: "2026-01-02T03:04:05Z" });
const b = await files_restore({ fileId: "${old.fileId}", onConflict: "replace" });
return [a.replacedFileId ?? null, b.replacedFileId ?? null];`;
    const plan = await exec({ script, mode: 'plan' });
    t.equal(plan.body.ok, true, JSON.stringify(plan.body.error ?? ''));
    t.same(
      plan.body.operations.map((o: { binding: string; input: unknown }) => [o.binding, o.input]),
      [
        ['files_write_text', { name: 'plan/a.txt', text: 'after', modifiedAt: '2026-01-02T03:04:05Z' }],
        ['files_restore', { fileId: old.fileId, onConflict: 'replace' }],
      ],
      'the writes as given: the path, the text and the decision',
    );
    t.equal((await call(files_get, { name: 'plan/a.txt' })).fileId, kept.fileId, 'planning changed nothing');

    const applied = await exec({ script, mode: 'apply', planToken: plan.body.planToken });
    t.equal(applied.body.applied, true, JSON.stringify(applied.body.error ?? ''));
    const [replacedA, replacedB] = applied.body.result;
    t.equal(replacedA, kept.fileId, 'the apply replaced the file at the path');
    const a = await call(files_get, { name: 'plan/a.txt' });
    t.equal(a.modifiedAt, '2026-01-02T03:04:05.000Z');
    t.equal((await call(files_get, { fileId: kept.fileId })).state, 'trashed');
    t.equal((await call(files_get, { name: 'plan/b.txt' })).fileId, old.fileId);
    t.equal((await call(files_get, { fileId: replacedB })).state, 'trashed');

    // Planned fine; on apply the script sees its own write (one transaction) and fails: everything rolls back.
    const before = { active: await active('plan/'), trashed: await trashed('plan/') };
    const doomed = `await files_write_text({ name: "plan/a.txt", text: "doomed" });
await files_write_text({ name: "plan/c.txt", text: "doomed" });
let seen = true;
try { await files_get({ name: "plan/c.txt" }); } catch { seen = false; }
if (seen) throw new Error("changed my mind");
return "planned";`;
    const plan2 = await exec({ script: doomed, mode: 'plan' });
    t.equal(plan2.body.result, 'planned');
    const applied2 = await exec({ script: doomed, mode: 'apply', planToken: plan2.body.planToken });
    t.equal(applied2.body.applied, false);
    t.same({ active: await active('plan/'), trashed: await trashed('plan/') }, before, 'nothing replaced, nothing in the trash');
  });

  t.test('modifiedAt and executable: set by writers, carried by uploads, changed by files_update', async (t) => {
    const { who, call } = await fresh();
    const plain = await call(files_write_text, { name: 'm/plain.txt', text: 'x' });
    t.equal(plain.executable, false, 'not executable by default');
    t.equal(plain.modifiedAt, plain.createdAt, 'modifiedAt defaults to the write time');
    const script = await call(files_write_text, { name: 'm/run.sh', text: '#!/bin/sh\n', executable: true, modifiedAt: '2025-12-31T23:59:58.5+01:00' });
    t.match(script, { executable: true, modifiedAt: '2025-12-31T22:59:58.500Z' });
    const bin = await call(files_write_bytes, { name: 'm/tool', base64: 'AAEC', executable: true, modifiedAt: '1970-01-01T00:00:00Z' });
    t.match(bin, { executable: true, modifiedAt: '1970-01-01T00:00:00.000Z' });
    const edited = await call(files_write_text, { fileId: script.fileId, text: '#!/bin/sh\necho\n' });
    t.equal(edited.executable, true, 'a write by id keeps the bit');
    t.ok(edited.modifiedAt > script.modifiedAt, 'and takes the write time');
    const replaced = await call(files_write_text, { name: 'm/run.sh', text: 'new' });
    t.equal(replaced.executable, false, 'a write by path is a new file: its own fields, their defaults');

    const u = await call(upload_begin, { name: 'm/big.bin', size: 3, executable: true, modifiedAt: '2024-02-29T12:00:00Z' });
    await putPart(app, who.token, u.uploadId, 1, Buffer.from('abc'));
    const done = await call(upload_complete, { uploadId: u.uploadId });
    t.match(done.file, { executable: true, modifiedAt: '2024-02-29T12:00:00.000Z' }, 'carried through upload_complete');
    const dl = await download(app, who.token, done.file.fileId);
    t.equal(dl.headers['last-modified'], 'Thu, 29 Feb 2024 12:00:00 GMT', 'downloads say when the content changed');

    const touched = await call(files_update, { fileId: plain.fileId, executable: true, modifiedAt: '2020-05-05T05:05:05Z' });
    t.match(touched, { executable: true, modifiedAt: '2020-05-05T05:05:05.000Z', name: 'm/plain.txt', sha256: plain.sha256 });
    t.equal((await call(files_update, { fileId: plain.fileId, name: 'm/renamed.txt' })).modifiedAt, '2020-05-05T05:05:05.000Z', 'a move leaves it');
    for (const bad of [
      '2026-01-01',
      '2026-01-01T00:00:00',
      'yesterday',
      '2026-13-01T00:00:00Z',
      '0000-01-01T00:00:00Z',
      '2026-02-30T00:00:00Z',
      '2025-02-29T12:00:00Z',
      '2026-04-31T00:00:00Z',
      '2026-01-01T24:00:00Z',
      '2026-01-01T12:60:00Z',
      '2026-01-01T12:00:60Z',
      '2026-01-01T12:00:00+24:00',
    ]) {
      const err = await fail(call(files_write_text, { name: 'm/bad.txt', text: '', modifiedAt: bad }));
      t.equal(err.code, 'invalid_input', bad);
      t.match(err.resolution, /`modifiedAt`: must be an ISO 8601 date and time with a time zone/);
    }
    t.equal((await fail(call(files_update, { fileId: plain.fileId, executable: 'yes' }))).code, 'invalid_input');
  });

  t.test('derived names: before the extension, within 255 characters', async (t) => {
    t.equal(derivedName('report.txt', '2'), 'report (2).txt');
    t.equal(derivedName('a/b/archive.tar.gz', 'restored 2026-11-27'), 'a/b/archive.tar (restored 2026-11-27).gz');
    t.equal(derivedName('.env', '2'), '.env (2)');
    t.equal(derivedName('dir.v2/README', '2'), 'dir.v2/README (2)');
    t.equal(derivedName('trailing.', '2'), 'trailing. (2)');
    const long = `${'é'.repeat(250)}.txt`;
    const d = derivedName(long, '2');
    t.equal([...d].length, 255);
    t.ok(d.endsWith('é (2).txt'));
  });

  t.test('the database holds the rule even for a writer that skips the lock', async (t) => {
    const { who, call } = await fresh();
    const f = await call(files_write_text, { name: 'db.txt', text: 'x' });
    const err = await app.deps.sql`insert into files (id, org_id, name, media_type, byte_length, blob_key, created_at, updated_at, modified_at)
      values ('fil_raw', ${who.membership!.orgId}, 'db.txt', 'text/plain', 1, 'raw-blob', now(), now(), now())`.catch((e) => e);
    const mapped = fromDatabaseError(err)!;
    t.equal(mapped.code, 'path_taken', 'a unique violation on the path index is path_taken, not a 500');
    t.equal(mapped.status, 409);
    t.ok(f);
  });
});

t.test('an upload being assembled holds its path: a folder cannot appear there meanwhile, and it replaces what was written', async (t) => {
  // Assembling the parts can take a while (a bucket composing thousands of parts): hold it until the test says so.
  let release!: () => void;
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  let assembling!: () => void;
  const started = new Promise<void>((resolve) => {
    assembling = resolve;
  });
  const app = await startTestApp(t, {
    blobs: (dir) => {
      const store = fsBlobStore(join(dir, 'blobs'));
      return {
        ...store,
        async finalize(...args: Parameters<typeof store.finalize>) {
          assembling();
          await held;
          return store.finalize(...args);
        },
      };
    },
  });
  const who = await callerFor(app, { email: 'slow@example.com', org: 'slow' });
  const call = as(app, who);
  const u = await call(upload_begin, { name: 'held/data.bin', size: 4 });
  t.equal((await putPart(app, who.token, u.uploadId, 1, Buffer.from('data'))).status, 200);
  const completing = call(upload_complete, { uploadId: u.uploadId });
  await started;
  const inside = await fail(call(files_write_text, { name: 'held/data.bin/child.txt', text: '' }));
  t.match(inside.toBody(), { code: 'folder_conflict', kind: 'parent_is_file', conflictingPath: 'held/data.bin', conflictingFileId: u.fileId });
  const written = await call(files_write_text, { name: 'held/data.bin', text: 'written meanwhile' });
  release();
  const done = await completing;
  t.equal(done.replacedFileId, written.fileId, 'the completion replaced the file written meanwhile');
  t.same(
    (await call(files_list, { prefix: 'held/' })).items.map((f) => f.fileId),
    [u.fileId],
  );
  t.equal((await call(files_get, { fileId: written.fileId })).state, 'trashed');
});
