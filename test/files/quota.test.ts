// The storage quota: files (active and trashed) plus open reservations, enforced under the organization's row lock
// at upload_begin (50 concurrent begins near the limit never overshoot), re-checked at completion, and applied to
// files_write_text.
import t from 'tap';
import { startTestApp } from '../helpers/app.ts';
import { callerFor, caller as as } from '../helpers/callers.ts';
import { ServiceError } from '../../runtime-api/errors.ts';
import { invoke } from '../../runtime-api/invoke.ts';
import { invokeDeps } from '../../server/deps.ts';
import { context } from '../../runtime-api/bindings/context/context.ts';
import { files_trash } from '../../runtime-api/bindings/files/files_trash.ts';
import { files_delete } from '../../runtime-api/bindings/files/files_delete.ts';
import { files_write_text } from '../../runtime-api/bindings/files/files_write_text.ts';
import { files_get } from '../../runtime-api/bindings/files/files_get.ts';
import { upload_begin } from '../../runtime-api/bindings/uploads/upload_begin.ts';
import { upload_complete } from '../../runtime-api/bindings/uploads/upload_complete.ts';
import { upload_abort } from '../../runtime-api/bindings/uploads/upload_abort.ts';
import { storageUsedBytes } from '../../runtime-api/services/usage.ts';
import { MiB, putPart } from './transfer-helpers.ts';

const QUOTA = 100 * MiB;
const fail = (p: Promise<unknown>) =>
  p.then(
    () => {
      throw new Error('expected a ServiceError');
    },
    (e) => e as ServiceError,
  );

t.test('quota', async (t) => {
  const app = await startTestApp(t, { env: { QUOTA_BYTES: String(QUOTA), DATABASE_POOL_MAX: '10' } });

  t.test('50 concurrent upload_begin calls near the limit never overshoot', async (t) => {
    const ana = await callerFor(app, { email: 'ana@example.com', org: 'race' });
    const call = as(app, ana);
    const orgId = ana.membership!.orgId;
    await call(files_write_text, { name: 'seed.txt', text: 'x'.repeat(1000) });
    await call(upload_begin, { name: 'filler.bin', size: 90 * MiB - 1000 }); // 90 MiB used: 10 MiB left
    const results = await Promise.allSettled(Array.from({ length: 50 }, (_, i) => call(upload_begin, { name: `part-${i}.bin`, size: MiB })));
    const ok = results.filter((r) => r.status === 'fulfilled').length;
    const rejected = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
    t.equal(ok, 10, 'exactly the 10 that fit');
    t.equal(rejected.length, 40);
    for (const r of rejected) t.equal((r.reason as ServiceError).code, 'quota_exceeded');
    const used = await storageUsedBytes(app.deps.sql, orgId);
    t.equal(used, QUOTA, 'usage lands exactly on the quota, never above');
    const err = rejected[0].reason as ServiceError;
    t.equal(err.status, 409);
    t.same(Object.keys(err.toBody()).sort(), ['code', 'message', 'quotaBytes', 'requestedBytes', 'usedBytes']);
    const limits = (await invoke(context, {}, ana, invokeDeps(app.deps))).limits;
    t.same([limits.storageQuotaBytes, limits.storageUsedBytes], [QUOTA, QUOTA], 'context reports the same usage');
  });

  t.test('trashed files count until deleted; aborted reservations free their bytes', async (t) => {
    const bob = await callerFor(app, { email: 'bob@example.com', org: 'trash-counts' });
    const call = as(app, bob);
    const big = await call(upload_begin, { name: 'big.bin', size: QUOTA - 1000 });
    const f = await call(files_write_text, { name: 'a.txt', text: 'y'.repeat(1000) });
    t.equal((await fail(call(upload_begin, { name: 'one.bin', size: 1 }))).code, 'quota_exceeded');
    await call(files_trash, { fileId: f.fileId });
    t.equal((await fail(call(upload_begin, { name: 'one.bin', size: 1 }))).code, 'quota_exceeded', 'the trash still counts');
    t.equal((await fail(call(files_write_text, { name: 'b.txt', text: 'z' }))).code, 'quota_exceeded', 'files_write_text is checked too');
    await call(files_delete, { fileId: f.fileId });
    t.ok(await call(upload_begin, { name: 'one.bin', size: 1000 }), 'deleting frees the bytes');
    await call(upload_abort, { uploadId: big.uploadId });
    t.ok(await call(upload_begin, { name: 'again.bin', size: QUOTA - 1000 }), 'aborting frees the reservation');
    t.equal((await fail(call(upload_begin, { name: 'too-big.bin', size: QUOTA + 1 }))).code, 'quota_exceeded');
  });

  t.test('a rewrite keeps the previous version in the trash, where it counts: the new content needs room of its own', async (t) => {
    const cy = await callerFor(app, { email: 'cy@example.com', org: 'rewrite' });
    const call = as(app, cy);
    const orgId = cy.membership!.orgId;
    const f = await call(files_write_text, { name: 'grow.txt', text: 'a'.repeat(1000) });
    await call(upload_begin, { name: 'fill.bin', size: QUOTA - 2500 });
    const grown = await call(files_write_text, { fileId: f.fileId, text: 'b'.repeat(1500) });
    t.equal(grown.size, 1500, 'fits in the last 1500 bytes');
    t.equal(await storageUsedBytes(app.deps.sql, orgId), QUOTA, 'the 1000 bytes it replaced still count, in the trash');
    const full = await fail(call(files_write_text, { fileId: f.fileId, text: 'd' }));
    t.equal(full.code, 'quota_exceeded', 'even a smaller rewrite needs room: the replaced version is kept');
    t.equal((await fail(call(files_write_text, { name: 'grow.txt', text: 'd' }))).code, 'quota_exceeded', 'a write by path too');
    t.equal((await call(files_get, { fileId: f.fileId })).size, 1500, 'nothing changed');
    await call(files_delete, { fileId: grown.replacedFileId! });
    const replaced = await call(files_write_text, { name: 'grow.txt', text: 'e'.repeat(1000) });
    t.equal(replaced.replacedFileId, f.fileId, 'deleting the old version made room; the write by path replaced the file');
    t.equal(await storageUsedBytes(app.deps.sql, orgId), QUOTA, 'usage: the new file, the replaced one in the trash, the reservation');
  });

  t.test('completion re-checks the quota inside its transaction', async (t) => {
    const dee = await callerFor(app, { email: 'dee@example.com', org: 'recheck' });
    const call = as(app, dee);
    const u = await call(upload_begin, { name: 'r.bin', size: 5000 });
    t.equal((await putPart(app, dee.token, u.uploadId, 1, Buffer.alloc(5000, 1))).status, 200);
    // the quota was lowered (a new configuration) after the reservation was made
    const lowered = { ...invokeDeps(app.deps), config: { ...app.deps.config, quotaBytes: 4000 } };
    const err = await fail(invoke(upload_complete, { uploadId: u.uploadId }, dee, lowered));
    t.equal(err.code, 'quota_exceeded');
    const [row] = await app.deps.sql`select state from uploads where id = ${u.uploadId}`;
    t.equal(row.state, 'open', 'the reservation stays open: free space, then complete again');
    t.equal((await call(upload_complete, { uploadId: u.uploadId })).file.size, 5000);
  });
});
