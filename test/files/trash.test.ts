// The trash window on an injected clock (restore up to 30 days, then 410 restore_expired), permanent delete, and
// the janitors: trash purge, orphan blobs, advisory locks (one runner at a time), startJanitors/stop.
import t from 'tap';
import { startTestApp } from '../helpers/app.ts';
import { callerFor, caller as as } from '../helpers/callers.ts';
import { ServiceError } from '../../runtime-api/errors.ts';
import { invokeDeps } from '../../server/deps.ts';
import { files_list } from '../../runtime-api/bindings/files/files_list.ts';
import { files_get } from '../../runtime-api/bindings/files/files_get.ts';
import { files_trash } from '../../runtime-api/bindings/files/files_trash.ts';
import { files_restore } from '../../runtime-api/bindings/files/files_restore.ts';
import { files_delete } from '../../runtime-api/bindings/files/files_delete.ts';
import { files_write_text } from '../../runtime-api/bindings/files/files_write_text.ts';
import { upload_begin } from '../../runtime-api/bindings/uploads/upload_begin.ts';
import { upload_status } from '../../runtime-api/bindings/uploads/upload_status.ts';
import { purgeExpiredTrash, deleteOrphanBlobs, expireUploads, startJanitors } from '../../runtime-api/services/janitors.ts';
import { storageUsedBytes } from '../../runtime-api/services/usage.ts';
import { download, putPart } from './transfer-helpers.ts';
import { manualClock } from '../../runtime-api/clock.ts';
import { mkdir, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

const DAY = 86400_000;
const fail = (p: Promise<unknown>) =>
  p.then(
    () => {
      throw new Error('expected a ServiceError');
    },
    (e) => e as ServiceError,
  );

t.test('trash and janitors', async (t) => {
  const app = await startTestApp(t, { manualClock: true });
  const ana = await callerFor(app, { email: 'ana@example.com', org: 'acme' });
  const call = as(app, ana);
  const deps = { ...invokeDeps(app.deps), logger: app.deps.logger };
  const orgId = ana.membership!.orgId;
  const blobKey = async (fileId: string) => (await app.deps.sql`select blob_key from files where id = ${fileId}`)[0]?.blob_key as string | undefined;

  t.test('trash keeps the bytes; restore within 30 days; then 410 restore_expired', async (t) => {
    const f = await call(files_write_text, { name: 'keep.txt', text: 'keep me' });
    const trashed = await call(files_trash, { fileId: f.fileId });
    t.equal(trashed.state, 'trashed');
    t.equal(trashed.trashedAt, app.clock.now().toISOString());
    t.equal(trashed.restorableUntil, new Date(app.clock.now().getTime() + 30 * DAY).toISOString());
    t.same(await call(files_trash, { fileId: f.fileId }), trashed, 'trashing again changes nothing');
    t.same(
      (await call(files_list, { state: 'trashed' })).items.map((x) => x.fileId),
      [f.fileId],
    );
    t.notOk((await call(files_list, {})).items.some((x) => x.fileId === f.fileId));
    t.equal(await storageUsedBytes(app.deps.sql, orgId, app.clock.now()), 7, 'trashed bytes still count');
    const token = (await callerFor(app, { email: 'ana@example.com', org: 'acme' })).token;
    t.equal((await download(app, token, f.fileId)).body.toString(), 'keep me', 'trashed files can still be downloaded');

    app.clock.advance!(30 * DAY); // exactly 30 days: still restorable
    const restored = await call(files_restore, { fileId: f.fileId });
    t.match(restored, { state: 'active', trashedAt: null, restorableUntil: null });
    t.same(await call(files_restore, { fileId: f.fileId }), restored, 'restoring an active file changes nothing');

    await call(files_trash, { fileId: f.fileId });
    app.clock.advance!(30 * DAY + 1);
    const late = await fail(call(files_restore, { fileId: f.fileId }));
    t.equal(late.code, 'restore_expired');
    t.equal(late.status, 410);
    t.same(Object.keys(late.toBody()).sort(), ['code', 'message']);
    t.equal((await call(files_get, { fileId: f.fileId })).state, 'trashed', 'it stays in the trash until purged');
  });

  t.test('files_delete: only from the trash; bytes and record go, quota is freed', async (t) => {
    const f = await call(files_write_text, { name: 'gone.txt', text: '12345' });
    const conflict = await fail(call(files_delete, { fileId: f.fileId }));
    t.equal(conflict.code, 'conflict');
    t.equal(conflict.status, 409);
    const key = (await blobKey(f.fileId))!;
    t.ok(await app.deps.blobs.stat(key));
    const used = await storageUsedBytes(app.deps.sql, orgId, app.clock.now());
    await call(files_trash, { fileId: f.fileId });
    t.same(await call(files_delete, { fileId: f.fileId }), { id: f.fileId, fileId: f.fileId, deleted: true, size: 5 });
    t.equal(await app.deps.blobs.stat(key), null, 'the bytes are gone');
    t.equal(await storageUsedBytes(app.deps.sql, orgId, app.clock.now()), used - 5);
    t.equal((await fail(call(files_get, { fileId: f.fileId }))).code, 'not_found');
    t.equal((await fail(call(files_delete, { fileId: f.fileId }))).code, 'not_found');
  });

  t.test('purgeExpiredTrash removes bytes and rows past the window, nothing else', async (t) => {
    const old = await call(files_write_text, { name: 'old.txt', text: 'old' });
    const recent = await call(files_write_text, { name: 'recent.txt', text: 'recent' });
    const active = await call(files_write_text, { name: 'active.txt', text: 'active' });
    await call(files_trash, { fileId: old.fileId });
    app.clock.advance!(10 * DAY);
    await call(files_trash, { fileId: recent.fileId });
    app.clock.advance!(20 * DAY + 1); // old: 30 d + 1 ms in the trash; recent: 20 d
    const keys = { old: (await blobKey(old.fileId))!, recent: (await blobKey(recent.fileId))!, active: (await blobKey(active.fileId))! };
    const result = await purgeExpiredTrash(deps);
    t.ok(result && result.purgedFiles >= 1, 'purged');
    t.equal((await fail(call(files_get, { fileId: old.fileId }))).code, 'not_found');
    t.equal(await app.deps.blobs.stat(keys.old), null);
    t.equal((await call(files_get, { fileId: recent.fileId })).state, 'trashed');
    t.ok(await app.deps.blobs.stat(keys.recent));
    t.ok(await app.deps.blobs.stat(keys.active));
    t.equal((await call(files_restore, { fileId: recent.fileId })).state, 'active');
  });

  t.test('a janitor runs on one instance at a time (advisory lock)', async (t) => {
    const holder = await app.deps.sql.reserve();
    try {
      await holder`begin`;
      await holder`select pg_advisory_xact_lock(73010101)`;
      t.equal(await purgeExpiredTrash(deps), null, 'skipped while another instance holds the lock');
      await holder`rollback`;
    } finally {
      holder.release();
    }
    t.not(await purgeExpiredTrash(deps), null, 'runs once the lock is free');
    const both = await Promise.all([expireUploads(deps), expireUploads(deps)]);
    t.ok(both.includes(null) || both.every((r) => r !== null), 'two at once: they never overlap (one skips, or they ran in turn)');
  });

  t.test('deleteOrphanBlobs removes unreferenced bytes past a grace period, and dead staging', async (t) => {
    const kept = await call(files_write_text, { name: 'kept.txt', text: 'kept' });
    const keptKey = (await blobKey(kept.fileId))!;
    await app.deps.blobs.write(`${orgId}/blb_orphan`, Buffer.from('orphan'), { contentType: 'text/plain' });
    await app.deps.blobs.putPart('upl_orphanstaging', { number: 1, offset: 0, data: Buffer.from('x') });
    const open = await call(upload_begin, { name: 'open.bin', size: 3 });
    const token = (await callerFor(app, { email: 'ana@example.com', org: 'acme' })).token;
    t.equal((await putPart(app, token, open.uploadId, 1, Buffer.from('abc'))).status, 200);

    // Blob timestamps are wall-clock time (file mtime, GCS `updated`): run this janitor on a clock that starts now.
    // What a write whose process died mid-way leaves in the fs store's tmp/.
    await mkdir(join(app.config.dataDir, 'blobs', 'tmp'), { recursive: true });
    await writeFile(join(app.config.dataDir, 'blobs', 'tmp', 'interrupted'), 'half a blob');
    const clock = manualClock(new Date());
    const early = await deleteOrphanBlobs({ ...deps, clock });
    t.same(early, { uploads: 1, objects: 0, temporaries: 0 }, 'fresh orphan objects and temporaries are left alone (a writer may be about to commit)');
    t.notOk((await app.deps.blobs.listUploads()).includes('upl_orphanstaging'));
    t.ok((await app.deps.blobs.listUploads()).includes(open.uploadId), 'an open upload keeps its parts');

    clock.advance(2 * 3600_000);
    const later = await deleteOrphanBlobs({ ...deps, clock });
    t.equal(later?.objects, 1);
    t.equal(later?.temporaries, 1);
    t.same(await readdir(join(app.config.dataDir, 'blobs', 'tmp')), [], 'the stale temporary is gone');
    t.equal(await app.deps.blobs.stat(`${orgId}/blb_orphan`), null, 'the orphan is gone');
    t.ok(await app.deps.blobs.stat(keptKey), 'referenced blobs stay');
    t.ok((await app.deps.blobs.listUploads()).includes(open.uploadId));
  });

  t.test('startJanitors runs them on an interval and stops cleanly', async (t) => {
    const u = await call(upload_begin, { name: 'lapse.bin', size: 3 });
    const trashed = await call(files_write_text, { name: 'lapse.txt', text: 'x' });
    await call(files_trash, { fileId: trashed.fileId });
    app.clock.advance!(31 * DAY);
    const stop = startJanitors(deps, 20);
    const state = async () => (await app.deps.sql`select state from uploads where id = ${u.uploadId}`)[0].state;
    for (let i = 0; i < 200 && ((await state()) !== 'expired' || (await blobKey(trashed.fileId))); i++) await new Promise((r) => setTimeout(r, 25));
    await stop();
    t.equal(await state(), 'expired', 'the reservation expired');
    t.equal(await blobKey(trashed.fileId), undefined, 'the trash was purged');
    t.equal((await fail(call(upload_status, { uploadId: u.uploadId }))).code, 'upload_expired');
  });
});
