// Binary transfers (spec 4.5): PUT an upload part, GET a file's bytes. Both need a Bearer token of an active member
// whose organization's MCP access is not revoked. Parts are read into one pooled 8 MiB buffer (the pool bounding
// memory), checksummed on a worker thread (part-checksums.ts) and verified, then stored durably before the 200.
// Downloads stream from the blob store with backpressure; Koa's pipeline destroys the source (closing its file
// handle) when the client goes away.
import type Koa from 'koa';
import * as v from 'valibot';
import { copyInto, partChecksummer, sharedPartBuffer, type HashName } from '../http/part-checksums.ts';
import rangeParser from 'range-parser';
import { create as contentDisposition } from 'content-disposition';
import { defineRoute, type RouteDef } from '../http/route.ts';
import type { AppDeps } from '../deps.ts';
import { type Caller, type Binding, type Scope, authorize, describeIssues, ServiceError, l10n, type Localized, hexCrc, BlobNotFoundError, findFile, MAX_PARTS, PART_SIZE, partTarget, storageFailure, storePart, notFound, FileId, UploadId } from '../../runtime-api/index.ts';

const BODY_INCOMPLETE = l10n('The request body was not received completely.', 'O corpo da requisição não foi recebido por completo.');

const PartParams = v.object({
  uploadId: UploadId,
  partNumber: v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(MAX_PARTS), v.description('Part number, 1 to 10,000, within the reservation\'s part count.')),
});
const DownloadParams = v.object({ fileId: FileId });
const PartStored = v.object({
  uploadId: v.pipe(v.string(), v.description('The reservation.')),
  partNumber: v.pipe(v.number(), v.description('The part stored.')),
  byteLength: v.pipe(v.number(), v.description('Bytes stored.')),
  crc32: v.pipe(v.string(), v.description('Hex CRC-32 of the part as stored (also sent as the ETag).')),
  sha256: v.pipe(v.nullable(v.string()), v.description('Hex SHA-256 of the part when computed: for a single-part upload, or when the request carried Content-Digest: sha-256; else null.')),
});

/** Transfer routes authorize like the binding they stand for (same scope and membership rules and errors). */
function transferAccess(ctx: Koa.Context, name: string, scope: Scope): Caller {
  const caller = ctx.state.caller as Caller;
  if (ctx.state.token?.mcp?.state === 'revoked') {
    throw new ServiceError('MCP_ACCESS_REVOKED', {
      resolution: l10n('An owner or admin of the organization must restore its MCP access before files can be transferred.',
        'Um proprietário ou administrador da organização precisa restaurar o acesso MCP antes que arquivos possam ser transferidos.'),
    });
  }
  authorize({ name, scope, needsOrganization: true, sessionOnly: false } as Binding, caller);
  return caller;
}

function params<S extends v.GenericSchema>(schema: S, value: unknown): v.InferOutput<S> {
  const parsed = v.safeParse(schema, value);
  if (!parsed.success) throw new ServiceError('invalid_input', { resolution: describeIssues(parsed.issues) });
  return parsed.output;
}

/** A fixed set of reusable 8 MiB buffers: at most `size` parts are in memory at once; later ones wait their turn. */
export function bufferPool(size: number, allocate: () => Promise<Buffer> = async () => sharedPartBuffer(PART_SIZE)) {
  const free: Buffer[] = [];
  const waiting: ((b: Buffer) => void)[] = [];
  let created = 0;
  return {
    async acquire(): Promise<Buffer> {
      const b = free.pop();
      if (b) return b;
      if (created < size) {
        created++;
        try { return await allocate(); } catch (err) { created--; throw err; }
      }
      return new Promise((resolve) => waiting.push(resolve));
    },
    release(b: Buffer): void {
      const next = waiting.shift();
      if (next) next(b);
      else free.push(b);
    },
  };
}

interface Digests {
  md5?: Buffer;
  sha256?: Buffer;
  sha512?: Buffer;
}

