// The whole app on the gcs adapter (real @google-cloud/storage client → the GCS JSON-API test server): parts over
// HTTP, completion by compose, downloads whole and ranged, text files, delete, archives imported and exported.
process.env.METADATA_SERVER_DETECTION = 'none';
import t from 'tap';
import { startTestApp } from '../helpers/app.ts';
import { callerFor, caller as as } from '../helpers/callers.ts';
import { startFakeGcs } from '../helpers/gcs-server.ts';
import { gcsBlobStore } from '../../runtime-api/blobs/gcs.ts';
import { files_write_text } from '../../runtime-api/bindings/files/files_write_text.ts';
import { files_read_text } from '../../runtime-api/bindings/files/files_read_text.ts';
import { files_trash } from '../../runtime-api/bindings/files/files_trash.ts';
import { files_delete } from '../../runtime-api/bindings/files/files_delete.ts';
import { files_list } from '../../runtime-api/bindings/files/files_list.ts';
import { files_import } from '../../runtime-api/bindings/files/files_import.ts';
import { files_export } from '../../runtime-api/bindings/files/files_export.ts';
import { bytes, download, MiB, PART, sha256, uploadFile } from './transfer-helpers.ts';
import { fetchBytes, makeTar, makeZip, readZip, uploadArchive } from './archive-helpers.ts';

t.test('transfers on the gcs adapter', async (t) => {
  const gcs = await startFakeGcs();
  t.teardown(() => gcs.close());
  const app = await startTestApp(t, { blobs: () => gcsBlobStore({ bucket: 'siglata-app', apiEndpoint: gcs.url, projectId: 'demo-test' }) });
  t.equal(app.deps.blobs.kind, 'gcs');
  const ana = await callerFor(app, { email: 'ana@example.com', org: 'acme' });
  const call = as(app, ana);
  const objects = () => [...(gcs.buckets.get('siglata-app')?.keys() ?? [])];

  t.test('upload in parts, complete (compose), download whole and ranged', async (t) => {
    const data = bytes(2 * PART + 3 * MiB + 11);
    const file = await uploadFile(app, ana, 'exports/big “data”.bin', data, 'application/x-big');
    t.equal(file.size, data.length);
    t.ok(objects().includes(`objects/${ana.membership!.orgId}/${file.fileId}`), 'the composed object is in the bucket');
    t.notOk(
      objects().some((k) => k.startsWith('uploads/')),
      'part objects are cleaned up',
    );
    const whole = await download(app, ana.token, file.fileId);
    t.equal(whole.status, 200);
    t.equal(whole.headers['content-type'], 'application/x-big');
    t.equal(whole.headers['content-length'], String(data.length));
    t.equal(sha256(whole.body), sha256(data));
    const range = await download(app, ana.token, file.fileId, { range: `bytes=${PART - 2}-${PART + 1}` });
    t.equal(range.status, 206);
    t.same(range.body, data.subarray(PART - 2, PART + 2));
    t.equal((await call(files_list, {})).items[0].fileId, file.fileId);
  });

  t.test('archives: read from the part objects in place, bodies past 8 MiB streamed in, exported back', async (t) => {
    const big = bytes(PART + 5);
    const small = bytes(1000);
    for (const [archive, format] of [
      [
        await makeTar([
          { name: 'big.bin', data: big },
          { name: 'dir/small.bin', data: small },
        ]),
        'tar',
      ],
      [
        await makeZip([
          { name: 'big.bin', data: big },
          { name: 'dir/small.bin', data: small },
        ]),
        'zip',
      ],
    ] as const) {
      const uploadId = await uploadArchive(app, ana, archive);
      const r = await call(files_import, { uploadId, into: `from-${format}` });
      t.equal(r.created, 2, format);
      t.notOk(
        objects().some((k) => k.startsWith(`uploads/${uploadId}/`)),
        "the archive's part objects are deleted",
      );
      const got = await download(app, ana.token, r.entries[0].fileId!);
      t.equal(sha256(got.body), sha256(big), `${format}: the large entry is whole`);
    }
    const exported = await call(files_export, { prefix: 'from-zip', format: 'zip' });
    const entries = await readZip((await fetchBytes(exported.downloadUrl, ana.token)).body);
    t.same(
      entries.map((e) => [e.name, sha256(e.data)]),
      [
        ['big.bin', sha256(big)],
        ['dir/small.bin', sha256(small)],
      ],
    );
  });

  t.test('text files, trash and delete', async (t) => {
    const f = await call(files_write_text, { name: 'note.txt', text: 'olá gcs' });
    t.equal((await call(files_read_text, { fileId: f.fileId })).text, 'olá gcs');
    const g = await call(files_write_text, { fileId: f.fileId, text: 'v2' });
    t.equal((await download(app, ana.token, g.fileId)).body.toString(), 'v2');
    await call(files_trash, { fileId: f.fileId });
    const before = objects().length;
    await call(files_delete, { fileId: f.fileId });
    t.equal(objects().length, before - 1, 'the object is deleted');
    t.equal((await download(app, ana.token, f.fileId)).status, 404);
  });
});
