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
  /** When the content last changed, as the writer said (a client's mtime) or else the write time. */
  modifiedAt: Date;
  executable: boolean;
}

const columns = (sql: Sql) => sql`id, org_id as "orgId", name, media_type as "mediaType", byte_length as "byteLength",
  sha256, crc32, blob_key as "blobKey", state, created_by as "createdBy", created_at as "createdAt", updated_at as "updatedAt",
  trashed_at as "trashedAt", modified_at as "modifiedAt", executable`;

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

export type FileSort = 'name' | 'size' | 'createdAt' | 'updatedAt' | 'modifiedAt';

export interface ListQuery {
  state: FileState;
  prefix: string | null;
  /** Case-insensitive substring of the name. */
  search?: string | null;
  /** false: only the files right in the folder `prefix` (no further `/` after it). */
  recursive?: boolean;
  sort?: FileSort;
  order?: 'asc' | 'desc';
  /** The last row of the previous page: its sort value (an ISO instant for dates) and id. */
  after: { value: string | number; id: string } | null;
  limit: number;
}

const SORT_COLUMN: Record<FileSort, string> = {
  name: 'name',
  size: 'byte_length',
  createdAt: 'created_at',
  updatedAt: 'updated_at',
  modifiedAt: 'modified_at',
};

/** Case folding for searches: ICU's (every script) where the server has it, else PostgreSQL's own lower(). */
const folding = new WeakMap<Sql, Promise<boolean>>();
function hasIcu(sql: Sql): Promise<boolean> {
  let known = folding.get(sql);
  if (!known) {
    known = sql`select 1 from pg_collation where collname = 'und-x-icu'`.then((r) => r.length > 0);
    folding.set(sql, known);
  }
  return known;
}

/**
 * A keyset page ordered by the sort column then id (both in `order`), names byte-wise; returns up to `limit + 1` rows
 * so the caller knows if more exist.
 */
export async function listFiles(sql: Sql, orgId: string, q: ListQuery): Promise<FileRow[]> {
  const sort = q.sort ?? 'name';
  const desc = q.order === 'desc';
  const col = sql(SORT_COLUMN[sort]);
  const dir = desc ? sql`desc` : sql`asc`;
  const after = q.after
    ? desc
      ? sql`and (${col}, id) < (${typeof q.after.value === 'string' && sort !== 'name' ? new Date(q.after.value) : q.after.value}, ${q.after.id})`
      : sql`and (${col}, id) > (${typeof q.after.value === 'string' && sort !== 'name' ? new Date(q.after.value) : q.after.value}, ${q.after.id})`
    : sql``;
  const icu = q.search ? await hasIcu(sql) : false;
  const search = q.search
    ? icu
      ? sql`and strpos(lower(name collate "und-x-icu"), lower(${q.search} collate "und-x-icu")) > 0`
      : sql`and strpos(lower(name), lower(${q.search})) > 0`
    : sql``;
  const depth = q.recursive === false ? sql`and strpos(substr(name, ${(q.prefix ?? '').length === 0 ? 1 : sql`length(${q.prefix}) + 1`}), '/') = 0` : sql``;
  return sql<FileRow[]>`select ${columns(sql)} from files
    where org_id = ${orgId} and state = ${q.state}
      ${q.prefix ? sql`and name >= ${q.prefix} and starts_with(name, ${q.prefix})` : sql``}
      ${search} ${depth} ${after}
    order by ${col} ${dir}, id ${dir}
    limit ${q.limit + 1}`;
}

export interface FolderRow {
  /** The folder's last segment. */
  name: string;
  files: number;
  bytes: number;
  updatedAt: Date;
  /** The latest content change of any file under it. */
  modifiedAt: Date;
}

/** The folders right under `prefix` ('' for the top; else ending in `/`), by name, with what each holds at any depth. */
export async function listFolders(sql: Sql, orgId: string, q: { state: FileState; prefix: string; after: string | null; limit: number }): Promise<FolderRow[]> {
  const rest = sql`substr(name, length(${q.prefix}) + 1)`;
  return sql<FolderRow[]>`select split_part(${rest}, '/', 1) as name, count(*)::int as files, sum(byte_length)::int8 as bytes,
      max(updated_at) as "updatedAt", max(modified_at) as "modifiedAt"
    from files
    where org_id = ${orgId} and state = ${q.state} and starts_with(name, ${q.prefix}) and strpos(${rest}, '/') > 0
      ${q.after !== null ? sql`and split_part(${rest}, '/', 1) > ${q.after}` : sql``}
    group by 1 order by 1 limit ${q.limit + 1}`;
}

export type NewFileRow = Omit<FileRow, 'state' | 'trashedAt'> & { state?: FileState; trashedAt?: Date | null };

