// PUT /v1/mcp/uploads/:uploadId/parts/:partNumber: one part of a reserved upload. The part is read into one pooled
// 8 MiB buffer (the pool bounding memory), checksummed on a worker thread and verified, then stored durably before
// the 200.
import type Koa from 'koa';
import * as v from 'valibot';
import { partChecksummer } from '../../http/part-checksums.ts';
import { defineRoute, type RouteDef } from '../../http/route.ts';
import type { AppDeps } from '../../deps.ts';
import { ServiceError, type Localized, MAX_PARTS, PART_SIZE, partTarget, storePart, UploadId } from '../../../runtime-api/index.ts';
import { parseParams, transferAccess } from './access.ts';
import { bufferPool } from './buffer-pool.ts';
import { readBody } from './part-body.ts';
import { hashesToCompute, parseDigests, verifiedSums } from './part-digests.ts';
import { PART_RECEIVED, octetStreamRequired, partSizeMismatch } from './messages.ts';

const PartParams = v.object({
  uploadId: UploadId,
  partNumber: v.pipe(
    v.number(),
    v.integer(),
    v.minValue(1),
    v.maxValue(MAX_PARTS),
    v.description("Part number, 1 to 10,000, within the reservation's part count."),
  ),
});
const PartStored = v.object({
  uploadId: v.pipe(v.string(), v.description('The reservation.')),
  partNumber: v.pipe(v.number(), v.description('The part stored.')),
  size: v.pipe(v.number(), v.description('Bytes stored.')),
  crc32: v.pipe(v.string(), v.description('Hex CRC-32 of the part as stored (also sent as the ETag).')),
  sha256: v.pipe(
    v.nullable(v.string()),
    v.description('Hex SHA-256 of the part when computed: for a single-part upload, or when the request carried Content-Digest: sha-256; else null.'),
  ),
});

function parsePartParams(ctx: Koa.Context): v.InferOutput<typeof PartParams> {
  const raw = ctx.params as Record<string, string>;
  return parseParams(PartParams, {
    uploadId: raw.uploadId,
    partNumber: /^\d{1,6}$/.test(raw.partNumber) ? Number(raw.partNumber) : raw.partNumber,
  });
}

function requireOctetStream(ctx: Koa.Context): void {
  const type = (ctx.get('content-type') || '').split(';')[0].trim().toLowerCase();
  if (type !== 'application/octet-stream') {
    ctx.set('Connection', 'close');
    throw octetStreamRequired();
  }
}

function partMismatch(partNumber: number, expected: number, got: Localized, ctx: Koa.Context, bodyUnread: boolean): ServiceError {
  // An unread body would otherwise be drained first; closing is cheaper and ends an oversized send early.
  if (bodyUnread) ctx.set('Connection', 'close');
  return partSizeMismatch(partNumber, expected, got);
}

/** A Content-Length that cannot be the part's is refused before a byte of the body is read. */
function checkDeclaredLength(ctx: Koa.Context, partNumber: number, expectedBytes: number): void {
  const declared = ctx.get('content-length');
  if (declared !== '' && Number(declared) !== expectedBytes) {
    throw partMismatch(partNumber, expectedBytes, PART_RECEIVED.declared(declared), ctx, true);
  }
}

/** The part's bytes, read into `buf`: exactly `expectedBytes` of them, else part_mismatch. */
async function receivePart(ctx: Koa.Context, buf: Buffer, partNumber: number, expectedBytes: number): Promise<Buffer> {
  const got = await readBody(ctx.req, buf, expectedBytes);
  if (got.overflow || got.length !== expectedBytes) {
    throw partMismatch(partNumber, expectedBytes, got.overflow ? PART_RECEIVED.overflow : PART_RECEIVED.short(got.length), ctx, got.overflow);
  }
  return buf.subarray(0, got.length);
}

function answerPartStored(ctx: Koa.Context, stored: v.InferOutput<typeof PartStored>): void {
  ctx.status = 200;
  ctx.set('ETag', `"${stored.crc32}"`);
  ctx.body = stored;
}

export function uploadPartRoute(deps: AppDeps): RouteDef {
  // Parts in memory at once. Each stored part also holds a database connection while it is written, so stay
  // below the pool size (leaving room for the rest of the traffic).
  const blobs = deps.blobs;
  const pool = bufferPool(Math.max(2, Math.min(8, deps.config.databasePoolMax - 2)), blobs.partBuffer ? () => blobs.partBuffer!(PART_SIZE) : undefined);
  const checksums = partChecksummer();

  return defineRoute({
    method: 'PUT',
    path: '/v1/mcp/uploads/:uploadId/parts/:partNumber',
    operationId: 'putUploadPart',
    summary: 'Upload one part of a reserved upload (exactly 8,388,608 bytes; the final part carries the remainder)',
    description:
      "A Bearer token, or the console's session cookie from an allowed Origin. Reserve the upload with the `upload_begin` management function first. Parts may arrive in any order and in parallel and may be re-sent (replacing the earlier copy) until completion. " +
      'An optional `Content-MD5` or `Content-Digest: sha-256=:…:` is verified. The 200 comes only once the part is durable; a wrong size answers 400 part_mismatch and stores nothing. ' +
      "A slow body is fine; a body that stops arriving for the server's idle limit (30 s by default) answers 408 request_timeout, closes the connection and stores nothing.",
    tags: ['transfers'],
    // The console's upload script sends parts with the browser's session cookie (same origin; a PUT never leaves a
    // page for another site without a CORS preflight, which is never granted).
    auth: 'bearer-or-session',
    origin: 'always',
    params: PartParams,
    body: { contentType: 'application/octet-stream', jsonSchema: { type: 'string', format: 'binary' } },
    responses: {
      200: { description: 'The part is verified and stored durably.', schema: PartStored, headers: { ETag: 'Quoted hex CRC-32 of the part.' } },
    },
    errors: [
      'invalid_input',
      'invalid_request',
      'part_mismatch',
      'unauthorized',
      'INSUFFICIENT_SCOPE',
      'MCP_ACCESS_REVOKED',
      'ORIGIN_NOT_ALLOWED',
      'ORGANIZATION_MEMBERSHIP_REQUIRED',
      'not_found',
      'conflict',
      'upload_expired',
      'unsupported_media_type',
      'request_timeout',
      'rate_limited',
      'storage_failure',
      'database_failure',
    ],
    async handle(ctx) {
      const caller = transferAccess(ctx, 'upload_part', 'files:write');
      const { uploadId, partNumber } = parsePartParams(ctx);
      requireOctetStream(ctx);
      const orgId = caller.membership!.orgId;
      const { upload, expectedBytes } = await partTarget(deps, orgId, uploadId, partNumber);
      checkDeclaredLength(ctx, partNumber, expectedBytes);
      const digests = parseDigests(ctx.get('content-md5'), ctx.get('content-digest'));
      const hashes = hashesToCompute(digests, upload.partCount);
      const buf = await pool.acquire();
      try {
        const part = await receivePart(ctx, buf, partNumber, expectedBytes);
        // Checksummed (and verified) on the checksum thread while storePart opens its transaction: it waits for
        // them before recording or writing anything, and a digest mismatch rolls it back with nothing stored.
        const verified = checksums.compute(part, hashes).then((sums) => verifiedSums(sums, digests, partNumber));
        await storePart(deps, orgId, uploadId, partNumber, part, verified);
        answerPartStored(ctx, { uploadId, partNumber, size: part.length, ...(await verified) });
      } finally {
        pool.release(buf);
      }
    },
  });
}
