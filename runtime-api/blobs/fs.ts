// The file-system BlobStore: each upload is one file written at part offsets (O_DSYNC writes: durable before
// acknowledging; O_DIRECT too for parts in aligned memory such as partBuffer() gives, see direct-io.ts), completed
// by truncate to the exact length + fsync + rename into objects/; see research/storage.md section 2 (local mirror).
import { mkdir, open, rename, rm, stat, readdir } from 'node:fs/promises';
import { constants, createReadStream } from 'node:fs';
import { join, dirname } from 'node:path';
import { randomBytes } from 'node:crypto';
import type { Readable } from 'node:stream';
import { assertSafeKey, assertSafeUploadId, BlobNotFoundError, type BlobListing, type BlobStore, type PartWrite, type UploadLayout } from './port.ts';
import { allocateAligned, DIRECT_ALIGN, isAlignmentRefusal, O_DIRECT } from './direct-io.ts';

/** Each write durable on return (Linux, macOS); 0 where the platform lacks it (then an fdatasync follows). */
const O_DSYNC = constants.O_DSYNC ?? 0;
const READ_CHUNK = 1024 * 1024; // 1 MiB reads: about twice the throughput of the 64 KiB default (research/storage.md 3)

async function fsyncDir(dir: string): Promise<void> {
  const fh = await open(dir, 'r');
  try {
    await fh.sync();
  } finally {
    await fh.close();
  }
}

/** mkdir -p, then fsync the parents of whatever was created, so a later rename's directory entry is durable. */
async function ensureDir(dir: string): Promise<void> {
  const first = await mkdir(dir, { recursive: true });
  if (!first) return;
  for (let d = dir; ; d = dirname(d)) {
    await fsyncDir(dirname(d));
    if (d === first) break;
  }
}

async function writeAll(fh: import('node:fs/promises').FileHandle, data: Buffer, position: number): Promise<void> {
  let written = 0;
  while (written < data.length) {
    const { bytesWritten } = await fh.write(data, written, data.length - written, position + written);
    written += bytesWritten;
  }
}

function isMissing(err: unknown): boolean {
  return (err as NodeJS.ErrnoException).code === 'ENOENT';
}

/** Parts written with O_DIRECT and through the page cache, since the store was made (tests and diagnostics). */
export interface FsIoCounters {
  direct: number;
  buffered: number;
}

