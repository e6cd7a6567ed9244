// The trash (design.md section 5, Trash): files_trash keeps the bytes; restore works for trashRetentionMs (30 days)
// and then answers 410 restore_expired; files_delete removes a trashed file for good; the purge janitor removes
// files whose window closed. Trashed bytes keep counting against the quota until they are gone. A trashed file's path
// may have been taken since (it was replaced, or another file was written there): restoring then needs the caller
// to say what to do (services/paths.ts).
import type { Sql } from 'postgres';
import type { BlobStore } from '../blobs/port.ts';
import type { InvokeDeps } from '../invoke.ts';
import {
  deleteFileRow,
  deleteFileRows,
  expiredTrash,
  findFile,
  inTransaction,
  isOuterTransaction,
  setFileState,
  updateFileMeta,
  type FileRow,
} from '../store/files.ts';
import { fileNotFound, fileNotTrashed, restoreExpired } from './files-messages.ts';
import { clearPathFor, lockOrgFiles, restoredLabel, type OnConflict } from './paths.ts';

export type TrashDeps = Pick<InvokeDeps, 'sql' | 'blobs' | 'clock' | 'config'>;

/** Whether a trashed file is past its restore window at `now` (more than trashRetentionMs in the trash). */
export function restoreWindowClosed(file: FileRow, retentionMs: number, now: Date): boolean {
  return file.trashedAt !== null && now.getTime() - file.trashedAt.getTime() > retentionMs;
}

/** Move to the trash; trashing a trashed file changes nothing. */
export async function trashFile(deps: TrashDeps, orgId: string, fileId: string): Promise<FileRow> {
  return inTransaction(deps.sql, async (tx) => {
    await lockOrgFiles(tx, orgId);
    const file = await findFile(tx, orgId, fileId, 'update');
    if (!file) throw fileNotFound(fileId);
    if (file.state === 'trashed') return file;
    return (await setFileState(tx, orgId, fileId, 'trashed', deps.clock.now()))!;
  });
}

export interface Restored {
  file: FileRow;
  /** The active file that held the path and moved to the trash (onConflict "replace"). */
  replaced: FileRow | null;
  /** The path the file was trashed from, when it came back under a new name (onConflict "rename"). */
  renamedFrom: string | null;
}

/**
 * Back to active, within the window; restoring an active file changes nothing. When another active file holds the
 * path, `onConflict` decides: "fail" (409 path_taken), "replace" (that file goes to the trash) or "rename" (restored
 * beside it as `name (restored YYYY-MM-DD).ext`). Quota is unaffected (trashed bytes already count).
 */
export async function restoreFile(deps: TrashDeps, orgId: string, fileId: string, onConflict: OnConflict = 'fail'): Promise<Restored> {
  return inTransaction(deps.sql, async (tx) => {
    const now = deps.clock.now();
    await lockOrgFiles(tx, orgId);
    const file = await findFile(tx, orgId, fileId, 'update');
    if (!file) throw fileNotFound(fileId);
    if (file.state === 'active') return { file, replaced: null, renamedFrom: null };
    if (restoreWindowClosed(file, deps.config.trashRetentionMs, now)) {
      const days = Math.round(deps.config.trashRetentionMs / 86400_000);
      throw restoreExpired(file.trashedAt!, days);
    }
    const cleared = await clearPathFor(tx, orgId, file.name, { onConflict, operation: 'restore', fileId, now, renameLabel: restoredLabel(now) });
    if (cleared.name !== file.name) await updateFileMeta(tx, orgId, fileId, { name: cleared.name }, now);
    const restored = (await setFileState(tx, orgId, fileId, 'active', now))!;
    return { file: restored, replaced: cleared.replaced, renamedFrom: cleared.name !== file.name ? file.name : null };
  });
}

/** Delete a trashed file for good (an active one must be trashed first: 409 conflict). */
export async function deleteFile(deps: TrashDeps, orgId: string, fileId: string): Promise<FileRow> {
  const file = await inTransaction(deps.sql, async (tx) => {
    await lockOrgFiles(tx, orgId);
    const row = await findFile(tx, orgId, fileId, 'update');
    if (!row) throw fileNotFound(fileId);
    if (row.state !== 'trashed') {
      throw fileNotTrashed(fileId, row.state);
    }
    await deleteFileRow(tx, orgId, fileId);
    return row;
  });
  await deleteBlobsAfterCommit(deps.sql, deps.blobs, [file.blobKey]);
  return file;
}

/**
 * Delete blobs no row points at any more. Inside an outer transaction (plan/apply) the commit is not ours to see:
 * a rollback would resurrect the rows, so the bytes are left to the orphan janitor instead.
 */
export async function deleteBlobsAfterCommit(sql: Sql, blobs: BlobStore, keys: readonly string[]): Promise<void> {
  if (isOuterTransaction(sql)) return;
  await Promise.allSettled(keys.map((k) => blobs.delete(k))); // failures: the orphan janitor retries
}

/**
 * Purge trashed files whose window closed before `now`, in batches: each batch's rows are deleted and committed
 * first, then their bytes. A process that dies in between leaves bytes no row points at, which deleteOrphanBlobs
 * removes; never a row pointing at bytes that are gone. Returns files purged.
 */
export async function purgeTrash(deps: TrashDeps, now: Date, batch = 500): Promise<number> {
  const cutoff = new Date(now.getTime() - deps.config.trashRetentionMs);
  let purged = 0;
  for (;;) {
    const rows = await inTransaction(deps.sql, async (tx) => {
      const expired = await expiredTrash(tx, cutoff, batch); // locked (skip locked): a concurrent purge takes others
      await deleteFileRows(
        tx,
        expired.map((r) => r.id),
      );
      return expired;
    });
    purged += rows.length;
    await deleteBlobsAfterCommit(
      deps.sql,
      deps.blobs,
      rows.map((r) => r.blobKey),
    ); // failures: the orphan janitor retries
    if (rows.length < batch) return purged;
  }
}
