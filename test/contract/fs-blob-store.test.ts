// The BlobStore contract against the fs adapter, plus its durability layout: one staging file written at offsets.
import t from 'tap';
import { mkdtemp, rm, stat, readdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fsBlobStore } from '../../runtime-api/blobs/fs.ts';
import { blobStoreContract } from './blob-store.suite.ts';

const root = await mkdtemp(join(tmpdir(), 'siglata-fs-blobs-'));
t.teardown(() => rm(root, { recursive: true, force: true }));

blobStoreContract(t, async () => fsBlobStore(root));

t.test('fs: parts land at their offsets in one staging file; finalize renames it', async (t) => {
  const store = fsBlobStore(root);
  await store.putPart('upl_layout', { number: 3, offset: 20, data: Buffer.alloc(5, 3) });
  await store.putPart('upl_layout', { number: 1, offset: 0, data: Buffer.alloc(10, 1) });
  t.same(await readdir(join(root, 'uploads', 'upl_layout')), ['data']);
  t.equal((await stat(join(root, 'uploads', 'upl_layout', 'data'))).size, 25);
  await store.putPart('upl_layout', { number: 2, offset: 10, data: Buffer.alloc(10, 2) });
  const staged = await stat(join(root, 'uploads', 'upl_layout', 'data'));
  await store.finalize('upl_layout', { partCount: 3, partSize: 10, byteLength: 25 }, 'org_l/fil_l', { contentType: 'x/y' });
  const done = await stat(join(root, 'objects', 'org_l', 'fil_l'));
  t.equal(done.ino, staged.ino, 'the same inode: completion renamed the file, it did not copy it');
});