export function fsBlobStore(root: string): BlobStore & { readonly io: FsIoCounters } {
  const uploadsDir = join(root, 'uploads');
  const objectsDir = join(root, 'objects');
  const tmpDir = join(root, 'tmp');
  const stagingFile = (uploadId: string) => join(uploadsDir, uploadId, 'data');
  const objectFile = (key: string) => join(objectsDir, key);
  // Parts are written concurrently, each through its own O_DSYNC descriptor: a write returns only once its own
  // bytes (and the metadata needed to read them back, such as the file size) are durable, as if followed by an
  // fdatasync of just that range. Unlike fdatasync, which flushes every dirty page of the file, parts in flight
  // do not wait on each other's data, so their writes and flushes overlap. At most WRITERS parts are written at
  // once: the 4 a client sends together (with 3, the fourth waited for a writer and a part's store time went from
  // ~14 to ~23 ms). Each write holds one of libuv's 4 pool threads for a few milliseconds (an 8 MiB O_DIRECT
  // write: 3-10 ms), so other file work may wait that long; a larger pool measured slower uploads on 2 cores.
  const WRITERS = 4;
  let writing = 0;
  const waiting: (() => void)[] = [];
  // O_DIRECT (see direct-io.ts) is tried for every part at an aligned offset: the whole blocks straight from the
  // part's memory; a partial block at the end of the upload's last part through a small aligned block of the
  // store's own, zero-padded (finalize cuts the file to its exact length; padding any other part would overwrite
  // the start of the next one, so such a part is written through the page cache). Memory the kernel finds
  // misaligned (a caller's own buffer; partBuffer() gives aligned ones) is refused before anything is written, and
  // that part goes through the page cache. `direct` turns off for good when the file system refuses O_DIRECT.
  let direct = O_DIRECT !== 0;
  const io: FsIoCounters = { direct: 0, buffered: 0 };
  const tailBlocks: Buffer[] = [];
  // Uploads whose staging directory exists (made or seen here): later parts skip the mkdir, one libuv pool job
  // fewer per part while the pool's threads are busy writing. Another instance may remove one (abort, janitor):
  // the open then fails with ENOENT and the directory is made again.
  const staged = new Set<string>();
  async function writePart(uploadId: string, part: PartWrite): Promise<void> {
    const file = stagingFile(uploadId);
    if (!staged.has(uploadId)) {
      await ensureDir(dirname(file));
      if (staged.size >= 10_000) staged.clear();
      staged.add(uploadId);
    }
    try {
      await writePartIn(file, part);
    } catch (err) {
      if (!isMissing(err)) throw err;
      await ensureDir(dirname(file));
      await writePartIn(file, part);
    }
  }
  async function writePartIn(file: string, part: PartWrite): Promise<void> {
    const fits = part.data.length % DIRECT_ALIGN === 0 || part.last === true;
    if (direct && fits && part.offset % DIRECT_ALIGN === 0 && part.data.length > 0 && (await writeDirect(file, part))) {
      io.direct++;
      return;
    }
    // O_CREAT without O_TRUNC: an existing staging file keeps the parts already written.
    const fh = await open(file, constants.O_RDWR | constants.O_CREAT | O_DSYNC, 0o600);
    try {
      await writeAll(fh, part.data, part.offset);
      // A zero-byte part writes nothing, so nothing was synced: make the (created) file itself durable. Likewise
      // where the platform has no O_DSYNC.
      if (part.data.length === 0 || !O_DSYNC) await fh.datasync();
    } finally {
      await fh.close();
    }
    io.buffered++;
  }
  /** The part written with O_DIRECT|O_DSYNC, or false when the kernel refused it (nothing written then). */
  async function writeDirect(file: string, part: PartWrite): Promise<boolean> {
    let fh;
    try {
      fh = await open(file, constants.O_RDWR | constants.O_CREAT | O_DSYNC | O_DIRECT, 0o600);
    } catch (err) {
      if (!isAlignmentRefusal(err)) throw err;
      direct = false;
      return false;
    }
    try {
      const whole = part.data.length - (part.data.length % DIRECT_ALIGN);
      if (whole > 0) {
        try {
          await writeAll(fh, part.data.subarray(0, whole), part.offset);
        } catch (err) {
          if (isAlignmentRefusal(err)) return false;
          throw err;
        }
      }
      if (whole < part.data.length) {
        let block = tailBlocks.pop();
        if (!block) {
          await ensureDir(tmpDir); // the probe's scratch file goes there (partBuffer() may never have been called)
          block = allocateAligned(tmpDir, DIRECT_ALIGN) ?? undefined;
        }
        if (!block) return false;
        try {
          block.fill(0);
          part.data.copy(block, 0, whole);
          await writeAll(fh, block, part.offset + whole);
        } finally {
          tailBlocks.push(block);
        }
      }
      return true;
    } finally {
      await fh.close();
    }
  }

  /** A blob from chunks: a temporary, fsync, then a rename into place (durable on return). */
  async function writeStream(key: string, source: AsyncIterable<Uint8Array> | Iterable<Uint8Array>): Promise<void> {
    assertSafeKey(key);
    await ensureDir(tmpDir);
    // A process that dies mid-write leaves its temporary behind: a stale temporary, which the orphan janitor deletes.
    const tmp = join(tmpDir, randomBytes(12).toString('hex'));
    const fh = await open(tmp, 'wx', 0o600);
    try {
      let position = 0;
      for await (const chunk of source) {
        const data = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
        await writeAll(fh, data, position);
        position += data.length;
      }
      await fh.sync();
    } catch (err) {
      await fh.close();
      await rm(tmp, { force: true });
      throw err;
    }
    await fh.close();
    const target = objectFile(key);
    await ensureDir(dirname(target));
    await rename(tmp, target);
    await fsyncDir(dirname(target));
  }

  return {
    kind: 'fs',
    io,

    async partBuffer(size: number): Promise<Buffer> {
      if (direct) {
        await ensureDir(tmpDir);
        const aligned = allocateAligned(tmpDir, size);
        if (aligned) return aligned;
        direct = false;
      }
      return Buffer.from(new SharedArrayBuffer(size));
    },

    async putPart(uploadId: string, part: PartWrite): Promise<void> {
      assertSafeUploadId(uploadId);
      if (writing >= WRITERS) await new Promise<void>((resolve) => waiting.push(resolve));
      else writing++;
      try {
        await writePart(uploadId, part);
      } finally {
        const next = waiting.shift();
        if (next)
          next(); // the slot passes on
        else writing--;
      }
    },

    async finalize(uploadId: string, layout: UploadLayout, key: string) {
      assertSafeUploadId(uploadId);
      assertSafeKey(key);
      const file = stagingFile(uploadId);
      const target = objectFile(key);
      let fh;
      try {
        fh = await open(file, 'r+');
      } catch (err) {
        // A retried finalize whose rename already happened is done.
        if (isMissing(err)) {
          const done = await stat(target).catch(() => null);
          if (done && done.size === layout.byteLength) return;
        }
        throw err;
      }
      try {
        const { size } = await fh.stat();
        // Sizes are exact, but a stale longer file must never leak bytes past the declared length.
        if (size > layout.byteLength) await fh.truncate(layout.byteLength);
        if (size < layout.byteLength) throw new Error(`staged ${size} bytes, expected ${layout.byteLength}`);
        await fh.sync();
      } finally {
        await fh.close();
      }
      staged.delete(uploadId);
      await ensureDir(dirname(target));
      await rename(file, target);
      await fsyncDir(dirname(target));
      await rm(join(uploadsDir, uploadId), { recursive: true, force: true });
    },

    async write(key: string, data: Buffer) {
      await writeStream(key, [data]);
    },

    writeStream,

    async readUpload(uploadId: string, layout: UploadLayout, range: { start: number; end: number }): Promise<Readable> {
      assertSafeUploadId(uploadId);
      if (range.start < 0 || range.end >= layout.byteLength || range.end < range.start) {
        throw new Error(`range ${range.start}-${range.end} outside an upload of ${layout.byteLength} bytes`);
      }
      let fh;
      try {
        fh = await open(stagingFile(uploadId), 'r');
      } catch (err) {
        if (isMissing(err)) throw new BlobNotFoundError(`uploads/${uploadId}`);
        throw err;
      }
      // The staging file may run past byteLength (a padded final part): the range never reaches there.
      return createReadStream('', { fd: fh, autoClose: true, start: range.start, end: range.end, highWaterMark: READ_CHUNK });
    },

    async read(key: string, range?: { start: number; end: number }): Promise<Readable> {
      assertSafeKey(key);
      let fh;
      try {
        fh = await open(objectFile(key), 'r');
      } catch (err) {
        if (isMissing(err)) throw new BlobNotFoundError(key);
        throw err;
      }
      // The stream owns the handle and closes it on end, error or destroy (an aborted download leaks nothing).
      return createReadStream('', { fd: fh, autoClose: true, start: range?.start, end: range?.end, highWaterMark: READ_CHUNK });
    },

    async stat(key: string) {
      assertSafeKey(key);
      try {
        const s = await stat(objectFile(key));
        return { size: s.size };
      } catch (err) {
        if (isMissing(err)) return null;
        throw err;
      }
    },

    async delete(key: string) {
      assertSafeKey(key);
      await rm(objectFile(key), { force: true });
    },

    async deleteUpload(uploadId: string) {
      assertSafeUploadId(uploadId);
      staged.delete(uploadId);
      await rm(join(uploadsDir, uploadId), { recursive: true, force: true });
    },

    async listUploads() {
      try {
        return (await readdir(uploadsDir)).sort();
      } catch {
        return [];
      }
    },

    async deleteStaleTemporaries(before: Date) {
      // write() renames its temporary file into place (or removes it on failure); one that is still here and not
      // touched for a while belongs to a process that died mid-write.
      let deleted = 0;
      for (const name of await readdir(tmpDir).catch(() => [] as string[])) {
        const s = await stat(join(tmpDir, name)).catch(() => null);
        if (!s || s.mtime.getTime() >= before.getTime()) continue;
        await rm(join(tmpDir, name), { force: true });
        deleted++;
      }
      return deleted;
    },

    async listKeys(prefix: string) {
      const out: BlobListing[] = [];
      async function walk(dir: string, rel: string): Promise<void> {
        let entries;
        try {
          entries = await readdir(dir, { withFileTypes: true });
        } catch {
          return;
        }
        for (const e of entries) {
          const r = rel ? `${rel}/${e.name}` : e.name;
          if (e.isDirectory()) {
            if (prefix.startsWith(`${r}/`) || r.startsWith(prefix) || `${r}/`.startsWith(prefix)) await walk(join(dir, e.name), r);
          } else if (r.startsWith(prefix)) {
            const s = await stat(join(dir, e.name)).catch(() => null);
            if (s) out.push({ key: r, updatedAt: s.mtime });
          }
        }
      }
      await walk(objectsDir, '');
      return out.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
    },
  };
}
