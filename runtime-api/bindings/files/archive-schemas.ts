// Schemas of files_import and files_export (not a binding itself): the archive format, an import's per-entry
// report, and an export's record.
import * as v from 'valibot';

export const ArchiveFormatSchema = v.picklist(['tar', 'zip']);

export const ExportId = v.pipe(v.string(), v.regex(/^exp_[a-z2-7]{26}$/, 'not an export id'), v.description('Export id (`exp_…`).'));

export const ENTRY_CODES = [
  'invalid_path',
  'absolute_path',
  'path_climbs_out',
  'path_too_long',
  'duplicate_path',
  'path_conflict',
  'symlink_refused',
  'hardlink_refused',
  'special_file_refused',
  'ratio_exceeded',
  'encrypted_entry',
  'unsupported_compression',
  'corrupt_entry',
] as const;

export const ImportEntry = v.object({
  path: v.pipe(
    v.string(),
    v.description("The entry's path in the catalogue (`into` included, NFC); for an entry refused for its name, the name as the archive spells it."),
  ),
  status: v.pipe(
    v.picklist(['created', 'replaced', 'unchanged', 'refused']),
    v.description(
      '`created` (a new file), `replaced` (the previous file at the path went to the trash), `unchanged` (the active file there already had this content; not rewritten) or `refused`.',
    ),
  ),
  fileId: v.pipe(v.nullable(v.string()), v.description('The file now at the path (null when refused).')),
  size: v.pipe(v.number(), v.description("The entry's size in bytes (as the archive declares it when refused).")),
  code: v.pipe(
    v.nullable(v.picklist(ENTRY_CODES)),
    v.description(
      'Why it was refused: `invalid_path`, `absolute_path`, `path_climbs_out` (`..`), `path_too_long`, `duplicate_path` (an earlier entry has the path), ' +
        '`path_conflict` (a file where a folder is needed or the reverse, against another entry or an active file), `symlink_refused`, `hardlink_refused`, ' +
        '`special_file_refused` (devices, fifos), `ratio_exceeded` (a zip bomb), `encrypted_entry`, `unsupported_compression`, `corrupt_entry`; null otherwise.',
    ),
  ),
  message: v.pipe(v.nullable(v.string()), v.description("The refusal in words, in the caller's language; null otherwise.")),
});

export const ImportResultSchema = v.object({
  format: v.pipe(ArchiveFormatSchema, v.description('The format read (`tar` also for gzip-compressed tar).')),
  created: v.pipe(v.number(), v.description('Entries written as new files.')),
  replaced: v.pipe(v.number(), v.description('Entries that replaced the file at their path.')),
  unchanged: v.pipe(v.number(), v.description('Entries whose path already held the same content.')),
  refused: v.pipe(v.number(), v.description('Entries refused (only with onError "skip"; with "abort" a refusal fails the whole import).')),
  bytes: v.pipe(v.number(), v.description('Bytes of the entries created, replaced or unchanged.')),
  entries: v.pipe(v.array(ImportEntry), v.description('Every file entry, and every refused entry, in archive order (folders are implicit).')),
});

export const ExportRecord = v.object({
  id: v.pipe(v.string(), v.description('The export id (`exp_…`), as `exportId`.')),
  exportId: v.pipe(v.string(), v.description('The export id (`exp_…`).')),
  format: v.pipe(ArchiveFormatSchema, v.description('The archive format.')),
  count: v.pipe(v.number(), v.description('Files in the archive.')),
  bytes: v.pipe(v.number(), v.description("The files' bytes in all (the archive adds its headers; zip may compress).")),
  downloadUrl: v.pipe(v.string(), v.description('GET with a Bearer token (files:read) to stream the archive, until `expiresAt`.')),
  expiresAt: v.pipe(v.string(), v.description('When the download URL stops working (ISO 8601).')),
});
