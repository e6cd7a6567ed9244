// The BlobStore contract (runtime-api/blobs/port.ts), run against every adapter: fs-blob-store.test.ts and
// gcs-blob-store.test.ts. Small part sizes keep it fast; the layout is what the adapters honour.
import type { Test } from 'tap';
import { createHash, randomBytes } from 'node:crypto';
import type { Readable } from 'node:stream';
import { BlobNotFoundError, type BlobStore } from '../../runtime-api/blobs/port.ts';

async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of stream) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}

const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

function layoutOf(data: Buffer, partSize: number) {
  return { partCount: Math.max(1, Math.ceil(data.length / partSize)), partSize, byteLength: data.length };
}

async function putAll(store: BlobStore, uploadId: string, data: Buffer, partSize: number, order: 'forward' | 'reverse' | 'parallel' = 'parallel') {
  const { partCount } = layoutOf(data, partSize);
  const parts = Array.from({ length: partCount }, (_, i) => ({ number: i + 1, offset: i * partSize, data: data.subarray(i * partSize, (i + 1) * partSize) }));
  if (order === 'parallel') await Promise.all(parts.map((p) => store.putPart(uploadId, p)));
  else for (const p of order === 'reverse' ? parts.reverse() : parts) await store.putPart(uploadId, p);
}

