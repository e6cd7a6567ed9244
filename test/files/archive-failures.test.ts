// All or nothing when an import fails part-way: the store failing while bodies are staged, the execution that
// called it ending, the database refusing a row of the final transaction, and the process dying (the janitors then
// reopen the upload and delete the staged bytes). Each time the catalogue is untouched, nothing staged remains, and
// the same upload imports cleanly afterwards.
import t, { type Test } from 'tap';
import { join } from 'node:path';
import { startTestApp } from '../helpers/app.ts';
import { callerFor, caller as as } from '../helpers/callers.ts';
import type { ServiceError } from '../../runtime-api/errors.ts';
import type { BlobStore } from '../../runtime-api/blobs/port.ts';
import { fsBlobStore } from '../../runtime-api/blobs/fs.ts';
import { invoke } from '../../runtime-api/invoke.ts';
import { files_import } from '../../runtime-api/bindings/files/files_import.ts';
import { files_list } from '../../runtime-api/bindings/files/files_list.ts';
import { upload_status } from '../../runtime-api/bindings/uploads/upload_status.ts';
import { deleteOrphanBlobs, expireUploads, STUCK_IMPORT_MS } from '../../runtime-api/services/janitors.ts';
import { storageUsedBytes } from '../../runtime-api/services/usage.ts';
import { invokeDeps } from '../../server/deps.ts';
import { makeTar, uploadArchive } from './archive-helpers.ts';

const fail = (p: Promise<unknown>) =>
  p.then(
    () => {
      throw new Error('expected an error');
    },
    (e) => e as ServiceError,
  );

t.test('an import that fails part-way leaves nothing behind', async (t) => {
  /** Called before each blob write; may throw. */
  let beforeWrite: (n: number) => void = () => {};
  let writes = 0;
  const app = await startTestApp(t, {
    blobs: (dataDir) => {
      const store = fsBlobStore(join(dataDir, 'blobs'));
      const wrapped: BlobStore = Object.create(store);
      wrapped.write = async (key, data, meta) => {
        beforeWrite(++writes);
        return store.write(key, data, meta);
      };
      return wrapped;
    },
  });
  const ana = await callerFor(app, { email: 'ana@example.com', org: 'failures' });
  const call = as(app, ana);
  const orgId = ana.membership!.orgId;
  const archive = await makeTar(Array.from({ length: 20 }, (_, i) => ({ name: `f/${String(i).padStart(2, '0')}.txt`, data: `file ${i}` })));
  const listed = async () => ((await call(files_list, {})) as { items: unknown[] }).items.length;
  const staged = async () => (await app.deps.blobs.listKeys(`${orgId}/`)).length;

  const untouched = async (t: Test, uploadId: string) => {
    t.equal(await listed(), 0, 'no file was written');
    t.equal(await staged(), 0, 'no staged bytes remain');
    t.equal((await call(upload_status, { uploadId })).state, 'open', 'the upload is open again');
  };

  t.test('the store fails while bodies are staged', async (t) => {
    const uploadId = await uploadArchive(app, ana, archive);
    writes = 0;
    beforeWrite = (n) => {
      if (n === 8) throw new Error('disk full');
    };
    const err = await fail(call(files_import, { uploadId, onError: 'skip' }));
    beforeWrite = () => {};
    t.equal(err.code, 'storage_failure');
    await untouched(t, uploadId);
    t.equal(((await call(files_import, { uploadId })) as { created: number }).created, 20, 'the same upload imports afterwards');
    await call(files_list, {});
    for (const f of ((await call(files_list, { limit: 100 })) as { items: { fileId: string }[] }).items) {
      await app.deps.sql`delete from files where id = ${f.fileId}`; // a clean catalogue for the next case
    }
    for (const b of await app.deps.blobs.listKeys(`${orgId}/`)) await app.deps.blobs.delete(b.key);
  });

  t.test('the execution that called it ends (its signal fires) part-way', async (t) => {
    const uploadId = await uploadArchive(app, ana, archive);
    const ended = new AbortController();
    writes = 0;
    beforeWrite = (n) => {
      if (n === 5) ended.abort(new Error('the script timed out'));
    };
    const err = await fail(invoke(files_import, { uploadId }, ana, { ...invokeDeps(app.deps), signal: ended.signal }));
    beforeWrite = () => {};
    t.match(String(err), /the script timed out/);
    await untouched(t, uploadId);
  });

  t.test('the final transaction fails on its 15th row', async (t) => {
    const uploadId = await uploadArchive(app, ana, archive);
    await app.deps.sql.unsafe(`
      create function refuse_fifteenth() returns trigger language plpgsql as $$
      begin
        if new.name = 'f/14.txt' then raise exception 'refused by a test trigger'; end if;
        return new;
      end $$;
      create trigger refuse_fifteenth before insert on files for each row execute function refuse_fifteenth();`);
    const err = await fail(call(files_import, { uploadId }));
    await app.deps.sql.unsafe('drop trigger refuse_fifteenth on files; drop function refuse_fifteenth();');
    t.match(String(err), /refused by a test trigger|database/i);
    await untouched(t, uploadId);
    t.equal(((await call(files_import, { uploadId })) as { created: number }).created, 20, 'the same upload imports afterwards');
  });

  t.test('the process dies mid-import: the janitors reopen the upload and delete what was staged', async (t) => {
    const other = await callerFor(app, { email: 'bo@example.com', org: 'died' });
    const otherCall = as(app, other);
    const uploadId = await uploadArchive(app, other, archive);
    // What a dead import leaves: the upload importing (its bytes still reserved), one body staged under no row.
    await app.deps.sql`update uploads set state = 'importing', state_changed_at = now() - interval '1 minute' where id = ${uploadId}`;
    const orphan = `${other.membership!.orgId}/blb_orphanofadeadimport`;
    await app.deps.blobs.write(orphan, Buffer.from('staged'), { contentType: 'text/plain' });
    t.equal(await storageUsedBytes(app.deps.sql, other.membership!.orgId), archive.length, 'an importing upload still counts against the quota');
    const deps = { ...invokeDeps(app.deps), logger: app.deps.logger };
    t.match(await expireUploads(deps), { reopened: 0 }, 'an import that spoke lately is left alone');
    const later = { ...deps, clock: { now: () => new Date(Date.now() + STUCK_IMPORT_MS + 60_000) } };
    t.match(await expireUploads(later), { reopened: 1 });
    t.equal((await otherCall(upload_status, { uploadId })).state, 'open');
    await deleteOrphanBlobs(deps, { graceMs: 0 });
    t.equal(await app.deps.blobs.stat(orphan), null, 'the staged body is deleted');
    t.equal(((await otherCall(files_import, { uploadId })) as { created: number }).created, 20, 'and the upload imports');
  });
});