function badDigest(header: string): ServiceError {
  return new ServiceError('invalid_request', {
    resolution: l10n(`The ${header} header is malformed: send Content-MD5: <base64 MD5> or Content-Digest: sha-256=:<base64>: (RFC 9530).`,
      `O cabeçalho ${header} está malformado: envie Content-MD5: <base64 MD5> ou Content-Digest: sha-256=:<base64>: (RFC 9530).`),
  });
}

/** Content-MD5 (base64) and RFC 9530 Content-Digest (sha-256 and sha-512; other algorithms are ignored). */
export function parseDigests(md5Header: string, digestHeader: string): Digests {
  const out: Digests = {};
  if (md5Header) {
    const md5 = Buffer.from(md5Header.trim(), 'base64');
    if (md5.length !== 16) throw badDigest('Content-MD5');
    out.md5 = md5;
  }
  if (digestHeader) {
    for (const member of digestHeader.split(',')) {
      const m = /^\s*([a-z0-9-]+)\s*=\s*:([A-Za-z0-9+/]*={0,2}):\s*(;.*)?$/i.exec(member);
      if (!m) throw badDigest('Content-Digest');
      const alg = m[1].toLowerCase();
      const value = Buffer.from(m[2], 'base64');
      if (alg === 'sha-256') { if (value.length !== 32) throw badDigest('Content-Digest'); out.sha256 = value; }
      if (alg === 'sha-512') { if (value.length !== 64) throw badDigest('Content-Digest'); out.sha512 = value; }
    }
  }
  return out;
}

/**
 * The download's counterpart of release(): the fs store reads a file in 1 MiB chunks, each a fresh ArrayBuffer
 * that only the socket needs, and only until it has written it. Freed once written, they no longer pile up as
 * external memory (about 100 MB of RSS per GiB downloaded before a GC reclaimed them).
 */
function releaseWhenSent(res: Koa.Context['res']): void {
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

export interface ReadResult { length: number; overflow: boolean }

/**
 * Free a body chunk's memory now rather than at the next major GC. Node's HTTP parser copies each body chunk
 * (up to 64 KiB) into a fresh ArrayBuffer of its own; their external memory is what drives most garbage
 * collections of an upload (each a mark of the whole heap). Once the chunk has been copied and hashed nothing
 * reads it again (this reader is its only listener), so its ArrayBuffer is detached, which frees the memory and
 * takes it off V8's external-memory count at once. Chunks that share their ArrayBuffer are left alone.
 */
function release(chunk: Buffer): void {
  const ab = chunk.buffer;
  if (!(ab instanceof ArrayBuffer) || chunk.byteOffset !== 0 || ab.byteLength !== chunk.length) return;
  try { ab.transfer(0); } catch { /* not detachable: the GC frees it */ }
}

/**
 * Read the request body into `buf` (at most `expected` bytes); its checksums are computed once it is all here, on
 * the checksum thread. Stops reading at the first byte past `expected` (the connection is then closed after the 400).
 * Exported for bench/part-body.ts, which weighs it against buffering through koa-body.
 */
export function readBody(req: Koa.Context['req'], buf: Buffer, expected: number): Promise<ReadResult> {
  return new Promise((resolve, reject) => {
    if (req.destroyed) { reject(new ServiceError('invalid_request', { resolution: BODY_INCOMPLETE })); return; }
    let length = 0;
    const cleanup = () => {
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onError);
      req.off('close', onClose);
    };
    const onData = (chunk: Buffer) => {
      if (length + chunk.length > expected) {
        cleanup();
        req.pause();
        resolve({ length: length + chunk.length, overflow: true });
        return;
      }
      copyInto(buf, chunk, length);
      length += chunk.length;
      if (sole) release(chunk);
    };
    const onEnd = () => { cleanup(); resolve({ length, overflow: false }); };
    const onError = (err: Error) => { cleanup(); reject(new ServiceError('invalid_request', { resolution: BODY_INCOMPLETE, cause: err })); };
    const onClose = () => { if (!req.complete) onError(new Error('client closed the request')); };
    req.on('data', onData);
    const sole = req.listenerCount('data') === 1;
    req.on('end', onEnd);
    req.on('error', onError);
    req.on('close', onClose);
  });
}