export function blobStoreContract(t: Test, make: () => Promise<BlobStore>): void {
  let n = 0;
  const id = (what: string) => `${what}_${process.pid}_${++n}`;

  t.test('parts in any order, finalize, whole and ranged reads, stat, staging gone', async (t) => {
    const store = await make();
    const data = randomBytes(10 * 1000 + 7);
    const up = id('upl');
    await putAll(store, up, data, 1000, 'reverse');
    t.ok((await store.listUploads()).includes(up), 'staging is listed while open');
    await store.finalize(up, layoutOf(data, 1000), `org_a/${up}`, { contentType: 'application/octet-stream' });
    t.equal(sha(await readAll(await store.read(`org_a/${up}`))), sha(data));
    t.same(await readAll(await store.read(`org_a/${up}`, { start: 995, end: 1004 })), data.subarray(995, 1005), 'range across parts');
    t.same(await readAll(await store.read(`org_a/${up}`, { start: data.length - 1, end: data.length - 1 })), data.subarray(data.length - 1));
    t.same(await store.stat(`org_a/${up}`), { size: data.length });
    t.notOk((await store.listUploads()).includes(up), 'staging is gone after finalize');
  });

  t.test("parts received in the store's own partBuffer: a short final part, re-sent with other bytes", async (t) => {
    const store = await make();
    const partSize = 64 * 1024;
    const data = randomBytes(3 * partSize + 1234);
    const up = id('upl');
    // As the transfer route does: each part copied into a buffer the store handed out, reused once stored.
    const buffers = await Promise.all([0, 1].map(() => (store.partBuffer ? store.partBuffer(partSize) : Promise.resolve(Buffer.alloc(partSize)))));
    t.ok(
      buffers.every((b) => b.length === partSize),
      'partBuffer gives the size asked for',
    );
    if (store.partBuffer)
      t.ok(
        buffers.every((b) => b.buffer instanceof SharedArrayBuffer),
        'over shared memory (the checksum thread reads it)',
      );
    const put = async (n: number, bytes: Buffer, buf: Buffer) => {
      bytes.copy(buf);
      await store.putPart(up, { number: n, offset: (n - 1) * partSize, data: buf.subarray(0, bytes.length), last: n === 4 });
    };
    const partOf = (n: number) => data.subarray((n - 1) * partSize, n * partSize);
    await put(4, randomBytes(1234), buffers[0]); // a final part that is replaced below
    await Promise.all([put(2, partOf(2), buffers[0]), put(3, partOf(3), buffers[1])]);
    await put(4, partOf(4), buffers[1]);
    await put(1, partOf(1), buffers[0]);
    await store.finalize(up, layoutOf(data, partSize), `org_pb/${up}`, { contentType: 'application/octet-stream' });
    t.same(await store.stat(`org_pb/${up}`), { size: data.length }, 'exactly the declared length: nothing past the final part');
    t.equal(sha(await readAll(await store.read(`org_pb/${up}`))), sha(data));
    t.same(await readAll(await store.read(`org_pb/${up}`, { start: data.length - 10, end: data.length - 1 })), data.subarray(data.length - 10));
  });

  t.test('re-sending a part replaces it; parallel parts do not clobber each other', async (t) => {
    const store = await make();
    const data = randomBytes(3 * 512);
    const up = id('upl');
    await store.putPart(up, { number: 2, offset: 512, data: randomBytes(512) });
    await putAll(store, up, data, 512, 'parallel');
    await store.finalize(up, layoutOf(data, 512), `org_a/${up}`, { contentType: 'text/plain' });
    t.equal(sha(await readAll(await store.read(`org_a/${up}`))), sha(data));
  });

  t.test('more parts than one compose takes (a tree), and a retried finalize is a no-op', async (t) => {
    const store = await make();
    const data = randomBytes(70 * 16 + 3);
    const up = id('upl');
    await putAll(store, up, data, 16, 'parallel');
    const layout = layoutOf(data, 16);
    t.equal(layout.partCount, 71);
    await store.finalize(up, layout, `org_b/${up}`, { contentType: 'application/octet-stream' });
    await store.finalize(up, layout, `org_b/${up}`, { contentType: 'application/octet-stream' });
    t.equal(sha(await readAll(await store.read(`org_b/${up}`))), sha(data));
  });

  t.test('a zero-byte upload', async (t) => {
    const store = await make();
    const up = id('upl');
    await store.putPart(up, { number: 1, offset: 0, data: Buffer.alloc(0) });
    await store.finalize(up, { partCount: 1, partSize: 8, byteLength: 0 }, `org_a/${up}`, { contentType: 'text/plain' });
    t.same(await store.stat(`org_a/${up}`), { size: 0 });
    t.equal((await readAll(await store.read(`org_a/${up}`))).length, 0);
  });

  t.test('finalize refuses an upload whose bytes do not add up', async (t) => {
    const store = await make();
    const up = id('upl');
    await store.putPart(up, { number: 1, offset: 0, data: Buffer.alloc(10, 1) });
    await t.rejects(store.finalize(up, { partCount: 1, partSize: 10, byteLength: 20 }, `org_a/${up}`, { contentType: 'text/plain' }));
    t.equal(await store.stat(`org_a/${up}`), null, 'nothing is published');
    await store.deleteUpload(up);
  });

  t.test('write replaces a whole blob; read, stat, delete; missing blobs', async (t) => {
    const store = await make();
    const key = `org_c/${id('blb')}`;
    await store.write(key, Buffer.from('first'), { contentType: 'text/plain' });
    await store.write(key, Buffer.from('second!'), { contentType: 'text/plain' });
    t.equal((await readAll(await store.read(key))).toString(), 'second!');
    t.same(await store.stat(key), { size: 7 });
    await store.delete(key);
    await store.delete(key); // idempotent
    t.equal(await store.stat(key), null);
    await t.rejects(store.read(key), BlobNotFoundError);
    await t.rejects(store.read(`org_c/${id('never')}`, { start: 0, end: 1 }), BlobNotFoundError);
  });

  t.test('deleteUpload drops staging (idempotently); listings', async (t) => {
    const store = await make();
    const up = id('upl');
    await store.putPart(up, { number: 1, offset: 0, data: Buffer.from('abc') });
    await store.deleteUpload(up);
    await store.deleteUpload(up);
    t.notOk((await store.listUploads()).includes(up));
    const org = id('org');
    await store.write(`${org}/b`, Buffer.from('2'), { contentType: 'text/plain' });
    await store.write(`${org}/a`, Buffer.from('1'), { contentType: 'text/plain' });
    await store.write(`${org}x/c`, Buffer.from('3'), { contentType: 'text/plain' });
    const listed = await store.listKeys(`${org}/`);
    t.same(
      listed.map((l) => l.key),
      [`${org}/a`, `${org}/b`],
    );
    for (const l of listed) t.ok(l.updatedAt instanceof Date && Math.abs(l.updatedAt.getTime() - Date.now()) < 60_000, 'updatedAt is a recent Date');
    t.same(
      (await store.listKeys(org)).map((l) => l.key),
      [`${org}/a`, `${org}/b`, `${org}x/c`],
    );
    t.ok((await store.listKeys('')).length >= 3);
  });

  t.test("readUpload reads an open upload's staged bytes in place, any range across parts", async (t) => {
    const store = await make();
    const partSize = 64 * 1024;
    const data = randomBytes(3 * partSize + 777);
    const up = id('upl');
    await putAll(store, up, data, partSize, 'reverse');
    const layout = layoutOf(data, partSize);
    const range = async (start: number, end: number) => readAll(await store.readUpload(up, layout, { start, end }));
    t.equal(sha(await range(0, data.length - 1)), sha(data), 'the whole upload');
    t.same(await range(partSize - 3, 2 * partSize + 4), data.subarray(partSize - 3, 2 * partSize + 5), 'a range across three parts');
    t.same(await range(data.length - 5, data.length - 1), data.subarray(data.length - 5), 'the end of the final part');
    t.same(await range(10, 10), data.subarray(10, 11), 'one byte');
    // A reader that gives up early leaves nothing behind that stops the upload from being finalized.
    (await store.readUpload(up, layout, { start: 0, end: data.length - 1 })).destroy();
    await t.rejects(store.readUpload(up, layout, { start: 0, end: data.length }), 'a range past the end is refused');
    t.ok((await store.listUploads()).includes(up), 'reading leaves the staging as it was');
    await store.finalize(up, layout, `org_ru/${up}`, { contentType: 'application/octet-stream' });
    t.equal(sha(await readAll(await store.read(`org_ru/${up}`))), sha(data));
    await t.rejects(store.readUpload(id('never'), layout, { start: 0, end: 1 }), BlobNotFoundError);
  });

  t.test('writeStream stores a stream of any chunking; a failing source publishes nothing', async (t) => {
    const store = await make();
    const key = `org_ws/${id('blb')}`;
    const data = randomBytes(8 * 1024 * 1024 + 300 * 1024 + 13); // past a store's own chunk of 8 MiB, if it has one
    async function* chunks(fail = false) {
      for (let at = 0, n = 1; at < data.length; at += n, n = (n * 7) % 65_521) {
        if (fail && at > data.length / 2) throw new Error('the source broke');
        yield data.subarray(at, at + n);
      }
    }
    await store.writeStream(key, chunks(), { contentType: 'application/octet-stream' });
    t.same(await store.stat(key), { size: data.length });
    t.equal(sha(await readAll(await store.read(key))), sha(data));
    const small = Buffer.from('a small blob');
    await store.writeStream(
      key,
      (async function* () {
        yield small;
      })(),
      { contentType: 'text/plain' },
    );
    t.same(await readAll(await store.read(key)), small, 'written again: replaced');
    const broken = `org_ws/${id('blb')}`;
    await t.rejects(store.writeStream(broken, chunks(true), { contentType: 'application/octet-stream' }), /the source broke/);
    t.equal(await store.stat(broken), null, 'nothing is published');
    const empty = `org_ws/${id('blb')}`;
    await store.writeStream(empty, (async function* () {})(), { contentType: 'text/plain' });
    t.same(await store.stat(empty), { size: 0 });
  });

  t.test('unsafe keys and upload ids are refused before touching storage', async (t) => {
    const store = await make();
    await t.rejects(store.write('../etc/passwd', Buffer.from('x'), { contentType: 'text/plain' }));
    await t.rejects(store.read('a/../../b'));
    await t.rejects(store.putPart('../up', { number: 1, offset: 0, data: Buffer.from('x') }));
    await t.rejects(store.deleteUpload('a/b'));
    await t.rejects(store.writeStream('../x', (async function* () {})(), { contentType: 'text/plain' }));
    await t.rejects(store.readUpload('../up', { partCount: 1, partSize: 8, byteLength: 8 }, { start: 0, end: 1 }));
  });
}
