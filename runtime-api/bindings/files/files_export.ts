// files_export: fix a selection of files (a folder, or a list) and get a URL that streams them as one archive.
import * as v from 'valibot';
import { defineBinding } from '../../define.ts';
import { createExport } from '../../services/archive/export.ts';
import { ArchiveFormatSchema, ExportRecord } from './archive-schemas.ts';
import { FileId } from './schemas.ts';

export const files_export = defineBinding({
  name: 'files_export',
  summary: 'Export a folder or a list of files as one tar or zip archive, streamed from a download URL.',
  description: [
    'Without `fileIds`: every active file under the folder `prefix` (default: all of them). With `fileIds`: those active files, each under `prefix` when it is given. ' +
      'Entries are named relative to `prefix` and come in name order; tar entries carry the modification time and mode 0644 (0755 when executable).',
    'The selection is fixed now; `GET downloadUrl` with a Bearer token (files:read, same rules as file downloads) streams the archive until `expiresAt` (1 hour by default). ' +
      'At most 10,000 files; two files that would share a path, or a file that would be a folder of another, answer 409 conflict.',
  ].join('\n'),
  aliases: ['zip', 'tar', 'archive', 'download folder', 'download all', 'backup', 'bulk download'],
  examples: ['const e = await files_export({ prefix: "reports/2026", format: "zip" });\nreturn e.downloadUrl;'],
  input: v.strictObject({
    prefix: v.pipe(
      v.optional(v.pipe(v.string(), v.maxLength(1024))),
      v.description('Folder to export, e.g. `reports/2026` (a trailing `/` is fine); entries are named relative to it. Default: the top.'),
    ),
    fileIds: v.pipe(v.optional(v.pipe(v.array(FileId), v.minLength(1), v.maxLength(100_000))), v.description('Only these files (active ones).')),
    format: v.pipe(v.optional(ArchiveFormatSchema, 'tar'), v.description('`tar` (default) or `zip`.')),
  }),
  output: ExportRecord,
  scope: 'files:read',
  writes: true,
  async handler(input, deps) {
    const row = await createExport(deps, input);
    return {
      id: row.id,
      exportId: row.id,
      format: row.format,
      count: row.fileIds.length,
      bytes: row.bytes,
      downloadUrl: `${deps.config.publicBaseUrl}/v1/mcp/files/exports/${row.id}/download`,
      expiresAt: row.expiresAt.toISOString(),
    };
  },
});
