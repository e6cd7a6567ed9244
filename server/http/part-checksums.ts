// Checksums of a received upload part (CRC-32 always; MD5 / SHA-256 / SHA-512 when asked), computed on a worker
// thread. They were the largest JavaScript-visible item of an upload on the main thread (CRC-32 alone ~0.16 s of
// CPU per GiB; a Content-Digest sha-256, which `siglata upload` sends with every part, ~0.5 s more), and the main
// thread is what bounds upload throughput: it also receives every byte. Parts are received into buffers over a
// SharedArrayBuffer (sharedPartBuffer, or the fs store's aligned ones), which the worker reads in place: nothing
// is copied or moved. A part in any other memory is checksummed inline instead: same results, on the main thread.
import { Worker } from 'node:worker_threads';
import { crc32 } from 'node:zlib';
import { createHash } from 'node:crypto';

export type HashName = 'md5' | 'sha256' | 'sha512';
export interface PartChecksums {
  crc32: number;
  hashes: Partial<Record<HashName, Buffer>>;
}

export interface ChecksumRequest {
  id: number;
  memory: SharedArrayBuffer;
  offset: number;
  length: number;
  hashes: HashName[];
}
export interface ChecksumReply {
  id: number;
  crc32: number;
  hashes: Partial<Record<HashName, Uint8Array>>;
  error?: string;
}

/** The computation itself, shared by the worker and the inline path. */
export function checksumsOf(bytes: Uint8Array, hashes: readonly HashName[]): PartChecksums {
  const out: Partial<Record<HashName, Buffer>> = {};
  for (const name of hashes) out[name] = createHash(name).update(bytes).digest();
  return { crc32: crc32(bytes), hashes: out };
}

/** A part buffer the checksum thread can read in place. */
export function sharedPartBuffer(size: number): Buffer {
  return Buffer.from(new SharedArrayBuffer(size));
}

/**
 * Copy `chunk` into `target` at `at`. Buffer#copy into shared memory takes V8's relaxed-atomic copy, which goes a
 * byte at a time when the two addresses are differently aligned (the usual case for network chunks): ~10x slower
 * than memcpy. Buffer#fill with a buffer value is a plain memcpy in Node's C++, for either kind of memory.
 */
export function copyInto(target: Buffer, chunk: Buffer, at: number): void {
  if (chunk.length > 0) target.fill(chunk, at, at + chunk.length);
}

export function partChecksummer() {
  let worker: Worker | null = null;
  let broken = false;
  let next = 1;
  const pending = new Map<number, { resolve: (c: PartChecksums) => void; inline: () => void }>();

  const fail = () => {
    broken = true;
    worker = null;
    // The bytes are still ours (shared memory): answer from here.
    for (const [, p] of pending) p.inline();
    pending.clear();
  };

  const start = (): Worker | null => {
    if (worker || broken) return worker;
    try {
      worker = new Worker(new URL('./part-checksums-worker.ts', import.meta.url));
    } catch {
      broken = true;
      return null;
    }
    worker.on('message', (reply: ChecksumReply) => {
      const p = pending.get(reply.id);
      if (!p) return;
      pending.delete(reply.id);
      if (pending.size === 0) worker?.unref();
      if (reply.error !== undefined) return p.inline();
      const hashes: Partial<Record<HashName, Buffer>> = {};
      for (const [name, bytes] of Object.entries(reply.hashes)) hashes[name as HashName] = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
      p.resolve({ crc32: reply.crc32, hashes });
    });
    worker.on('error', fail);
    worker.on('exit', fail);
    // Referenced only while a request is pending: an idle checksum thread never keeps the process alive. (After the
    // listeners: attaching a 'message' listener refs the port again.)
    worker.unref();
    return worker;
  };

  return {
    /** Checksums of `bytes`: on the checksum thread when they live in shared memory. Never rejects. */
    compute(bytes: Buffer, hashes: readonly HashName[]): Promise<PartChecksums> {
      const w = bytes.buffer instanceof SharedArrayBuffer ? start() : null;
      if (!w) return Promise.resolve(checksumsOf(bytes, hashes));
      return new Promise((resolve) => {
        const request: ChecksumRequest = {
          id: next++,
          memory: bytes.buffer as SharedArrayBuffer,
          offset: bytes.byteOffset,
          length: bytes.length,
          hashes: [...hashes],
        };
        if (pending.size === 0) w.ref();
        pending.set(request.id, { resolve, inline: () => resolve(checksumsOf(bytes, hashes)) });
        w.postMessage(request);
      });
    },
    /** Stop the thread (tests; the server lets the unreferenced thread end with the process). */
    async close(): Promise<void> {
      const w = worker;
      broken = true;
      worker = null;
      if (w) await w.terminate();
    },
  };
}
