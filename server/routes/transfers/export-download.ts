// GET /v1/mcp/files/exports/:exportId/download: an export's archive, streamed as it is made (no Content-Length:
// chunked). The same checks as a file's download: a Bearer token of an active member with files:read whose
// organization's MCP access is not revoked; an export of another organization is not found.
import * as v from 'valibot';
import { defineRoute, type RouteDef } from '../../http/route.ts';
import type { AppDeps } from '../../deps.ts';
import { ExportId, archiveStream, exportToDownload } from '../../../runtime-api/index.ts';
import { parseParams, transferAccess } from './access.ts';
import { setAttachment } from './attachment.ts';

const ExportParams = v.object({ exportId: ExportId });

const CONTENT_TYPES = { tar: 'application/x-tar', zip: 'application/zip' } as const;

export function exportDownloadRoute(deps: AppDeps): RouteDef {
  return defineRoute({
    method: 'GET',
    path: '/v1/mcp/files/exports/:exportId/download',
    operationId: 'downloadExport',
    summary: 'Download an export (files_export) as one tar or zip archive, streamed',
    description:
      'The files the export selected, one after another, under their paths relative to its prefix. Content-Type `application/x-tar` or `application/zip`; ' +
      'Content-Disposition `attachment`; no Content-Length (the archive is made as it is sent). Works until the export expires; afterwards 404 not_found.',
    tags: ['transfers'],
    auth: 'bearer',
    origin: 'always',
    params: ExportParams,
    responses: {
      200: {
        description: 'The archive.',
        contentType: '*/*',
        jsonSchema: { type: 'string', format: 'binary' },
        headers: { 'Content-Disposition': 'attachment; filename="…"' },
      },
    },
    errors: [
      'invalid_input',
      'unauthorized',
      'INSUFFICIENT_SCOPE',
      'MCP_ACCESS_REVOKED',
      'ORIGIN_NOT_ALLOWED',
      'ORGANIZATION_MEMBERSHIP_REQUIRED',
      'not_found',
      'conflict',
      'rate_limited',
      'storage_failure',
      'database_failure',
    ],
    async handle(ctx) {
      const caller = transferAccess(ctx, 'files_download', 'files:read');
      const { exportId } = parseParams(ExportParams, ctx.params);
      const { row, items } = await exportToDownload(deps.sql, caller.membership!.orgId, exportId, deps.clock.now());
      ctx.status = 200;
      ctx.set('Content-Type', CONTENT_TYPES[row.format]);
      setAttachment(ctx, row.name);
      ctx.set('Cache-Control', 'private, no-store');
      ctx.body = archiveStream(deps.blobs, row.format, items);
    },
  });
}
