// Upload reservations and their part manifest. State changes are conditional updates, so two racing callers can
// never both move one reservation (the loser sees no row and answers 409).
import type { Sql } from 'postgres';

export type UploadState = 'open' | 'completing' | 'completed' | 'aborted' | 'expired' | 'importing' | 'imported';

export interface UploadRow {
  id: string;
  orgId: string;
  createdBy: string | null;
  name: string;
  mediaType: string;
  byteLength: number;
  partSize: number;
  partCount: number;
  state: UploadState;
  fileId: string;
  blobKey: string;
  createdAt: Date;
  expiresAt: Date;
  stateChangedAt: Date;
  /** The file's modification time as the client gave it; null: the completion time. */
  modifiedAt: Date | null;
  executable: boolean;
}

export interface PartRow {
  partNumber: number;
  byteLength: number;
  crc32: string | null;
  sha256: string | null;
  receivedAt: Date;
}

const columns = (sql: Sql) => sql`id, org_id as "orgId", created_by as "createdBy", name, media_type as "mediaType",
  byte_length as "byteLength", part_size as "partSize", part_count as "partCount", state, file_id as "fileId",
  blob_key as "blobKey", created_at as "createdAt", expires_at as "expiresAt", state_changed_at as "stateChangedAt",
  modified_at as "modifiedAt", executable`;

export async function insertUpload(sql: Sql, row: Omit<UploadRow, 'state' | 'stateChangedAt'>): Promise<UploadRow> {
  const [out] = await sql<UploadRow[]>`insert into uploads
      (id, org_id, created_by, name, media_type, byte_length, part_size, part_count, state, file_id, blob_key,
       created_at, expires_at, state_changed_at, modified_at, executable)
    values (${row.id}, ${row.orgId}, ${row.createdBy}, ${row.name}, ${row.mediaType}, ${row.byteLength}, ${row.partSize},
      ${row.partCount}, 'open', ${row.fileId}, ${row.blobKey}, ${row.createdAt}, ${row.expiresAt}, ${row.createdAt},
      ${row.modifiedAt}, ${row.executable})
    returning ${columns(sql)}`;
  return out;
}

/** `share` holds off completion, abort and expiry while a part is written; `update` is theirs. */
export async function findUpload(sql: Sql, orgId: string, uploadId: string, lock: 'share' | 'update' | null = null): Promise<UploadRow | null> {
  const [row] = await sql<UploadRow[]>`select ${columns(sql)} from uploads where id = ${uploadId} and org_id = ${orgId}
    ${lock === 'share' ? sql`for share` : lock === 'update' ? sql`for update` : sql``}`;
  return row ?? null;
}

/** Move an upload from one of `from` to `to`; null when it was not in such a state (someone else moved it). */
export async function transitionUpload(sql: Sql, uploadId: string, from: readonly UploadState[], to: UploadState, now: Date): Promise<UploadRow | null> {
  const [row] = await sql<UploadRow[]>`update uploads set state = ${to}, state_changed_at = ${now}
    where id = ${uploadId} and state = any(${from as UploadState[]})
    returning ${columns(sql)}`;
  return row ?? null;
}

/**
 * Record a part: insert its row, or refresh the row of an identical copy (same size and checksums). False, with
 * nothing changed, when a different copy is recorded (it must be forgotten first: forgetDifferentPart). The row
 * stays locked until the caller's transaction ends; a concurrent copy's uncommitted row is waited for.
 */
export async function recordPart(sql: Sql, uploadId: string, part: PartRow): Promise<boolean> {
  const rows = await sql`insert into upload_parts as p (upload_id, part_number, byte_length, crc32, sha256, received_at)
    values (${uploadId}, ${part.partNumber}, ${part.byteLength}, ${part.crc32}, ${part.sha256}, ${part.receivedAt})
    on conflict (upload_id, part_number) do update
      set sha256 = coalesce(excluded.sha256, p.sha256), received_at = excluded.received_at
      where p.byte_length = excluded.byte_length and p.crc32 = excluded.crc32
        and (p.sha256 is null or excluded.sha256 is null or p.sha256 = excluded.sha256)
    returning part_number`;
  return rows.length > 0;
}

