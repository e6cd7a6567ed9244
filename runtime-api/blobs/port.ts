// The BlobStore port: where upload parts and finished files live. The fs adapter (default) and the gcs adapter
// both pass test/contract/blob-store.suite.ts. Nothing is acknowledged before it is durable.
import type { Readable } from 'node:stream';

export interface PartWrite {
  /** 1-based part number. */
  number: number;
  /** Byte offset of the part in the finished file ((number - 1) * partSize). */
  offset: number;
  /** The part's bytes. The caller may reuse the buffer once the returned promise settles. */
  data: Buffer;
  /** The upload's final part: nothing lies past it in the finished file (a store may pad its write, finalize cuts). */
  last?: boolean;
}

export interface UploadLayout {
  partCount: number;
  partSize: number;
  byteLength: number;
}

export interface BlobStat {
  size: number;
}

export interface BlobListing {
  key: string;
  /** Last modification, so janitors can leave blobs alone that a transaction may be about to reference. */
  updatedAt: Date;
}

export interface BlobStore {
  readonly kind: string;
  /**
   * A buffer to receive parts in, which this store writes fastest from (fs: memory aligned for O_DIRECT), over a
   * SharedArrayBuffer so that another thread can read a part in place (the upload route checksums parts on a worker
   * thread). Optional; putPart accepts any buffer.
   */
  partBuffer?(size: number): Promise<Buffer>;
  /** Store one part durably; storing the same part again replaces it. */
  putPart(uploadId: string, part: PartWrite): Promise<void>;
  /**
   * Assemble parts 1..partCount into the blob `key`, durably; the upload's staging data is gone afterwards.
   * Parts must all be present with their exact sizes (the caller checked the manifest).
   */
  finalize(uploadId: string, layout: UploadLayout, key: string, meta: { contentType: string }): Promise<void>;
  /** Write a whole (small) blob durably in one call, replacing any previous content of `key`. */
  write(key: string, data: Buffer, meta: { contentType: string }): Promise<void>;
  /**
   * Write a blob of any size from `source` durably, holding no more than a bounded buffer of it, replacing any
   * previous content of `key`; nothing is published at `key` if `source` fails. Archive import stages entries so.
   */
  writeStream(key: string, source: AsyncIterable<Uint8Array>, meta: { contentType: string }): Promise<void>;
  /**
   * An open upload's staged bytes from `range.start` to `range.end` inclusive (within `layout.byteLength`), read
   * where its parts landed, before any finalize: archive import reads the archive in place, and an import that
   * refuses leaves the upload as it was. The parts covering the range must be present.
   */
  readUpload(uploadId: string, layout: UploadLayout, range: { start: number; end: number }): Promise<Readable>;
  /** The bytes of `key`, whole or from `start` to `end` inclusive. Rejects with BlobNotFoundError when absent. */
  read(key: string, range?: { start: number; end: number }): Promise<Readable>;
  stat(key: string): Promise<BlobStat | null>;
  /** Idempotent. */
  delete(key: string): Promise<void>;
  /** Drop an upload's staging data. Idempotent. */
  deleteUpload(uploadId: string): Promise<void>;
  /** Upload ids that have staging data (for janitors finding orphans). */
  listUploads(): Promise<string[]>;
  /** Blob keys under a prefix, sorted (for janitors finding orphans). */
  listKeys(prefix: string): Promise<BlobListing[]>;
  /**
   * Delete what writes that never finished (their process died mid-write) left behind, if last modified before
   * `before`; returns how many. For stores whose writes can leave such things (fs: files in its tmp/ directory).
   */
  deleteStaleTemporaries?(before: Date): Promise<number>;
  /** Release clients and handles (optional). */
  close?(): Promise<void>;
}

export class BlobNotFoundError extends Error {
  readonly key: string;
  constructor(key: string) {
    super(`blob not found: ${key}`);
    this.name = 'BlobNotFoundError';
    this.key = key;
  }
}

/** Blob keys are `{orgId}/{blobId}`; both parts are our own ids, checked here so no adapter sees a path trick. */
export function assertSafeKey(key: string): void {
  if (!/^[a-z0-9_]+(\/[a-z0-9_]+)*$/.test(key)) throw new Error(`unsafe blob key: ${JSON.stringify(key)}`);
}

export function assertSafeUploadId(uploadId: string): void {
  if (!/^[a-z0-9_]+$/.test(uploadId)) throw new Error(`unsafe upload id: ${JSON.stringify(uploadId)}`);
}
