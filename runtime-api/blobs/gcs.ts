// The Google Cloud Storage BlobStore (research/storage.md section 2, design (a)): each part is its own object
// `uploads/{uploadId}/p00001`; completion composes them in groups of 32 (a tree for more than 32 parts) into
// `objects/{key}`, then deletes the parts. Writes carry their MD5, which GCS checks before committing the object.
// Compose and part writes are retried with exponential backoff (429/5xx and network errors).
import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { IdempotencyStrategy, Storage, type Bucket, type File } from '@google-cloud/storage';
import { assertSafeKey, assertSafeUploadId, BlobNotFoundError, type BlobListing, type BlobStore, type PartWrite, type UploadLayout } from './port.ts';

export interface GcsBlobStoreOptions {
  bucket: string;
  /** A custom JSON API endpoint (tests, emulators); requests then go unauthenticated. */
  apiEndpoint?: string;
  projectId?: string;
  /** Object name prefix inside the bucket, e.g. `siglata/`. */
  prefix?: string;
  /** An existing client (tests inject one). */
  storage?: Storage;
  /** Compose calls in flight at once (GCS rate-limits composes per project). */
  composeConcurrency?: number;
  retry?: { attempts?: number; baseDelayMs?: number; maxDelayMs?: number };
  /** Check full reads against the object's CRC32C (range reads cannot be checked). Default true. */
  validateReads?: boolean;
}

const COMPOSE_MAX = 32;
/** Bytes a streamed write holds and sends at a time (a multiple of 256 KiB, as resumable uploads require). */
const STREAM_CHUNK = 8 * 1024 * 1024;
const RETRYABLE_STATUS = new Set([408, 429, 500, 502, 503, 504]);
const RETRYABLE_CODES = new Set(['ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ECONNREFUSED', 'EAI_AGAIN', 'ENOTFOUND', 'UND_ERR_SOCKET']);

function statusOf(err: unknown): number | undefined {
  const code = (err as { code?: unknown })?.code;
  return typeof code === 'number' ? code : undefined;
}

function isRetryable(err: unknown): boolean {
  const status = statusOf(err);
  if (status !== undefined) return RETRYABLE_STATUS.has(status);
  const code = (err as { code?: unknown })?.code;
  return typeof code === 'string' && RETRYABLE_CODES.has(code);
}

function partName(n: number): string {
  return `p${String(n).padStart(5, '0')}`;
}

async function mapLimit<T, R>(items: readonly T[], limit: number, fn: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  async function worker(): Promise<void> {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i], i);
    }
  }
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}

