// The BlobStore contract against the fs adapter, plus its durability layout: one staging file written at offsets.
import t from 'tap';
import { mkdtemp, rm, stat, readdir, readFile } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fsBlobStore } from '../../runtime-api/blobs/fs.ts';
import { directIoWorks } from '../helpers/direct-io.ts';
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

t.test('fs: parts in buffers from partBuffer() skip the page cache (O_DIRECT); misaligned memory is written through it', async (t) => {
  const store = fsBlobStore(root);
  const partSize = 1024 * 1024;
  const data = randomBytes(2 * partSize + 5000); // the final part is not a whole number of 4 KiB blocks
  const buf = await store.partBuffer!(partSize);
  for (const n of [3, 1, 2]) {
    const bytes = data.subarray((n - 1) * partSize, n * partSize);
    bytes.copy(buf);
    await store.putPart('upl_direct', { number: n, offset: (n - 1) * partSize, data: buf.subarray(0, bytes.length), last: n === 3 });
  }
  const direct = directIoWorks(root);
  if (direct) {
    t.same(store.io, { direct: 3, buffered: 0 }, 'every part went to the device directly, the short final one padded');
    t.ok((await stat(join(root, 'uploads', 'upl_direct', 'data'))).size > data.length, 'staged with the final part padded to a whole block');
  } else {
    t.same(store.io, { direct: 0, buffered: 3 }, 'no O_DIRECT here: buffered O_DSYNC writes instead');
  }
  // Part 2 again from memory one byte off alignment: the kernel refuses it for O_DIRECT, nothing is written that way.
  const odd = (await store.partBuffer!(partSize + 4096)).subarray(1, partSize + 1);
  data.copy(odd, 0, partSize, 2 * partSize);
  await store.putPart('upl_direct', { number: 2, offset: partSize, data: odd });
  t.same(store.io, direct ? { direct: 3, buffered: 1 } : { direct: 0, buffered: 4 }, 'misaligned memory goes through the page cache');
  await store.finalize('upl_direct', { partCount: 3, partSize, byteLength: data.length }, 'org_d/fil_direct', { contentType: 'x/y' });
  const stored = await readFile(join(root, 'objects', 'org_d', 'fil_direct'));
  t.equal(stored.length, data.length, 'finalize cut the padding: exactly the declared length');
  t.ok(stored.equals(data), "the bytes are the parts' bytes");
});

t.test('fs: a staging directory removed by another instance is made again for the next part', async (t) => {
  const mine = fsBlobStore(root);
  const other = fsBlobStore(root); // another server instance on the same storage
  await mine.putPart('upl_gone', { number: 1, offset: 0, data: Buffer.alloc(10, 1) });
  await other.deleteUpload('upl_gone');
  await mine.putPart('upl_gone', { number: 2, offset: 10, data: Buffer.alloc(5, 2) });
  await mine.putPart('upl_gone', { number: 1, offset: 0, data: Buffer.alloc(10, 3) });
  await mine.finalize('upl_gone', { partCount: 2, partSize: 10, byteLength: 15 }, 'org_g/fil_gone', { contentType: 'x/y' });
  t.same(await readFile(join(root, 'objects', 'org_g', 'fil_gone')), Buffer.concat([Buffer.alloc(10, 3), Buffer.alloc(5, 2)]));
});
