// Storage usage of an organization: the bytes the quota counts (design.md section 5, Uploads).
import type { Sql } from 'postgres';

/** Bytes counted against the quota. The file catalogue adds its tables' sums here. */
export async function storageUsedBytes(_sql: Sql, _orgId: string): Promise<number> {
  return 0;
}