function partMismatch(partNumber: number, expected: number, got: Localized, ctx: Koa.Context, bodyUnread: boolean): ServiceError {
  // An unread body would otherwise be drained first; closing is cheaper and ends an oversized send early.
  if (bodyUnread) ctx.set('Connection', 'close');
  return new ServiceError('part_mismatch', {
    resolution: l10n(
      `Part ${partNumber} must be exactly ${expected} bytes (${expected === PART_SIZE ? 'every part but the last is 8,388,608 bytes' : 'the final part carries the remainder'}); ${got['en-US']}. Nothing was stored.`,
      `A parte ${partNumber} precisa ter exatamente ${expected} bytes (${expected === PART_SIZE ? 'toda parte, exceto a última, tem 8.388.608 bytes' : 'a parte final leva o restante'}); ${got['pt-BR']}. Nada foi gravado.`),
    details: { partNumber, expectedBytes: expected },
  });
}

/** An ASCII stand-in for the RFC 6266 `filename` parameter (the exact name goes in `filename*`). */
function asciiFallback(name: string): string {
  const folded = name.normalize('NFKD').replace(/[\u0300-\u036f]/g, '').replace(/[^\x20-\x7e]/g, '_').replace(/["\\%]/g, '_');
  return folded || 'download';
}

export function attachmentHeader(name: string): string {
  const base = name.slice(name.lastIndexOf('/') + 1);
  const fallback = asciiFallback(base);
  return contentDisposition(base, { fallback: fallback === base ? true : fallback });
}

export function transferRoutes(deps: AppDeps): RouteDef[] {
  // Parts in memory at once. Each stored part also holds a database connection while it is written, so stay
  // below the pool size (leaving room for the rest of the traffic).
  const blobs = deps.blobs;
  const pool = bufferPool(Math.max(2, Math.min(8, deps.config.databasePoolMax - 2)),
    blobs.partBuffer ? () => blobs.partBuffer!(PART_SIZE) : undefined);
  const checksums = partChecksummer();

  return [
    defineRoute({
      method: 'PUT',
      path: '/v1/mcp/uploads/:uploadId/parts/:partNumber',
      operationId: 'putUploadPart',
      summary: 'Upload one part of a reserved upload (exactly 8,388,608 bytes; the final part carries the remainder)',
      description: 'Reserve the upload with the `upload_begin` management function first. Parts may arrive in any order and in parallel and may be re-sent (replacing the earlier copy) until completion. '
        + 'An optional `Content-MD5` or `Content-Digest: sha-256=:…:` is verified. The 200 comes only once the part is durable; a wrong size answers 400 part_mismatch and stores nothing. '
        + 'A slow body is fine; a body that stops arriving for the server\'s idle limit (30 s by default) answers 408 request_timeout, closes the connection and stores nothing.',
      tags: ['transfers'],
      auth: 'bearer',
      origin: 'always',
      params: PartParams,
      body: { contentType: 'application/octet-stream', jsonSchema: { type: 'string', format: 'binary' } },
      responses: {
        200: { description: 'The part is verified and stored durably.', schema: PartStored, headers: { ETag: 'Quoted hex CRC-32 of the part.' } },
      },
      errors: ['invalid_input', 'invalid_request', 'part_mismatch', 'unauthorized', 'INSUFFICIENT_SCOPE', 'MCP_ACCESS_REVOKED', 'ORIGIN_NOT_ALLOWED',
        'ORGANIZATION_MEMBERSHIP_REQUIRED', 'not_found', 'conflict', 'upload_expired', 'unsupported_media_type', 'request_timeout', 'rate_limited', 'storage_failure', 'database_failure'],
      async handle(ctx) {
        const caller = transferAccess(ctx, 'upload_part', 'files:write');
        const raw = ctx.params as Record<string, string>;
        const { uploadId, partNumber } = params(PartParams, {
          uploadId: raw.uploadId,
          partNumber: /^\d{1,6}$/.test(raw.partNumber) ? Number(raw.partNumber) : raw.partNumber,
        });
        const type = (ctx.get('content-type') || '').split(';')[0].trim().toLowerCase();
        if (type !== 'application/octet-stream') {
          ctx.set('Connection', 'close');
          throw new ServiceError('unsupported_media_type', { resolution: l10n('Send the part as Content-Type: application/octet-stream.', 'Envie a parte com Content-Type: application/octet-stream.') });
        }
        const orgId = caller.membership!.orgId;
        const target = await partTarget(deps, orgId, uploadId, partNumber);
        const { expectedBytes } = target;
        const declared = ctx.get('content-length');
        if (declared !== '' && Number(declared) !== expectedBytes) {
          throw partMismatch(partNumber, expectedBytes, l10n(`this request declares ${declared}`, `esta requisição declara ${declared}`), ctx, true);
        }
        const digests = parseDigests(ctx.get('content-md5'), ctx.get('content-digest'));
        // CRC-32 always (zlib's, ~4x cheaper than SHA-256); cryptographic hashes only when they are needed.
        const { upload } = target;
        const hashes: HashName[] = [];
        if (digests.sha256 || upload.partCount === 1) hashes.push('sha256');
        if (digests.md5) hashes.push('md5');
        if (digests.sha512) hashes.push('sha512');
        const buf = await pool.acquire();
        try {
          const got = await readBody(ctx.req, buf, expectedBytes);
          if (got.overflow || got.length !== expectedBytes) {
            throw partMismatch(partNumber, expectedBytes, got.overflow ? l10n('more bytes arrived', 'chegaram mais bytes') : l10n(`${got.length} arrived`, `chegaram ${got.length}`), ctx, got.overflow);
          }
          // Checksummed (and verified) on the checksum thread while storePart opens its transaction: it waits for
          // them before recording or writing anything, and a digest mismatch rolls it back with nothing stored.
          const verified = checksums.compute(buf.subarray(0, got.length), hashes).then((sumsOf) => {
            const sha256Digest = sumsOf.hashes.sha256 ?? null;
            const mismatch = (digests.md5 && !sumsOf.hashes.md5!.equals(digests.md5) && 'Content-MD5')
              || (digests.sha256 && !sha256Digest!.equals(digests.sha256) && 'Content-Digest sha-256')
              || (digests.sha512 && !sumsOf.hashes.sha512!.equals(digests.sha512) && 'Content-Digest sha-512');
            if (mismatch) {
              throw new ServiceError('part_mismatch', {
                resolution: l10n(`The ${mismatch} does not match the bytes received for part ${partNumber}; nothing was stored. Send the part again.`,
                  `O ${mismatch} não corresponde aos bytes recebidos na parte ${partNumber}; nada foi gravado. Envie a parte de novo.`),
                details: { partNumber, digest: mismatch },
              });
            }
            return { crc32: hexCrc(sumsOf.crc32), sha256: sha256Digest ? sha256Digest.toString('hex') : null };
          });
          await storePart(deps, orgId, uploadId, partNumber, buf.subarray(0, got.length), verified);
          const sums = await verified;
          ctx.status = 200;
          ctx.set('ETag', `"${sums.crc32}"`);
          ctx.body = { uploadId, partNumber, byteLength: got.length, ...sums } satisfies v.InferOutput<typeof PartStored>;
        } finally {
          pool.release(buf);
        }
      },
    }),

    defineRoute({
      method: 'GET',
      path: '/v1/mcp/files/:fileId/download',
      operationId: 'downloadFile',
      summary: 'Download a file\'s bytes (streamed; Range supported)',
      description: 'Content-Type is the file\'s stored media type; Content-Disposition is `attachment` with an RFC 6266 `filename*`. '
        + 'Supports `Range: bytes=…` (206, or 416 when unsatisfiable; several ranges are answered with the whole file), `If-Range`, and `If-None-Match` (304).',
      tags: ['transfers'],
      auth: 'bearer',
      origin: 'always',
      params: DownloadParams,
      responses: {
        200: {
          description: 'The whole file, with the Content-Type it was uploaded with.',
          contentType: '*/*',
          jsonSchema: { type: 'string', format: 'binary' },
          headers: { 'Content-Disposition': 'attachment; filename="…"; filename*=UTF-8\'\'…', ETag: 'Strong validator of the content.', 'Accept-Ranges': 'bytes' },
        },
        206: { description: 'The requested byte range, with the file\'s Content-Type.', contentType: '*/*', jsonSchema: { type: 'string', format: 'binary' }, headers: { 'Content-Range': 'bytes start-end/size' } },
        304: { description: 'Not modified (If-None-Match matched the ETag).' },
        416: { description: 'The range cannot be satisfied.', headers: { 'Content-Range': 'bytes */size' } },
      },
      errors: ['invalid_input', 'unauthorized', 'INSUFFICIENT_SCOPE', 'MCP_ACCESS_REVOKED', 'ORIGIN_NOT_ALLOWED', 'ORGANIZATION_MEMBERSHIP_REQUIRED', 'not_found', 'rate_limited', 'storage_failure', 'database_failure'],
      async handle(ctx) {
        const caller = transferAccess(ctx, 'files_download', 'files:read');
        const { fileId } = params(DownloadParams, ctx.params);
        // The membership behind the caller was re-read from the database for this request (token-caller.ts).
        const file = await findFile(deps.sql, caller.membership!.orgId, fileId);
        if (!file) throw notFound(fileId);
        const size = file.byteLength;
        const etag = `"${file.blobKey.slice(file.blobKey.lastIndexOf('/') + 1)}"`;
        ctx.set('ETag', etag);
        ctx.set('Accept-Ranges', 'bytes');
        ctx.set('Last-Modified', file.updatedAt.toUTCString());
        ctx.set('Cache-Control', 'private, no-cache');
        const inm = ctx.get('if-none-match');
        if (inm && inm.split(',').some((t) => t.trim().replace(/^W\//, '') === etag || t.trim() === '*')) {
          ctx.status = 304;
          return;
        }
        let range: { start: number; end: number } | undefined;
        const rangeHeader = ctx.get('range');
        const ifRange = ctx.get('if-range');
        if (rangeHeader && (!ifRange || ifRange === etag)) {
          const parsed = rangeParser(size, rangeHeader, { combine: true });
          if (parsed === -1) {
            ctx.status = 416;
            ctx.set('Content-Range', `bytes */${size}`);
            ctx.body = '';
            return;
          }
          if (parsed !== -2 && parsed.type === 'bytes' && parsed.length === 1) range = { start: parsed[0].start, end: parsed[0].end };
        }
        let stream;
        try {
          stream = await deps.blobs.read(file.blobKey, range);
        } catch (err) {
          throw err instanceof BlobNotFoundError ? new ServiceError('storage_failure', { cause: err }) : storageFailure(err);
        }
        ctx.status = range ? 206 : 200;
        if (range) ctx.set('Content-Range', `bytes ${range.start}-${range.end}/${size}`);
        ctx.set('Content-Type', file.mediaType); // verbatim: ctx.type would rewrite it (adding a charset)
        ctx.set('Content-Disposition', attachmentHeader(file.name));
        ctx.set('X-Content-Type-Options', 'nosniff');
        ctx.set('Content-Security-Policy', "default-src 'none'; sandbox");
        ctx.length = range ? range.end - range.start + 1 : size;
        if (deps.blobs.kind === 'fs') releaseWhenSent(ctx.res);
        ctx.body = stream;
      },
    }),
  ];
}
