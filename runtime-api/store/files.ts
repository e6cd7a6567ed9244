// The file catalogue's SQL: every query is scoped by organization, so another organization's ids simply find nothing.
import type { Sql } from 'postgres';

export type FileState = 'active' | 'trashed';

export interface FileRow {
  id: string;
  orgId: string;
  name: string;
  mediaType: string;
  byteLength: number;
  sha256: string | null;
  /** Hex CRC-32 of the content; null only for rows written before it was recorded. */
  crc32: string | null;
  blobKey: string;
  state: FileState;
  createdBy: string | null;
  createdAt: Date;
  updatedAt: Date;
  trashedAt: Date | null;
}

const columns = (sql: Sql) => sql`id, org_id as "orgId", name, media_type as "mediaType", byte_length as "byteLength",
  sha256, crc32, blob_key as "blobKey", state, created_by as "createdBy", created_at as "createdAt", updated_at as "updatedAt",
  trashed_at as "trashedAt"`;

/** Run `fn` in a transaction, or in a savepoint when `sql` already is one (plan/apply runs a script in one). */
export async function inTransaction<T>(sql: Sql, fn: (tx: Sql) => Promise<T>): Promise<T> {
  const maybeTx = sql as Sql & { savepoint?: (cb: (tx: Sql) => Promise<T>) => Promise<T> };
  if (typeof maybeTx.savepoint === 'function') return maybeTx.savepoint(fn);
  return sql.begin((tx) => fn(tx as unknown as Sql)) as Promise<T>;
}

/** Whether `sql` is a transaction handle whose commit is not ours to see (side effects must then wait for janitors). */
export function isOuterTransaction(sql: Sql): boolean {
  return typeof (sql as { savepoint?: unknown }).savepoint === 'function';
}

export async function findFile(sql: Sql, orgId: string, fileId: string, lock: 'update' | null = null): Promise<FileRow | null> {
  const [row] = await sql<FileRow[]>`select ${columns(sql)} from files
    where id = ${fileId} and org_id = ${orgId} ${lock === 'update' ? sql`for update` : sql``}`;
  return row ?? null;
}

export interface ListQuery {
  state: FileState;
  prefix: string | null;
  after: { name: string; id: string } | null;
  limit: number;
}

/** Keyset page ordered by (name, id) byte-wise; returns up to `limit + 1` rows so the caller knows if more exist. */
export async function listFiles(sql: Sql, orgId: string, q: ListQuery): Promise<FileRow[]> {
  return sql<FileRow[]>`select ${columns(sql)} from files
    where org_id = ${orgId} and state = ${q.state}
      ${q.prefix ? sql`and name >= ${q.prefix} and starts_with(name, ${q.prefix})` : sql``}
      ${q.after ? sql`and (name, id) > (${q.after.name}, ${q.after.id})` : sql``}
    order by name, id
    limit ${q.limit + 1}`;
}

export async function insertFile(sql: Sql, row: Omit<FileRow, 'state' | 'trashedAt'>): Promise<FileRow> {
  const [out] = await sql<FileRow[]>`insert into files
      (id, org_id, name, media_type, byte_length, sha256, crc32, blob_key, state, created_by, created_at, updated_at)
    values (${row.id}, ${row.orgId}, ${row.name}, ${row.mediaType}, ${row.byteLength}, ${row.sha256}, ${row.crc32}, ${row.blobKey},
      'active', ${row.createdBy}, ${row.createdAt}, ${row.updatedAt})
    returning ${columns(sql)}`;
  return out;
}

export async function updateFileMeta(
  sql: Sql,
  orgId: string,
  fileId: string,
  patch: { name?: string; mediaType?: string },
  now: Date,
): Promise<FileRow | null> {
  const [row] = await sql<FileRow[]>`update files set
      name = coalesce(${patch.name ?? null}, name),
      media_type = coalesce(${patch.mediaType ?? null}, media_type),
      updated_at = ${now}
    where id = ${fileId} and org_id = ${orgId}
    returning ${columns(sql)}`;
  return row ?? null;
}

export async function replaceContent(
  sql: Sql,
  orgId: string,
  fileId: string,
  c: { blobKey: string; byteLength: number; sha256: string | null; crc32: string | null; name?: string; mediaType?: string },
  now: Date,
): Promise<FileRow | null> {
  const [row] = await sql<FileRow[]>`update files set
      blob_key = ${c.blobKey}, byte_length = ${c.byteLength}, sha256 = ${c.sha256}, crc32 = ${c.crc32},
      name = coalesce(${c.name ?? null}, name), media_type = coalesce(${c.mediaType ?? null}, media_type),
      updated_at = ${now}
    where id = ${fileId} and org_id = ${orgId}
    returning ${columns(sql)}`;
  return row ?? null;
}

