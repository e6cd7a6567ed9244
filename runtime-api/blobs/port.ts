// The BlobStore port: where upload parts and finished files live. The fs adapter (default) and the gcs adapter
// both pass test/contract/blob-store.suite.ts. Nothing is acknowledged before it is durable.
import type { Readable } from 'node:stream';

export interface PartWrite {
  /** 1-based part number. */
  number: number;
  /** Byte offset of the part in the finished file ((number - 1) * partSize). */
  offset: number;
  data: Buffer;
}

export interface UploadLayout {
  partCount: number;
  partSize: number;
  byteLength: number;
}

export interface BlobStat {
  size: number;
}

export interface BlobStore {
  readonly kind: string;
  /** Store one part durably; storing the same part again replaces it. */
  putPart(uploadId: string, part: PartWrite): Promise<void>;
  /** Assemble the upload's parts into the blob `key`, durably; the upload's staging data is gone afterwards. */
  finalize(uploadId: string, layout: UploadLayout, key: string, meta: { contentType: string }): Promise<void>;
  /** The bytes of `key`, whole or from `start` to `end` inclusive. */
  read(key: string, range?: { start: number; end: number }): Promise<Readable>;
  stat(key: string): Promise<BlobStat | null>;
  /** Idempotent. */
  delete(key: string): Promise<void>;
  /** Drop an upload's staging data. Idempotent. */
  deleteUpload(uploadId: string): Promise<void>;
  /** Upload ids that have staging data (for janitors finding orphans). */
  listUploads(): Promise<string[]>;
  /** Blob keys under a prefix (for janitors finding orphans). */
  listKeys(prefix: string): Promise<string[]>;
}

/** Blob keys are `{orgId}/{fileId}`; both parts are our own ids, checked here so no adapter sees a path trick. */
export function assertSafeKey(key: string): void {
  if (!/^[a-z0-9_]+(\/[a-z0-9_]+)*$/.test(key)) throw new Error(`unsafe blob key: ${JSON.stringify(key)}`);
}

export function assertSafeUploadId(uploadId: string): void {
  if (!/^[a-z0-9_]+$/.test(uploadId)) throw new Error(`unsafe upload id: ${JSON.stringify(uploadId)}`);
}
