// GET /v1/mcp/files/:fileId/download: a file's bytes, streamed from the blob store with backpressure (Koa's pipeline
// destroys the source, closing its file handle, when the client goes away), with validators and one byte range.
import type Koa from 'koa';
import type { Readable } from 'node:stream';
import * as v from 'valibot';
import rangeParser from 'range-parser';
import { defineRoute, type RouteDef } from '../../http/route.ts';
import type { AppDeps } from '../../deps.ts';
import { FileId, fileToDownload, readFileBytes, type FileRow } from '../../../runtime-api/index.ts';
import { parseParams, transferAccess } from './access.ts';
import { setAttachment } from './attachment.ts';
import { releaseWhenSent } from './chunk-memory.ts';

const DownloadParams = v.object({ fileId: FileId });

type ByteRange = { start: number; end: number };

/** Sets the validators every answer carries and returns the ETag (the content's blob key names its bytes). */
function setValidators(ctx: Koa.Context, file: FileRow): string {
  const etag = `"${file.blobKey.slice(file.blobKey.lastIndexOf('/') + 1)}"`;
  ctx.set('ETag', etag);
  ctx.set('Accept-Ranges', 'bytes');
  ctx.set('Last-Modified', file.modifiedAt.toUTCString()); // the content's time, as its writer gave it
  ctx.set('Cache-Control', 'private, no-cache');
  return etag;
}

function notModified(ctx: Koa.Context, etag: string): boolean {
  const inm = ctx.get('if-none-match');
  return Boolean(inm && inm.split(',').some((t) => t.trim().replace(/^W\//, '') === etag || t.trim() === '*'));
}

/**
 * The one range to send, undefined for the whole file (no Range, an If-Range that no longer matches, or several
 * ranges), or 'unsatisfiable'.
 */
function requestedRange(ctx: Koa.Context, size: number, etag: string): ByteRange | undefined | 'unsatisfiable' {
  const rangeHeader = ctx.get('range');
  const ifRange = ctx.get('if-range');
  if (!rangeHeader || (ifRange && ifRange !== etag)) return undefined;
  const parsed = rangeParser(size, rangeHeader, { combine: true });
  if (parsed === -1) return 'unsatisfiable';
  if (parsed !== -2 && parsed.type === 'bytes' && parsed.length === 1) return { start: parsed[0].start, end: parsed[0].end };
  return undefined;
}

function answerUnsatisfiable(ctx: Koa.Context, size: number): void {
  ctx.status = 416;
  ctx.set('Content-Range', `bytes */${size}`);
  ctx.body = '';
}

function sendFile(ctx: Koa.Context, deps: AppDeps, file: FileRow, stream: Readable, range: ByteRange | undefined): void {
  ctx.status = range ? 206 : 200;
  if (range) ctx.set('Content-Range', `bytes ${range.start}-${range.end}/${file.byteLength}`);
  ctx.set('Content-Type', file.mediaType); // verbatim: ctx.type would rewrite it (adding a charset)
  setAttachment(ctx, file.name);
  ctx.length = range ? range.end - range.start + 1 : file.byteLength;
  if (deps.blobs.kind === 'fs') releaseWhenSent(ctx.res);
  ctx.body = stream;
}

export function downloadRoute(deps: AppDeps): RouteDef {
  return defineRoute({
    method: 'GET',
    path: '/v1/mcp/files/:fileId/download',
    operationId: 'downloadFile',
    summary: "Download a file's bytes (streamed; Range supported)",
    description:
      "A Bearer token, or the console's session cookie. Content-Type is the file's stored media type; Content-Disposition is `attachment` with an RFC 6266 `filename*`. " +
      'Supports `Range: bytes=…` (206, or 416 when unsatisfiable; several ranges are answered with the whole file), `If-Range`, and `If-None-Match` (304).',
    tags: ['transfers'],
    // The console links here for downloads and image previews, with the browser's session cookie.
    auth: 'bearer-or-session',
    origin: 'always',
    params: DownloadParams,
    responses: {
      200: {
        description: 'The whole file, with the Content-Type it was uploaded with.',
        contentType: '*/*',
        jsonSchema: { type: 'string', format: 'binary' },
        headers: {
          'Content-Disposition': 'attachment; filename="…"; filename*=UTF-8\'\'…',
          ETag: 'Strong validator of the content.',
          'Accept-Ranges': 'bytes',
        },
      },
      206: {
        description: "The requested byte range, with the file's Content-Type.",
        contentType: '*/*',
        jsonSchema: { type: 'string', format: 'binary' },
        headers: { 'Content-Range': 'bytes start-end/size' },
      },
      304: { description: 'Not modified (If-None-Match matched the ETag).' },
      416: { description: 'The range cannot be satisfied.', headers: { 'Content-Range': 'bytes */size' } },
    },
    errors: [
      'invalid_input',
      'unauthorized',
      'INSUFFICIENT_SCOPE',
      'MCP_ACCESS_REVOKED',
      'ORIGIN_NOT_ALLOWED',
      'ORGANIZATION_MEMBERSHIP_REQUIRED',
      'not_found',
      'rate_limited',
      'storage_failure',
      'database_failure',
    ],
    async handle(ctx) {
      const caller = transferAccess(ctx, 'files_download', 'files:read');
      const { fileId } = parseParams(DownloadParams, ctx.params);
      // The membership behind the caller was re-read from the database for this request (token-caller.ts).
      const file = await fileToDownload(deps.sql, caller.membership!.orgId, fileId);
      const etag = setValidators(ctx, file);
      if (notModified(ctx, etag)) {
        ctx.status = 304;
        return;
      }
      const range = requestedRange(ctx, file.byteLength, etag);
      if (range === 'unsatisfiable') return answerUnsatisfiable(ctx, file.byteLength);
      const stream = await readFileBytes(deps.blobs, file, range);
      sendFile(ctx, deps, file, stream, range);
    },
  });
}
