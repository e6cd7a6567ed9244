// The BlobStore contract against the gcs adapter, driven through the real @google-cloud/storage client against the
// in-repo GCS JSON-API test server (research/storage.md 1c); plus compose grouping, retries and hash checks.
process.env.METADATA_SERVER_DETECTION = 'none'; // never probe the cloud metadata server
import t from 'tap';
import { Storage } from '@google-cloud/storage';
import { gcsBlobStore } from '../../runtime-api/blobs/gcs.ts';
import { startFakeGcs } from '../helpers/gcs-server.ts';
import { blobStoreContract } from './blob-store.suite.ts';

const gcs = await startFakeGcs();
t.teardown(() => gcs.close());
const options = { bucket: 'siglata-test', apiEndpoint: gcs.url, projectId: 'demo-test', prefix: 'contract/', retry: { baseDelayMs: 5 } };

blobStoreContract(t, async () => gcsBlobStore(options));

t.test('gcs: parts are objects; completion composes groups of 32, level by level', async (t) => {
  const store = gcsBlobStore(options);
  for (let n = 1; n <= 70; n++) await store.putPart('upl_tree', { number: n, offset: 0, data: Buffer.from([n]) });
  const objects = gcs.buckets.get('siglata-test')!;
  t.ok(objects.has('contract/uploads/upl_tree/p00001') && objects.has('contract/uploads/upl_tree/p00070'));
  const from = gcs.log.length;
  await store.finalize('upl_tree', { partCount: 70, partSize: 1, byteLength: 70 }, 'org_t/fil_t', { contentType: 'text/csv' });
  const composes = gcs.log.slice(from).filter((l) => l.startsWith('POST compose'));
  t.same(
    composes.map((l) => l.split(' ').pop()),
    ['32', '32', '6', '3'],
    '70 parts: 32 + 32 + 6, then one compose of 3',
  );
  const final = objects.get('contract/objects/org_t/fil_t')!;
  t.equal(final.contentType, 'text/csv');
  t.same(
    [...final.data],
    Array.from({ length: 70 }, (_, i) => i + 1),
  );
  t.notOk(
    [...objects.keys()].some((k) => k.startsWith('contract/uploads/upl_tree/')),
    'parts and intermediates are deleted',
  );
});

t.test('gcs: transient failures are retried with backoff', async (t) => {
  const store = gcsBlobStore(options);
  gcs.failNext('upload', 2, 503);
  let started = Date.now();
  await store.putPart('upl_retry', { number: 1, offset: 0, data: Buffer.from('abc') });
  t.ok(Date.now() - started < 2000, `retried quickly (${Date.now() - started} ms)`);
  started = Date.now();
  gcs.failNext('compose', 2, 429);
  await store.finalize('upl_retry', { partCount: 1, partSize: 3, byteLength: 3 }, 'org_r/fil_r', { contentType: 'text/plain' });
  t.same(await store.stat('org_r/fil_r'), { size: 3 });
  gcs.failNext('upload', 10, 503);
  await t.rejects(
    gcsBlobStore({ ...options, retry: { attempts: 3, baseDelayMs: 1 } }).putPart('upl_retry2', { number: 1, offset: 0, data: Buffer.from('x') }),
    'gives up after its attempts',
  );
  gcs.clearFaults();
  gcs.failNext('upload', 1, 400);
  await t.rejects(store.putPart('upl_retry3', { number: 1, offset: 0, data: Buffer.from('x') }), 'a 4xx is not retried');
});

t.test('the test server behaves like GCS where the adapter relies on it', async (t) => {
  const storage = new Storage({ apiEndpoint: gcs.url, projectId: 'demo-test' });
  const bucket = storage.bucket('siglata-test');
  const sources = Array.from({ length: 33 }, (_, i) => `probe/s${i}`);
  for (const s of sources) await bucket.file(s).save(Buffer.from('x'), { resumable: false });
  await t.rejects(bucket.combine(sources, 'probe/too-many'), /exceeds the maximum \(32\)/);
  await bucket.combine(sources.slice(0, 2), 'probe/two');
  await t.rejects(
    bucket.combine(sources.slice(0, 2), 'probe/two', { ifGenerationMatch: 0 }),
    /pre-conditions/,
    'ifGenerationMatch: 0 on an existing object is 412',
  );
  await t.rejects(
    bucket.file('probe/bad-md5').save(Buffer.from('abc'), { resumable: false, metadata: { md5Hash: 'AAAAAAAAAAAAAAAAAAAAAA==' } }),
    'a wrong md5Hash is refused',
  );
  t.equal(gcs.buckets.get('siglata-test')!.has('probe/bad-md5'), false);
  const [resumable] = await bucket
    .file('probe/resumable')
    .save(Buffer.alloc(300_000, 7), { resumable: true })
    .then(() => bucket.file('probe/resumable').download());
  t.equal(resumable.length, 300_000, 'resumable uploads work too');
  const data = Buffer.alloc(600_000, 3);
  await bucket.file('probe/chunked').save(data, { resumable: true, chunkSize: 256 * 1024 });
  const [back] = await bucket.file('probe/chunked').download();
  t.ok(back.equals(data), 'and in chunks (308 between them)');
});
