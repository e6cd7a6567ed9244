// The storage quota (config quotaBytes, 10 GiB by default) per organization. Every transaction that adds bytes
// (upload_begin, upload_complete's re-check, files_write_text) first locks the organization's row in
// org_storage_locks, then sums usage: concurrent callers queue on the lock, so the sum each sees is exact and the
// quota can never be overshot (design.md section 4: invariants under row locks, never read-then-write).
import type { Sql } from 'postgres';
import { quotaExceeded } from './files-messages.ts';
import { storageUsedBytes } from './usage.ts';

/** Take the organization's storage lock until the end of the caller's transaction. */
export async function lockOrgStorage(tx: Sql, orgId: string): Promise<void> {
  await tx`insert into org_storage_locks (org_id) values (${orgId})
    on conflict (org_id) do update set org_id = excluded.org_id`;
}

/**
 * Inside a transaction: lock, then check that usage plus `addingBytes` stays within the quota, else 409
 * quota_exceeded. `releasingBytes` are bytes the same change frees (e.g. the old content of a rewritten file).
 * With both 0 it re-checks bytes already reserved (upload_complete).
 */
export async function assertQuota(tx: Sql, orgId: string, quotaBytes: number, now: Date, addingBytes: number, releasingBytes = 0): Promise<number> {
  await lockOrgStorage(tx, orgId);
  const used = await storageUsedBytes(tx, orgId, now);
  const after = used - releasingBytes + addingBytes;
  // A change that shrinks usage always passes (even over a lowered quota); a re-check (0, 0) fails when over.
  if (addingBytes >= releasingBytes && after > quotaBytes) {
    throw quotaExceeded(used, quotaBytes, addingBytes - releasingBytes);
  }
  return used;
}