export async function setFileState(sql: Sql, orgId: string, fileId: string, state: FileState, now: Date): Promise<FileRow | null> {
  const [row] = await sql<FileRow[]>`update files set
      state = ${state}, trashed_at = ${state === 'trashed' ? now : null}, updated_at = ${now}
    where id = ${fileId} and org_id = ${orgId}
    returning ${columns(sql)}`;
  return row ?? null;
}

export async function deleteFileRow(sql: Sql, orgId: string, fileId: string): Promise<void> {
  await sql`delete from files where id = ${fileId} and org_id = ${orgId}`;
}

/** Bytes of the organization's files, active and trashed. */
export async function fileBytes(sql: Sql, orgId: string): Promise<number> {
  const [row] = await sql<{ n: number }[]>`select coalesce(sum(byte_length), 0)::int8 as n from files where org_id = ${orgId}`;
  return row.n;
}

/** Trashed files whose window closed before `cutoff`, locked for the purge (other purgers skip them). */
export async function expiredTrash(sql: Sql, cutoff: Date, limit: number): Promise<FileRow[]> {
  return sql<FileRow[]>`select ${columns(sql)} from files
    where state = 'trashed' and trashed_at < ${cutoff}
    order by trashed_at limit ${limit}
    for update skip locked`;
}

export async function deleteFileRows(sql: Sql, ids: readonly string[]): Promise<void> {
  if (ids.length) await sql`delete from files where id = any(${ids as string[]})`;
}

/** Which of `keys` some file still points at. */
export async function referencedBlobKeys(sql: Sql, keys: readonly string[]): Promise<Set<string>> {
  if (!keys.length) return new Set();
  const rows = await sql<{ k: string }[]>`select blob_key as k from files where blob_key = any(${keys as string[]})
    union select blob_key from uploads where blob_key = any(${keys as string[]}) and state in ('open', 'completing')`;
  return new Set(rows.map((r) => r.k));
}

/**
 * Where an archive's entries would break the file/folder rule against the active catalogue (and the uploads being
 * completed, which are about to be files): `files` are the given folder paths (the folders entries sit in) that such
 * a file has as its name; `folders` are the given file paths that are folders of such files. `/` is the byte before
 * `0` in collation "C", so the names in [p/, p0) are exactly those under the folder p.
 */
export async function pathClashes(
  sql: Sql,
  orgId: string,
  folderPaths: readonly string[],
  filePaths: readonly string[],
): Promise<{ files: Set<string>; folders: Set<string> }> {
  const [files, folders] = await Promise.all([
    folderPaths.length
      ? sql<{ p: string }[]>`select name as p from files where org_id = ${orgId} and state = 'active' and name = any(${folderPaths as string[]})
          union select name from uploads where org_id = ${orgId} and state = 'completing' and name = any(${folderPaths as string[]})`
      : [],
    filePaths.length
      ? sql<{ p: string }[]>`select e.p from unnest(${filePaths as string[]}::text[]) as e(p)
          where exists (select 1 from files f where f.org_id = ${orgId} and f.state = 'active'
              and f.name >= (e.p || '/') collate "C" and f.name < (e.p || '0') collate "C")
            or exists (select 1 from uploads u where u.org_id = ${orgId} and u.state = 'completing'
              and u.name >= (e.p || '/') collate "C" and u.name < (e.p || '0') collate "C")`
      : [],
  ]);
  return { files: new Set(files.map((r) => r.p)), folders: new Set(folders.map((r) => r.p)) };
}

/** Active files whose name starts with `prefix`, by name, at most `limit`. */
export async function activeFilesUnder(sql: Sql, orgId: string, prefix: string, limit: number): Promise<FileRow[]> {
  return sql<FileRow[]>`select ${columns(sql)} from files
    where org_id = ${orgId} and state = 'active' ${prefix ? sql`and name >= ${prefix} and starts_with(name, ${prefix})` : sql``}
    order by name, id limit ${limit}`;
}

/** The organization's files among `ids`, in any state (absent ones are simply missing). */
export async function filesByIds(sql: Sql, orgId: string, ids: readonly string[]): Promise<FileRow[]> {
  if (!ids.length) return [];
  return sql<FileRow[]>`select ${columns(sql)} from files where org_id = ${orgId} and id = any(${ids as string[]})`;
}
