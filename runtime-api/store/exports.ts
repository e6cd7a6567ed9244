// Archive exports: which files go into one archive, under which names, until when. The download route reads one
// back (scoped by organization, so another organization's export id finds nothing).
import type { Sql } from 'postgres';

export type ArchiveFormat = 'tar' | 'zip';

export interface ExportRow {
  id: string;
  orgId: string;
  createdBy: string | null;
  format: ArchiveFormat;
  /** The name the download is offered under, e.g. `reports.tar`. */
  name: string;
  fileIds: string[];
  paths: string[];
  bytes: number;
  createdAt: Date;
  expiresAt: Date;
}

const columns = (sql: Sql) => sql`id, org_id as "orgId", created_by as "createdBy", format, name, file_ids as "fileIds", paths,
  bytes, created_at as "createdAt", expires_at as "expiresAt"`;

export async function insertExport(sql: Sql, row: ExportRow): Promise<ExportRow> {
  const [out] = await sql<ExportRow[]>`insert into file_exports (id, org_id, created_by, format, name, file_ids, paths, bytes, created_at, expires_at)
    values (${row.id}, ${row.orgId}, ${row.createdBy}, ${row.format}, ${row.name}, ${row.fileIds}, ${row.paths}, ${row.bytes}, ${row.createdAt}, ${row.expiresAt})
    returning ${columns(sql)}`;
  return out;
}

export async function findExport(sql: Sql, orgId: string, exportId: string): Promise<ExportRow | null> {
  const [row] = await sql<ExportRow[]>`select ${columns(sql)} from file_exports where id = ${exportId} and org_id = ${orgId}`;
  return row ?? null;
}

/** Forget exports that expired before `before`; returns how many. */
export async function purgeExpiredExports(sql: Sql, before: Date): Promise<number> {
  const rows = await sql`delete from file_exports where expires_at < ${before} returning id`;
  return rows.length;
}