export function gcsBlobStore(options: GcsBlobStoreOptions): BlobStore {
  // The client's own retries are off: every call below goes through retry(), one policy for all of them.
  const storage =
    options.storage ??
    new Storage({
      ...(options.projectId ? { projectId: options.projectId } : {}),
      ...(options.apiEndpoint ? { apiEndpoint: options.apiEndpoint } : {}),
      retryOptions: { autoRetry: false, idempotencyStrategy: IdempotencyStrategy.RetryNever },
    });
  const bucket: Bucket = storage.bucket(options.bucket);
  const root = options.prefix ?? '';
  const composeConcurrency = options.composeConcurrency ?? 4;
  const attempts = options.retry?.attempts ?? 6;
  const baseDelay = options.retry?.baseDelayMs ?? 200;
  const maxDelay = options.retry?.maxDelayMs ?? 10_000;
  const validateReads = options.validateReads ?? true;

  const uploadPrefix = (uploadId: string) => `${root}uploads/${uploadId}/`;
  const objectName = (key: string) => `${root}objects/${key}`;

  async function retry<T>(fn: () => Promise<T>): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await fn();
      } catch (err) {
        if (attempt >= attempts || !isRetryable(err)) throw err;
        const delay = Math.min(maxDelay, baseDelay * 2 ** (attempt - 1));
        await new Promise((r) => setTimeout(r, delay / 2 + (Math.random() * delay) / 2));
      }
    }
  }

  async function save(name: string, data: Buffer, contentType: string): Promise<void> {
    const md5Hash = createHash('md5').update(data).digest('base64');
    await retry(async () => {
      // A simple (multipart) upload: one request, atomic; GCS rejects it if the body does not match md5Hash.
      await bucket.file(name).save(data, { resumable: false, validation: 'md5', contentType, metadata: { contentType, md5Hash } });
    });
  }

  async function compose(sources: readonly string[], destination: string, contentType: string, ifGenerationMatch?: number): Promise<number> {
    const dest: File = bucket.file(destination);
    dest.metadata.contentType = contentType; // saves the client a mime lookup and sets the final object's type
    try {
      const [, response] = await retry(() => bucket.combine([...sources], dest, ifGenerationMatch === undefined ? {} : { ifGenerationMatch }));
      return Number((response as { size?: string }).size);
    } catch (err) {
      // A retried final compose whose first attempt succeeded answers 412: the object is there already.
      if (statusOf(err) === 412 && ifGenerationMatch === 0) {
        const [meta] = await dest.getMetadata();
        return Number(meta.size);
      }
      throw err;
    }
  }

  async function statKey(key: string): Promise<{ size: number } | null> {
    try {
      const [meta] = await retry(() => bucket.file(objectName(key)).getMetadata());
      return { size: Number(meta.size) };
    } catch (err) {
      if (statusOf(err) === 404) return null;
      throw err;
    }
  }

  /** A read stream whose response has begun, so that a missing object fails here, before any header goes out. */
  async function openRead(key: string, range?: { start: number; end: number }): Promise<Readable> {
    return openObject(objectName(key), key, range);
  }

  async function openObject(name: string, key: string, range?: { start: number; end: number }): Promise<Readable> {
    const stream = bucket
      .file(name)
      .createReadStream(range ? { start: range.start, end: range.end, validation: false } : { validation: validateReads ? 'crc32c' : false });
    // The consumer attaches its own handlers; this one keeps a late error from crashing the process meanwhile.
    stream.on('error', () => {});
    await new Promise<void>((resolve, reject) => {
      const onError = (err: unknown) => {
        stream.off('response', onResponse);
        reject(statusOf(err) === 404 ? new BlobNotFoundError(key) : err);
      };
      const onResponse = (res: { statusCode?: number }) => {
        if ((res.statusCode ?? 500) < 300) {
          stream.off('error', onError);
          resolve();
        }
      };
      stream.once('error', onError);
      stream.on('response', onResponse);
      stream.read(0);
    });
    return stream;
  }

  async function listAll(prefix: string): Promise<File[]> {
    const [files] = await retry(() => bucket.getFiles({ prefix, autoPaginate: true }));
    return files;
  }

  async function deletePrefix(prefix: string): Promise<void> {
    const files = await listAll(prefix);
    await mapLimit(files, 8, async (f) => {
      await retry(() => f.delete({ ignoreNotFound: true }));
    });
  }

  return {
    kind: 'gcs',

    async putPart(uploadId: string, part: PartWrite) {
      assertSafeUploadId(uploadId);
      await save(uploadPrefix(uploadId) + partName(part.number), part.data, 'application/octet-stream');
    },

    async finalize(uploadId: string, layout: UploadLayout, key: string, meta: { contentType: string }) {
      assertSafeUploadId(uploadId);
      assertSafeKey(key);
      const prefix = uploadPrefix(uploadId);
      // A retried finalize (e.g. recovering a completion whose process died) finds the object already composed.
      const existing = await statKey(key);
      if (existing && existing.size === layout.byteLength) {
        await deletePrefix(prefix).catch(() => {});
        return;
      }
      let sources = Array.from({ length: layout.partCount }, (_, i) => prefix + partName(i + 1));
      // Tree compose: groups of 32 into intermediates, level by level, until one compose can do the rest.
      for (let level = 1; sources.length > COMPOSE_MAX; level++) {
        const groups: string[][] = [];
        for (let i = 0; i < sources.length; i += COMPOSE_MAX) groups.push(sources.slice(i, i + COMPOSE_MAX));
        sources = await mapLimit(groups, composeConcurrency, async (group, i) => {
          const name = `${prefix}c${level}_${String(i).padStart(5, '0')}`;
          await compose(group, name, 'application/octet-stream');
          return name;
        });
      }
      const size = await compose(sources, objectName(key), meta.contentType, 0);
      if (size !== layout.byteLength) {
        await bucket.file(objectName(key)).delete({ ignoreNotFound: true });
        throw new Error(`composed ${size} bytes, expected ${layout.byteLength}`);
      }
      // The object is durable; staging cleanup failures are left to the orphan janitor.
      await deletePrefix(prefix).catch(() => {});
    },

    async write(key: string, data: Buffer, meta: { contentType: string }) {
      assertSafeKey(key);
      await save(objectName(key), data, meta.contentType);
    },

    async writeStream(key: string, source: AsyncIterable<Uint8Array>, meta: { contentType: string }) {
      assertSafeKey(key);
      // Up to STREAM_CHUNK is gathered first: a blob that ends within it is one simple upload (MD5-checked and
      // retried, as write() does). A longer one goes as a resumable upload, in chunks of STREAM_CHUNK (the only
      // buffer held), published only when the last one lands, the stored CRC32C checked against what was sent; a
      // consumed stream cannot be sent again, so a failure there fails the write (the caller starts over).
      const it = source[Symbol.asyncIterator]();
      const head: Buffer[] = [];
      let size = 0;
      while (size < STREAM_CHUNK) {
        const next = await it.next();
        if (next.done) {
          await save(objectName(key), Buffer.concat(head), meta.contentType);
          return;
        }
        head.push(Buffer.from(next.value));
        size += next.value.byteLength;
      }
      const rest = async function* () {
        yield Buffer.concat(head);
        for (let next = await it.next(); !next.done; next = await it.next()) yield next.value;
      };
      await pipeline(
        Readable.from(rest()),
        bucket.file(objectName(key)).createWriteStream({
          resumable: true,
          chunkSize: STREAM_CHUNK,
          validation: 'crc32c',
          contentType: meta.contentType,
          metadata: { contentType: meta.contentType },
        }),
      );
    },

    async readUpload(uploadId: string, layout: UploadLayout, range: { start: number; end: number }): Promise<Readable> {
      assertSafeUploadId(uploadId);
      if (range.start < 0 || range.end >= layout.byteLength || range.end < range.start) {
        throw new Error(`range ${range.start}-${range.end} outside an upload of ${layout.byteLength} bytes`);
      }
      const prefix = uploadPrefix(uploadId);
      const first = Math.floor(range.start / layout.partSize) + 1;
      const last = Math.floor(range.end / layout.partSize) + 1;
      // The first part is opened before answering, so that a missing upload fails here; later ones as they come.
      const open = (n: number) => {
        const offset = (n - 1) * layout.partSize;
        const start = Math.max(range.start, offset) - offset;
        const end = Math.min(range.end, offset + layout.partSize - 1) - offset;
        return retry(() => openObject(prefix + partName(n), `uploads/${uploadId}/${partName(n)}`, { start, end }));
      };
      const head = await open(first);
      const out = Readable.from(
        (async function* () {
          for (let n = first, stream: Readable | null = head; n <= last; n++, stream = null) {
            yield* stream ?? (await open(n));
          }
        })(),
      );
      out.once('close', () => head.destroy()); // a reader that gives up before the first read leaves no response open
      return out;
    },

    async read(key: string, range?: { start: number; end: number }): Promise<Readable> {
      assertSafeKey(key);
      return retry(() => openRead(key, range));
    },

    async stat(key: string) {
      assertSafeKey(key);
      return statKey(key);
    },

    async delete(key: string) {
      assertSafeKey(key);
      await retry(() => bucket.file(objectName(key)).delete({ ignoreNotFound: true }));
    },

    async deleteUpload(uploadId: string) {
      assertSafeUploadId(uploadId);
      await deletePrefix(uploadPrefix(uploadId));
    },

    async listUploads() {
      const files = await listAll(`${root}uploads/`);
      const ids = new Set<string>();
      for (const f of files) ids.add(f.name.slice(`${root}uploads/`.length).split('/')[0]);
      return [...ids].sort();
    },

    async listKeys(prefix: string) {
      const base = `${root}objects/`;
      const files = await listAll(base + prefix);
      const out: BlobListing[] = files.map((f) => ({
        key: f.name.slice(base.length),
        updatedAt: new Date(String(f.metadata.updated ?? f.metadata.timeCreated)),
      }));
      return out.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
    },
  };
}