/** Drop the part's manifest row unless it records a copy identical to `part`; whether a row was dropped. */
export async function forgetDifferentPart(sql: Sql, uploadId: string, part: Pick<PartRow, 'partNumber' | 'byteLength' | 'crc32' | 'sha256'>): Promise<boolean> {
  const rows = await sql`delete from upload_parts
    where upload_id = ${uploadId} and part_number = ${part.partNumber}
      and not coalesce(byte_length = ${part.byteLength} and crc32 = ${part.crc32}
               and (sha256 is null or ${part.sha256}::text is null or sha256 = ${part.sha256}), false)
    returning part_number`;
  return rows.length > 0;
}

export async function listParts(sql: Sql, uploadId: string): Promise<PartRow[]> {
  return sql<PartRow[]>`select part_number as "partNumber", byte_length as "byteLength", crc32, sha256, received_at as "receivedAt"
    from upload_parts where upload_id = ${uploadId} order by part_number`;
}

/** Bytes held by the organization's live reservations (open and not yet expired at `now`, completing or importing). */
export async function reservedBytes(sql: Sql, orgId: string, now: Date): Promise<number> {
  const [row] = await sql<{ n: number }[]>`select coalesce(sum(byte_length), 0)::int8 as n from uploads
    where org_id = ${orgId} and (state in ('completing', 'importing') or (state = 'open' and expires_at > ${now}))`;
  return row.n;
}

/** Open reservations past their expiry, marked expired; returns their ids so their bytes can be deleted. */
export async function expireDue(sql: Sql, now: Date, limit: number): Promise<string[]> {
  const rows = await sql<{ id: string }[]>`update uploads set state = 'expired', state_changed_at = ${now}
    where id in (select id from uploads where state = 'open' and expires_at <= ${now}
                 order by expires_at limit ${limit} for update skip locked)
    returning id`;
  return rows.map((r) => r.id);
}

/** Completions that stopped half-way (the process died between the blob and the catalogue). */
export async function stuckCompletions(sql: Sql, before: Date, limit: number): Promise<UploadRow[]> {
  return sql<UploadRow[]>`select ${columns(sql)} from uploads
    where state = 'completing' and state_changed_at < ${before}
    order by state_changed_at limit ${limit} for update skip locked`;
}

/** Imports whose process stopped saying it is alive before `before` (it died): locked for the janitor. */
export async function stuckImports(sql: Sql, before: Date, limit: number): Promise<UploadRow[]> {
  return sql<UploadRow[]>`select ${columns(sql)} from uploads
    where state = 'importing' and state_changed_at < ${before}
    order by state_changed_at limit ${limit} for update skip locked`;
}

/** A running import says it is alive, so that the janitor leaves it alone. */
export async function touchImport(sql: Sql, uploadId: string, now: Date): Promise<void> {
  await sql`update uploads set state_changed_at = ${now} where id = ${uploadId} and state = 'importing'`;
}

/** Forget finished reservations (and their manifests) that ended before `before`. */
export async function purgeFinishedUploads(sql: Sql, before: Date): Promise<number> {
  const rows = await sql`delete from uploads
    where state in ('completed', 'aborted', 'expired', 'imported') and state_changed_at < ${before} returning id`;
  return rows.length;
}

/** Which of `uploadIds` still may have staging bytes that matter (open, completing or importing). */
export async function liveUploadIds(sql: Sql, uploadIds: readonly string[]): Promise<Set<string>> {
  if (!uploadIds.length) return new Set();
  const rows = await sql<{ id: string }[]>`select id from uploads
    where id = any(${uploadIds as string[]}) and state in ('open', 'completing', 'importing')`;
  return new Set(rows.map((r) => r.id));
}
