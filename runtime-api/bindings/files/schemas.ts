// Schemas shared by the files_* and upload_* bindings (not a binding itself): file names, media types, ids, and
// the file record every catalogue binding returns.
//
// File names (decided here, documented for script authors):
// - 1 to 255 characters (Unicode code points) after NFC normalization. A name is a path: one active file per name in
//   an organization (writing to a taken name replaces that file, which moves to the trash), and no active name is a
//   folder of another (`x` and `x/y` are never both active: services/paths.ts).
// - No control characters (C0, DEL, C1), no bidirectional-override characters, no backslash, no lone surrogates,
//   no leading or trailing whitespace.
// - `/` is allowed as a folder-like separator (filter with files_list's `prefix`, e.g. `reports/2026/`), but not
//   at the start or end, and no segment may be empty, `.` or `..`. Downloads are offered under the last segment.
import * as v from 'valibot';
import type { FileRow } from '../../store/files.ts';
import type { RuntimeConfig } from '../../runtime-config.ts';
import { alsoAccepted } from '../../input-keys.ts';
import { NAME_MAX_CHARS } from '../../services/paths.ts';

export { NAME_MAX_CHARS };
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
    'File path: 1 to 255 characters, no control characters or backslash; `/` separates folders (no empty, `.` or `..` segment). One active file per path; a file and a folder cannot share a path.',
  ),
  alsoAccepted('path', 'filename', 'fileName', 'filePath'),
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

const ISO_8601 = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(?:Z|[+-](\d{2}):(\d{2}))$/;

/** Date.parse rolls impossible dates over (2026-02-30 becomes March 2), so each field is checked against the calendar. */
function isIso8601(s: string): boolean {
  const m = ISO_8601.exec(s);
  if (!m) return false;
  const [year, month, day, hour, minute, second = '0', offsetHours = '0', offsetMinutes = '0'] = m.slice(1).map((x) => x ?? '0');
  const y = Number(year);
  const daysInMonth = new Date(Date.UTC(y, Number(month), 0)).getUTCDate();
  return (
    Number(month) >= 1 &&
    Number(month) <= 12 &&
    Number(day) >= 1 &&
    Number(day) <= daysInMonth &&
    Number(hour) <= 23 &&
    Number(minute) <= 59 &&
    Number(second) <= 59 &&
    Number(offsetHours) <= 23 &&
    Number(offsetMinutes) <= 59
  );
}

/** A client's modification time: ISO 8601 with a time zone; kept as given (parsed by the handler, so a plan records the text). */
export const ModifiedAt = v.pipe(
  v.string(),
  v.check((s) => {
    const ms = Date.parse(s);
    const year = new Date(ms).getUTCFullYear();
    return isIso8601(s) && Number.isFinite(ms) && year >= 1 && year <= 9999;
  }, 'must be an ISO 8601 date and time with a time zone, between the years 0001 and 9999, e.g. 2026-03-31T14:05:00Z'),
  v.description(
    "When the content was last modified (ISO 8601 with a time zone, e.g. a local file's mtime); defaults to the time of the write. Kept to the millisecond.",
  ),
);

export const Executable = v.pipe(
  v.boolean(),
  v.description('Whether the file is executable (a tool that copies files restores the exec bit from it). Default false.'),
);

/** The vocabulary of every binding that may meet an active file at the path it asks for. */
export const OnConflict = v.picklist(['fail', 'replace', 'rename']);

/** A modifiedAt the schema accepted, as a Date (undefined stays undefined: the caller's default applies). */
export function modifiedAtDate(value: string | undefined): Date | undefined {
  return value === undefined ? undefined : new Date(Date.parse(value));
}

export const FileId = v.pipe(v.string(), v.regex(/^fil_[a-z2-7]{26}$/, 'not a file id'), v.description('File id (`fil_…`).'));

