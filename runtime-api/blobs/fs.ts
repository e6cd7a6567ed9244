// The file-system BlobStore: each upload is one file written at part offsets (fdatasync before acknowledging),
// completed by fsync + rename into objects/; see research/storage.md section 2 (local mirror).
import { mkdir, open, rename, rm, stat, readdir } from 'node:fs/promises';
import { createReadStream } from 'node:fs';
import { join, dirname } from 'node:path';
import type { Readable } from 'node:stream';
import { assertSafeKey, assertSafeUploadId, type BlobStore, type PartWrite, type UploadLayout } from './port.ts';

async function fsyncDir(dir: string): Promise<void> {
  const fh = await open(dir, 'r');
  try { await fh.sync(); } finally { await fh.close(); }
}

export function fsBlobStore(root: string): BlobStore {
  const uploadsDir = join(root, 'uploads');
  const objectsDir = join(root, 'objects');
  const stagingFile = (uploadId: string) => join(uploadsDir, uploadId, 'data');
  const objectFile = (key: string) => join(objectsDir, key);
  // Two writes of one part must not interleave: chain them per (upload, part) in this process.
  const locks = new Map<string, Promise<unknown>>();
  function serialized<T>(lockKey: string, fn: () => Promise<T>): Promise<T> {
    const prev = locks.get(lockKey) ?? Promise.resolve();
    const next = prev.catch(() => {}).then(fn);
    locks.set(lockKey, next);
    void next.catch(() => {}).finally(() => { if (locks.get(lockKey) === next) locks.delete(lockKey); });
    return next;
  }

  return {
    kind: 'fs',

    async putPart(uploadId: string, part: PartWrite) {
      assertSafeUploadId(uploadId);
      await serialized(`${uploadId}:${part.number}`, async () => {
        const file = stagingFile(uploadId);
        await mkdir(dirname(file), { recursive: true });
        const fh = await open(file, 'a+').then(async (h) => { await h.close(); return open(file, 'r+'); });
        try {
          let written = 0;
          while (written < part.data.length) {
            const { bytesWritten } = await fh.write(part.data, written, part.data.length - written, part.offset + written);
            written += bytesWritten;
          }
          await fh.datasync();
        } finally {
          await fh.close();
        }
      });
    },

    async finalize(uploadId: string, layout: UploadLayout, key: string) {
      assertSafeUploadId(uploadId);
      assertSafeKey(key);
      const file = stagingFile(uploadId);
      const fh = await open(file, 'r+');
      try {
        const { size } = await fh.stat();
        // A final part re-sent shorter never happens (sizes are exact), but a stale longer file must not leak bytes.
        if (size > layout.byteLength) await fh.truncate(layout.byteLength);
        if (size < layout.byteLength) throw new Error(`staged ${size} bytes, expected ${layout.byteLength}`);
        await fh.sync();
      } finally {
        await fh.close();
      }
      const target = objectFile(key);
      await mkdir(dirname(target), { recursive: true });
      await rename(file, target);
      await fsyncDir(dirname(target));
      await rm(join(uploadsDir, uploadId), { recursive: true, force: true });
    },

    async read(key: string, range?: { start: number; end: number }): Promise<Readable> {
      assertSafeKey(key);
      const fh = await open(objectFile(key), 'r');
      // The stream owns the handle and closes it on end, error or destroy (an aborted download leaks nothing).
      return createReadStream('', { fd: fh, autoClose: true, start: range?.start, end: range?.end, highWaterMark: 256 * 1024 });
    },

    async stat(key: string) {
      assertSafeKey(key);
      try {
        const s = await stat(objectFile(key));
        return { size: s.size };
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
        throw err;
      }
    },

    async delete(key: string) {
      assertSafeKey(key);
      await rm(objectFile(key), { force: true });
    },

    async deleteUpload(uploadId: string) {
      assertSafeUploadId(uploadId);
      await rm(join(uploadsDir, uploadId), { recursive: true, force: true });
    },

    async listUploads() {
      try { return await readdir(uploadsDir); } catch { return []; }
    },

    async listKeys(prefix: string) {
      const out: string[] = [];
      async function walk(dir: string, rel: string): Promise<void> {
        let entries;
        try { entries = await readdir(dir, { withFileTypes: true }); } catch { return; }
        for (const e of entries) {
          const r = rel ? `${rel}/${e.name}` : e.name;
          if (e.isDirectory()) await walk(join(dir, e.name), r);
          else if (r.startsWith(prefix)) out.push(r);
        }
      }
      await walk(objectsDir, '');
      return out.sort();
    },
  };
}
