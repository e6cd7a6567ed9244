// The archive's bytes as an import reads them: ranges of the upload's staged parts (BlobStore.readUpload), as one
// stream for tar and as random access for yauzl, whose central directory walk is many small reads: those are served
// from one window read ahead, so that a 10,000-entry directory costs a few range reads, not 20,000.
import { PassThrough, type Readable } from 'node:stream';
import yauzl from 'yauzl';
import type { BlobStore } from '../../blobs/port.ts';
import type { UploadRow } from '../../store/uploads.ts';

export interface ArchiveSource {
  size: number;
  /** Bytes `start` to `end` inclusive. */
  read(range: { start: number; end: number }): Promise<Readable>;
}

export function uploadSource(blobs: BlobStore, upload: UploadRow): ArchiveSource {
  const layout = { partCount: upload.partCount, partSize: upload.partSize, byteLength: upload.byteLength };
  return { size: upload.byteLength, read: (range) => blobs.readUpload(upload.id, layout, range) };
}

/** The first `n` bytes (fewer if the archive is shorter). */
export async function readHead(source: ArchiveSource, n: number): Promise<Buffer> {
  if (source.size === 0) return Buffer.alloc(0);
  const chunks: Buffer[] = [];
  for await (const chunk of await source.read({ start: 0, end: Math.min(n, source.size) - 1 })) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** Small reads are served from a window of this many bytes read ahead. */
const WINDOW = 64 * 1024;

export class SourceReader extends yauzl.RandomAccessReader {
  readonly #source: ArchiveSource;
  #window: { start: number; bytes: Buffer } | null = null;
  /** The first failure of the storage underneath (yauzl reports it as its own; the import must not call it damage). */
  failure: unknown = null;

  constructor(source: ArchiveSource) {
    super();
    this.#source = source;
  }

  /** `end` is exclusive here, as yauzl counts. */
  override _readStreamForRange(start: number, end: number): Readable {
    const out = new PassThrough();
    const failed = (err: Error) => {
      this.failure ??= err;
      out.destroy(err);
    };
    this.#source.read({ start, end: end - 1 }).then((stream) => {
      stream.once('error', failed);
      out.once('close', () => stream.destroy());
      stream.pipe(out);
    }, failed);
    return out;
  }

  override read(buffer: Buffer, offset: number, length: number, position: number, callback: (err: Error | null) => void): void {
    if (length > WINDOW) return super.read(buffer, offset, length, position, callback);
    const copy = (w: { start: number; bytes: Buffer }) => {
      const from = position - w.start;
      if (from < 0 || from + length > w.bytes.length) return false;
      w.bytes.copy(buffer, offset, from, from + length);
      return true;
    };
    if (this.#window && copy(this.#window)) return void setImmediate(callback, null);
    const end = Math.min(this.#source.size, position + WINDOW);
    if (end - position < length) return void setImmediate(callback, new Error('unexpected EOF'));
    readAll(this.#source, position, end).then(
      (bytes) => {
        this.#window = { start: position, bytes };
        copy(this.#window);
        callback(null);
      },
      (err) => {
        this.failure ??= err;
        callback(err as Error);
      },
    );
  }
}

async function readAll(source: ArchiveSource, start: number, end: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of await source.read({ start, end: end - 1 })) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}
