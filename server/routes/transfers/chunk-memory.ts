// Transferred chunks give their memory back as soon as nothing reads them again, rather than at the next major GC:
// their external memory is what drives most collections of a transfer (each a mark of the whole heap).
import type Koa from 'koa';

/**
 * Free a body chunk's memory now. Node's HTTP parser copies each body chunk (up to 64 KiB) into a fresh
 * ArrayBuffer of its own; once the chunk has been copied and hashed nothing reads it again (the part reader is its
 * only listener), so its ArrayBuffer is detached, which frees the memory and takes it off V8's external-memory
 * count at once. Chunks that share their ArrayBuffer are left alone.
 */
export function release(chunk: Buffer): void {
  const ab = chunk.buffer;
  if (!(ab instanceof ArrayBuffer) || chunk.byteOffset !== 0 || ab.byteLength !== chunk.length) return;
  try {
    ab.transfer(0);
  } catch {
    /* not detachable: the GC frees it */
  }
}

/**
 * The download's counterpart of release(): the fs store reads a file in 1 MiB chunks, each a fresh ArrayBuffer
 * that only the socket needs, and only until it has written it. Freed once written, they no longer pile up as
 * external memory (about 100 MB of RSS per GiB downloaded before a GC reclaimed them).
 */
export function releaseWhenSent(res: Koa.Context['res']): void {
  const write = res.write;
  res.write = function (this: typeof res, chunk: unknown, encoding?: unknown, cb?: unknown) {
    const done = (typeof encoding === 'function' ? encoding : cb) as ((err?: Error | null) => void) | undefined;
    const enc = typeof encoding === 'function' ? undefined : encoding;
    if (!Buffer.isBuffer(chunk)) return (write as Function).call(this, chunk, enc, done);
    return (write as Function).call(this, chunk, enc, (err?: Error | null) => {
      release(chunk); // the socket has written it (or failed to): nothing reads it again
      done?.(err);
    });
  } as typeof res.write;
}
