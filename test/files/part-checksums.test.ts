// The upload route's checksum thread: its results equal zlib's CRC-32 and node:crypto's hashes, computed in place
// on shared memory; parts in other memory are checksummed inline; copyInto copies exactly.
import t from 'tap';
import { createHash, randomBytes } from 'node:crypto';
import { crc32 } from 'node:zlib';
import { copyInto, partChecksummer, sharedPartBuffer } from '../../server/http/part-checksums.ts';

t.test('checksums of parts in shared memory, from the checksum thread', async (t) => {
  const sums = partChecksummer();
  t.teardown(() => sums.close());
  const buf = sharedPartBuffer(1024 * 1024);
  const data = randomBytes(300_001);
  // Network-like chunks at odd offsets: the copy must be exact whatever the alignment.
  for (let at = 0, size = 1; at < data.length; at += size, size = ((size * 7 + 13) % 70_000) + 1) copyInto(buf, data.subarray(at, at + size), at);
  t.ok(buf.subarray(0, data.length).equals(data), 'copyInto put every chunk where it belongs');
  const part = buf.subarray(4096, data.length); // a view inside the shared memory, as a part buffer is
  const expected = data.subarray(4096);
  const out = await sums.compute(part, ['sha256', 'md5']);
  t.equal(out.crc32, crc32(expected));
  t.same(out.hashes.sha256, createHash('sha256').update(expected).digest());
  t.same(out.hashes.md5, createHash('md5').update(expected).digest());
  t.equal(out.hashes.sha512, undefined, 'only the hashes asked for');

  const results = await Promise.all(
    Array.from({ length: 6 }, async (_, i) => {
      const b = sharedPartBuffer(128 * 1024).fill(i);
      return (await sums.compute(b, [])).crc32 === crc32(Buffer.alloc(128 * 1024, i));
    }),
  );
  t.same(results, [true, true, true, true, true, true], 'concurrent requests each get their own answer');

  const plain = Buffer.from('hello, not shared');
  t.same(
    await sums.compute(plain, ['sha256']),
    { crc32: crc32(plain), hashes: { sha256: createHash('sha256').update(plain).digest() } },
    'a part outside shared memory is checksummed inline, with the same results',
  );
});

t.test('a checksum thread that is gone: the answers come from the main thread', async (t) => {
  const sums = partChecksummer();
  const b = sharedPartBuffer(64 * 1024).fill(9);
  t.equal((await sums.compute(b, [])).crc32, crc32(b), 'the thread answers');
  await sums.close();
  t.equal((await sums.compute(b, [])).crc32, crc32(b), 'after it stopped, inline');
});
