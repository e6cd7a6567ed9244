// Schemas shared by the files_* and upload_* bindings (not a binding itself): file names, media types, ids, and
// the file record every catalogue binding returns.
//
// File names (decided here, documented for script authors):
// - 1 to 255 characters (Unicode code points) after NFC normalization; not unique within an organization.
// - No control characters (C0, DEL, C1), no bidirectional-override characters, no backslash, no lone surrogates,
//   no leading or trailing whitespace.
// - `/` is allowed as a folder-like separator (filter with files_list's `prefix`, e.g. `reports/2026/`), but not
//   at the start or end, and no segment may be empty, `.` or `..`. Downloads are offered under the last segment.
import * as v from 'valibot';
import type { FileRow } from '../../store/files.ts';
import type { RuntimeConfig } from '../../runtime-config.ts';

export const NAME_MAX_CHARS = 255;
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;
const BIDI = /[\u202a-\u202e\u2066-\u2069\u200e\u200f]/;

export function nameProblem(name: string): string | null {
  const chars = [...name].length;
  if (chars < 1 || chars > NAME_MAX_CHARS) return `must be 1 to ${NAME_MAX_CHARS} characters`;
  if (!name.isWellFormed()) return 'must be well-formed Unicode';
  if (CONTROL.test(name)) return 'must not contain control characters';
  if (BIDI.test(name)) return 'must not contain bidirectional control characters';
  if (name.includes('\\')) return 'must not contain a backslash (use / to separate folders)';
  if (name.trim() !== name) return 'must not start or end with whitespace';
  if (name.startsWith('/') || name.endsWith('/')) return 'must not start or end with /';
  if (name.split('/').some((seg) => seg === '' || seg === '.' || seg === '..' || seg.trim() !== seg)) {
    return 'must not contain an empty, `.` or `..` segment, or a segment with surrounding whitespace';
  }
  return null;
}

export const FileName = v.pipe(
  v.string(),
  v.description(
    'File name: 1 to 255 characters, no control characters or backslash; `/` separates folder-like segments (no empty, `.` or `..` segment). Not unique.',
  ),
  v.transform((s) => s.normalize('NFC')),
  v.rawCheck(({ dataset, addIssue }) => {
    if (!dataset.typed) return;
    const problem = nameProblem(dataset.value);
    if (problem) addIssue({ message: `file name ${problem}` });
  }),
);

const TOKEN = "[!#$%&'*+.^_`|~0-9A-Za-z-]+";
const MEDIA_TYPE = new RegExp(`^${TOKEN}/${TOKEN}(\\s*;\\s*${TOKEN}=(${TOKEN}|"[^"\\\\\\u0000-\\u001f\\u007f]*"))*$`);

export const MediaType = v.pipe(
  v.string(),
  v.trim(),
  v.maxLength(255, 'media type must be at most 255 characters'),
  v.regex(MEDIA_TYPE, 'media type must look like type/subtype, optionally with ;name=value parameters'),
  v.description('Media type (RFC 6838), e.g. `text/csv` or `text/plain; charset=utf-8`; returned as Content-Type on download.'),
);

export const FileId = v.pipe(v.string(), v.regex(/^fil_[a-z2-7]{26}$/, 'not a file id'), v.description('File id (`fil_…`).'));
export const UploadId = v.pipe(v.string(), v.regex(/^upl_[a-z2-7]{26}$/, 'not an upload id'), v.description('Upload reservation id (`upl_…`).'));

const Timestamp = (what: string) => v.pipe(v.string(), v.description(`${what} (ISO 8601, UTC).`));

export const FileRecord = v.object({
  fileId: v.pipe(v.string(), v.description('File id (`fil_…`).')),
  name: v.pipe(v.string(), v.description('File name; `/` separates folder-like segments.')),
  mediaType: v.pipe(v.string(), v.description('Stored media type, sent as Content-Type on download.')),
  byteLength: v.pipe(v.number(), v.description('Size in bytes.')),
  state: v.pipe(v.picklist(['active', 'trashed']), v.description('`active`, or `trashed` (restorable until `restorableUntil`).')),
  createdAt: Timestamp('When the file was created'),
  updatedAt: Timestamp('Last change of name, media type, content or state'),
  trashedAt: v.pipe(v.nullable(v.string()), v.description('When the file was moved to the trash (ISO 8601), or null.')),
  restorableUntil: v.pipe(
    v.nullable(v.string()),
    v.description(
      'For trashed files: the end of the restore window (ISO 8601); afterwards restore answers 410 restore_expired and the file is purged. Null when active.',
    ),
  ),
  sha256: v.pipe(v.nullable(v.string()), v.description('Hex SHA-256 of the content when known (text files and single-part uploads), else null.')),
  crc32: v.pipe(
    v.nullable(v.string()),
    v.description(
      'Hex CRC-32 (IEEE, as zlib) of the content, for every file including multi-part uploads; verify a download against it. Null only for files stored before it was recorded.',
    ),
  ),
  createdBy: v.pipe(v.nullable(v.string()), v.description('The user id of the person (or the creator of the API key) who wrote the file; null if unknown.')),
  downloadUrl: v.pipe(v.string(), v.description('GET with a Bearer token to download the bytes (Range supported).')),
});

export type FileRecordOut = v.InferInput<typeof FileRecord>;

export function toFileRecord(row: FileRow, config: RuntimeConfig): FileRecordOut {
  return {
    fileId: row.id,
    name: row.name,
    mediaType: row.mediaType,
    byteLength: row.byteLength,
    state: row.state,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    trashedAt: row.trashedAt ? row.trashedAt.toISOString() : null,
    restorableUntil: row.trashedAt ? new Date(row.trashedAt.getTime() + config.trashRetentionMs).toISOString() : null,
    sha256: row.sha256,
    crc32: row.crc32,
    createdBy: row.createdBy,
    downloadUrl: `${config.publicBaseUrl}/v1/mcp/files/${row.id}/download`,
  };
}
