// files_import: an upload (begun and sent like any other, then not completed) read as a tar or zip archive and
// written as many files in one call; services/archive/import.ts says how, and why nothing half-done can remain.
import * as v from 'valibot';
import { defineBinding } from '../../define.ts';
import { importArchive } from '../../services/archive/import.ts';
import { ArchiveFormatSchema, ImportResultSchema } from './archive-schemas.ts';
import { UploadId } from './schemas.ts';

export const files_import = defineBinding({
  name: 'files_import',
  summary: 'Import an uploaded tar or zip archive as many files in one call (instead of upload_complete).',
  description: [
    'Send the archive as an upload (upload_begin with any name, e.g. `site.tar`, then PUT its parts), then call files_import instead of upload_complete; the upload is consumed.',
    'The format is recognized from the bytes (tar, gzip-compressed tar, zip) unless `format` says. Entries go under the folder `into` (default: the top). ' +
      'Writing to a path that holds a file replaces it (the previous version goes to the trash); tar entries set `modifiedAt` and `executable` from their mtime and mode.',
    'Paths: a leading `./` is dropped, names are normalized to Unicode NFC and must follow the file-name rule; `..`, absolute paths, backslashes, control characters and empty segments are refused, ' +
      'as are symbolic and hard links, devices, duplicates and file/folder conflicts (with another entry or an active file).',
    'onError "abort" (default): any refused entry refuses the whole import with 400 invalid_input listing them (`refused`), and nothing is written; the upload stays open, so it can be imported again with "skip", or aborted. ' +
      'onError "skip": the other entries are imported and the refused ones reported.',
    'Limits: 10,000 entries, 10 GiB expanded, a compression ratio of 200 per zip entry and for the whole archive (413 payload_too_large past the archive limits). ' +
      'The quota is checked against the expanded size before anything is written (409 quota_exceeded). Large archives: call it over REST (POST /app/v1/files/import), where no script time limit applies.',
  ].join('\n'),
  aliases: ['unzip', 'untar', 'extract', 'import archive', 'bulk upload', 'upload folder', 'zip', 'tar'],
  examples: [
    'const r = await files_import({ uploadId: "upl_...", into: "site" });\nreturn { created: r.created, refused: r.entries.filter((e) => e.status === "refused") };',
  ],
  input: v.strictObject({
    uploadId: UploadId,
    format: v.pipe(v.optional(ArchiveFormatSchema), v.description('`tar` (also gzip-compressed) or `zip`; default: recognized from the bytes.')),
    into: v.pipe(
      v.optional(v.pipe(v.string(), v.maxLength(1024))),
      v.description('Folder to put the entries under, e.g. `projects/site` (a trailing `/` is fine); default: the top.'),
    ),
    onError: v.pipe(
      v.optional(v.picklist(['abort', 'skip']), 'abort'),
      v.description('`abort` (default): all or nothing. `skip`: import what can be, report the rest.'),
    ),
  }),
  output: ImportResultSchema,
  scope: 'files:write',
  writes: true,
  async handler(input, deps) {
    return importArchive(deps, input);
  },
});