/** The fields naming one file: `fileId`, or `name` (its path; `path` is accepted too), exactly one of them. */
export function fileRefEntries(pathMeans: string) {
  return {
    fileId: v.optional(FileId),
    name: v.pipe(v.optional(FileName), v.description(`${pathMeans} Give it instead of \`fileId\`.`)),
  };
}

/** `schema` (holding fileRefEntries) refusing an input that names no file, or names one twice. */
export function oneFileRef<S extends v.GenericSchema<unknown, { fileId?: string; name?: string }>>(schema: S) {
  return v.pipe(
    schema,
    v.check((i: v.InferOutput<S>) => (i.fileId === undefined) !== (i.name === undefined), 'give `fileId` or `name` (one of them)'),
  );
}

export const UploadId = v.pipe(v.string(), v.regex(/^upl_[a-z2-7]{26}$/, 'not an upload id'), v.description('Upload reservation id (`upl_…`).'));

/** A file's size in bytes, as every storage API an agent knows calls it; inputs also take `byteLength`. */
export const FileSize = v.pipe(
  v.number(),
  v.integer('`size` must be a whole number of bytes'),
  v.minValue(0),
  v.description('Size in bytes.'),
  alsoAccepted('byteLength', 'bytes', 'sizeBytes', 'contentLength'),
);

const Timestamp = (what: string) => v.pipe(v.string(), v.description(`${what} (ISO 8601, UTC).`));

/** The identity and location every file-shaped result carries: `id` and `fileId`, `name` and `path` (the same values). */
export const FileIdentity = {
  id: v.pipe(v.string(), v.description('File id (`fil_…`); the same as `fileId`.')),
  fileId: v.pipe(v.string(), v.description('File id (`fil_…`).')),
  name: v.pipe(v.string(), v.description('Full path of the file; `/` separates folders.')),
  path: v.pipe(v.string(), v.description('The same as `name`.')),
};

/** `FileIdentity` of a stored file. */
export function fileIdentity(row: { id: string; name: string }) {
  return { id: row.id, fileId: row.id, name: row.name, path: row.name };
}

export const FileRecord = v.object({
  ...FileIdentity,
  mediaType: v.pipe(v.string(), v.description('Stored media type, sent as Content-Type on download.')),
  size: v.pipe(v.number(), v.description('Size in bytes.')),
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
  modifiedAt: Timestamp('When the content was last modified: as the writer gave it (e.g. a local mtime), else the time of the write'),
  executable: v.pipe(v.boolean(), v.description('Whether the file is executable (set by the writer or files_update; default false).')),
});

/** What a write answers: the file, and the version it replaced (now in the trash). */
export const WrittenFileRecord = v.object({
  ...FileRecord.entries,
  replacedFileId: v.pipe(
    v.nullable(v.string()),
    v.description('The file that held this path before the write, now in the trash (restorable with files_restore); null when the path was free.'),
  ),
});

export type FileRecordOut = v.InferInput<typeof FileRecord>;

export function toFileRecord(row: FileRow, config: RuntimeConfig): FileRecordOut {
  return {
    ...fileIdentity(row),
    mediaType: row.mediaType,
    size: row.byteLength,
    state: row.state,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    trashedAt: row.trashedAt ? row.trashedAt.toISOString() : null,
    restorableUntil: row.trashedAt ? new Date(row.trashedAt.getTime() + config.trashRetentionMs).toISOString() : null,
    sha256: row.sha256,
    crc32: row.crc32,
    createdBy: row.createdBy,
    downloadUrl: `${config.publicBaseUrl}/v1/mcp/files/${row.id}/download`,
    modifiedAt: row.modifiedAt.toISOString(),
    executable: row.executable,
  };
}

export function toWrittenRecord(written: { file: FileRow; replaced: FileRow | null }, config: RuntimeConfig): v.InferInput<typeof WrittenFileRecord> {
  return { ...toFileRecord(written.file, config), replacedFileId: written.replaced?.id ?? null };
}
