// /app/v1/files/import and /app/v1/files/export: the REST faces of files_import and files_export (same bodies,
// same results). Over REST an import of a large archive has no script time limit to fit in.
import { defineRoute, type RouteDef } from '../http/route.ts';
import { readJson } from '../http/body.ts';
import { findBinding, invoke, type ErrorCode } from '../../runtime-api/index.ts';
import { invokeDeps, type AppDeps } from '../deps.ts';
import { callerOf } from '../http/request-state.ts';

const BODY_ERRORS: ErrorCode[] = [
  'unauthorized',
  'SESSION_EXPIRED',
  'invalid_input',
  'invalid_request',
  'unsupported_media_type',
  'INSUFFICIENT_SCOPE',
  'ORGANIZATION_MEMBERSHIP_REQUIRED',
  'ORIGIN_NOT_ALLOWED',
];

export function archiveRoutes(deps: AppDeps): RouteDef[] {
  const filesImport = findBinding('files_import')!;
  const filesExport = findBinding('files_export')!;
  return [
    defineRoute({
      method: 'POST',
      path: '/app/v1/files/import',
      operationId: 'appImportFiles',
      tags: ['app'],
      auth: 'bearer-or-session',
      binding: filesImport,
      summary: 'Import an uploaded tar or zip archive as many files (the `files_import` binding; the body is its input)',
      description: filesImport.description,
      body: { contentType: 'application/json', schema: filesImport.input },
      responses: { 200: { description: 'What became of every entry.', schema: filesImport.output } },
      errors: [...BODY_ERRORS, 'payload_too_large', 'not_found', 'conflict', 'quota_exceeded', 'upload_expired', 'upload_incomplete', 'storage_failure'],
      async handle(ctx) {
        const body = await readJson(ctx, deps.config.jsonBodyMaxBytes);
        ctx.body = await invoke(filesImport, body, callerOf(ctx), invokeDeps(deps));
      },
    }),
    defineRoute({
      method: 'POST',
      path: '/app/v1/files/export',
      operationId: 'appExportFiles',
      tags: ['app'],
      auth: 'bearer-or-session',
      binding: filesExport,
      summary: 'Export a folder or a list of files as one archive (the `files_export` binding; the body is its input)',
      description: filesExport.description,
      body: { contentType: 'application/json', schema: filesExport.input },
      responses: { 200: { description: 'The export and its download URL.', schema: filesExport.output } },
      errors: [...BODY_ERRORS, 'payload_too_large', 'not_found', 'conflict'],
      async handle(ctx) {
        const body = await readJson(ctx, deps.config.jsonBodyMaxBytes);
        ctx.body = await invoke(filesExport, body, callerOf(ctx), invokeDeps(deps));
      },
    }),
  ];
}
