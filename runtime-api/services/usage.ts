// Storage usage of an organization: the bytes the quota counts (design.md section 5, Uploads).
import type { Sql } from 'postgres';
import { fileBytes } from '../store/files.ts';
import { reservedBytes } from '../store/uploads.ts';

/**
 * Bytes counted against the quota: the organization's files, active and trashed, plus the bytes reserved by its
 * live upload reservations (open and unexpired at `now`, or completing). Exact only under the quota lock
 * (services/quota.ts); elsewhere it is a snapshot.
 */
export async function storageUsedBytes(sql: Sql, orgId: string, now: Date = new Date()): Promise<number> {
  const [files, reserved] = await Promise.all([fileBytes(sql, orgId), reservedBytes(sql, orgId, now)]);
  return files + reserved;
}