/** A new row, active unless `state` says trashed (a replaced version kept in the trash). */
export async function insertFile(sql: Sql, row: NewFileRow): Promise<FileRow> {
  const state = row.state ?? 'active';
  const [out] = await sql<FileRow[]>`insert into files
      (id, org_id, name, media_type, byte_length, sha256, crc32, blob_key, state, created_by, created_at, updated_at, trashed_at,
       modified_at, executable)
    values (${row.id}, ${row.orgId}, ${row.name}, ${row.mediaType}, ${row.byteLength}, ${row.sha256}, ${row.crc32}, ${row.blobKey},
      ${state}, ${row.createdBy}, ${row.createdAt}, ${row.updatedAt}, ${state === 'trashed' ? (row.trashedAt ?? row.updatedAt) : null},
      ${row.modifiedAt}, ${row.executable})
    returning ${columns(sql)}`;
  return out;
}

/** The active file at `name`, if any (at most one: files_active_name_idx). */
export async function findActiveByName(sql: Sql, orgId: string, name: string, lock: 'update' | null = null): Promise<FileRow | null> {
  const [row] = await sql<FileRow[]>`select ${columns(sql)} from files
    where org_id = ${orgId} and state = 'active' and name = ${name} ${lock === 'update' ? sql`for update` : sql``}`;
  return row ?? null;
}

/** The most recently trashed version of a path (a path may have several in the trash). */
export async function findNewestTrashedByName(sql: Sql, orgId: string, name: string): Promise<FileRow | null> {
  const [row] = await sql<FileRow[]>`select ${columns(sql)} from files
    where org_id = ${orgId} and state = 'trashed' and name = ${name} order by trashed_at desc, id desc limit 1`;
  return row ?? null;
}

/** Every folder `name` lies in, outermost first: `a/b/c` → `a`, `a/b`. */
export function parentFolders(name: string): string[] {
  const parts = name.split('/');
  return parts.slice(1).map((_, i) => parts.slice(0, i + 1).join('/'));
}

export interface FolderClash {
  /** `parent_is_file`: a folder of the path is a file; `path_is_folder`: the path is a folder holding files. */
  kind: 'parent_is_file' | 'path_is_folder';
  /** The file (or the file a completing upload becomes) in the way. */
  name: string;
  fileId: string;
}

/**
 * What stops `name` from being an active file's path besides an active file of that very name: an active file (or a
 * completing upload) at one of its folders, or under it as a folder. `/` is the byte before `0` in collation "C", so
 * names in [x/, x0) are exactly those inside the folder x (an index range scan). The file being moved, and the upload
 * being completed, are not in their own way.
 */
export async function folderClash(
  sql: Sql,
  orgId: string,
  name: string,
  exceptUploadId: string | null = null,
  exceptFileId: string | null = null,
): Promise<FolderClash | null> {
  const parents = parentFolders(name);
  const [row] = await sql<{ kind: FolderClash['kind']; name: string; fileId: string }[]>`
    (select case when name = any(${parents}::text[]) then 'parent_is_file' else 'path_is_folder' end as kind, name, id as "fileId"
      from files where org_id = ${orgId} and state = 'active' and id is distinct from ${exceptFileId}
        and (name = any(${parents}::text[]) or (name >= ${`${name}/`} and name < ${`${name}0`}))
      order by name limit 1)
    union all
    (select case when name = any(${parents}::text[]) then 'parent_is_file' else 'path_is_folder' end, name, file_id
      from uploads where org_id = ${orgId} and state = 'completing' and id is distinct from ${exceptUploadId}
        and (name = any(${parents}::text[]) or (name >= ${`${name}/`} and name < ${`${name}0`}))
      order by name limit 1)
    limit 1`;
  return row ?? null;
}

export interface FileMetaPatch {
  name?: string;
  mediaType?: string;
  modifiedAt?: Date;
  executable?: boolean;
}

export async function updateFileMeta(sql: Sql, orgId: string, fileId: string, patch: FileMetaPatch, now: Date): Promise<FileRow | null> {
  const [row] = await sql<FileRow[]>`update files set
      name = coalesce(${patch.name ?? null}, name),
      media_type = coalesce(${patch.mediaType ?? null}, media_type),
      modified_at = coalesce(${patch.modifiedAt ?? null}, modified_at),
      executable = coalesce(${patch.executable ?? null}, executable),
      updated_at = ${now}
    where id = ${fileId} and org_id = ${orgId}
    returning ${columns(sql)}`;
  return row ?? null;
}

export async function replaceContent(
  sql: Sql,
  orgId: string,
  fileId: string,
  c: { blobKey: string; byteLength: number; sha256: string | null; crc32: string | null; modifiedAt: Date } & FileMetaPatch,
  now: Date,
): Promise<FileRow | null> {
  const [row] = await sql<FileRow[]>`update files set
      blob_key = ${c.blobKey}, byte_length = ${c.byteLength}, sha256 = ${c.sha256}, crc32 = ${c.crc32}, modified_at = ${c.modifiedAt},
      name = coalesce(${c.name ?? null}, name), media_type = coalesce(${c.mediaType ?? null}, media_type),
      executable = coalesce(${c.executable ?? null}, executable),
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
