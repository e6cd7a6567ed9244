// Upload reservations (design.md section 5, Uploads): begin (quota-checked under the organization's lock), parts
// (stored while the reservation row is share-locked, so completion, abort and expiry wait for writes in flight),
// completion (open → completing → completed, each a conditional update: concurrent completions get 409), abort.
// A completing reservation holds its path against folder clashes (services/paths.ts), so the file it becomes can
// always take the path: replacing the active file there, which moves to the trash.
import { combineHexCrcs } from '../crc32-combine.ts';
import type { Sql } from 'postgres';
import type { InvokeDeps } from '../invoke.ts';
import { ServiceError } from '../errors.ts';
import { newId } from '../ids.ts';
import { inTransaction, isOuterTransaction } from '../store/files.ts';
import { findUpload, forgetDifferentPart, insertUpload, listParts, recordPart, transitionUpload, type PartRow, type UploadRow } from '../store/uploads.ts';
import { assertQuota } from './quota.ts';
import { assertNoFolderClash, lockOrgFiles, putFileAtPath, type WrittenFile } from './paths.ts';
import {
  openUploadNotFound,
  partContended,
  partOutOfRange,
  uploadCompletedConcurrently,
  uploadExpired,
  uploadIncomplete,
  uploadMoved,
  uploadNotFound,
  uploadNotOpen,
} from './files-messages.ts';

export const PART_SIZE = 8 * 1024 * 1024;
export const MAX_PARTS = 10_000;
export const MAX_UPLOAD_BYTES = PART_SIZE * MAX_PARTS;

export type UploadDeps = Pick<InvokeDeps, 'sql' | 'blobs' | 'clock' | 'config'>;

export function partCountFor(byteLength: number): number {
  return Math.max(1, Math.ceil(byteLength / PART_SIZE));
}

/** Exact size of part `n`: full parts, then the remainder (a zero-byte upload has one empty part). */
export function expectedPartBytes(upload: Pick<UploadRow, 'byteLength' | 'partCount' | 'partSize'>, n: number): number {
  return n < upload.partCount ? upload.partSize : upload.byteLength - (upload.partCount - 1) * upload.partSize;
}

export function storageFailure(err: unknown): ServiceError {
  return err instanceof ServiceError ? err : new ServiceError('storage_failure', { cause: err });
}

export function isExpired(upload: UploadRow, now: Date): boolean {
  return upload.state === 'expired' || (upload.state === 'open' && upload.expiresAt.getTime() <= now.getTime());
}

/** The reservation, if it exists in this organization and can still take parts or be completed. */
export function assertOpen(upload: UploadRow | null, uploadId: string, now: Date): UploadRow {
  if (!upload || upload.state === 'aborted') {
    throw openUploadNotFound(uploadId);
  }
  if (isExpired(upload, now)) {
    throw uploadExpired(upload.expiresAt);
  }
  if (upload.state !== 'open') {
    throw uploadNotOpen(uploadId, upload.state); // completing, completed, importing or imported
  }
  return upload;
}

export async function beginUpload(
  deps: UploadDeps,
  who: { orgId: string; userId: string },
  input: { name: string; mediaType: string; byteLength: number; modifiedAt?: Date; executable?: boolean },
): Promise<UploadRow> {
  const now = deps.clock.now();
  const fileId = newId('fil');
  return inTransaction(deps.sql, async (tx) => {
    await assertQuota(tx, who.orgId, deps.config.quotaBytes, now, input.byteLength);
    // Checked again at completion; refused now so that nobody sends gigabytes to a path that cannot take them.
    await assertNoFolderClash(tx, who.orgId, input.name);
    return insertUpload(tx, {
      id: newId('upl'),
      orgId: who.orgId,
      createdBy: who.userId,
      name: input.name,
      mediaType: input.mediaType,
      byteLength: input.byteLength,
      partSize: PART_SIZE,
      partCount: partCountFor(input.byteLength),
      fileId,
      blobKey: `${who.orgId}/${fileId}`,
      createdAt: now,
      expiresAt: new Date(now.getTime() + deps.config.uploadTtlMs),
      modifiedAt: input.modifiedAt ?? null,
      executable: input.executable ?? false,
    });
  });
}

/** Checks before reading a part's body: the reservation is open and the part number is within it. */
export async function partTarget(deps: UploadDeps, orgId: string, uploadId: string, partNumber: number): Promise<{ upload: UploadRow; expectedBytes: number }> {
  const upload = assertOpen(await findUpload(deps.sql, orgId, uploadId), uploadId, deps.clock.now());
  if (partNumber > upload.partCount) throw partOutOfRange(upload.partCount, partNumber);
  return { upload, expectedBytes: expectedPartBytes(upload, partNumber) };
}

/** A part's checksums as the manifest records them (hex). */
export interface PartSums {
  crc32: string;
  sha256: string | null;
}

/**
 * Store a verified part durably and record it in the manifest. The reservation row is share-locked and the part's
 * manifest row locked for the duration, so a completion waits for this write and two copies of one part never
 * interleave; a failed write rolls the manifest back.
 *
 * A part's staged bytes are overwritten in place (fs: one file per upload), so the manifest must never vouch for a
 * part while different bytes are being written over it: a recorded copy that differs from this one is forgotten,
 * and that committed, before the write. If the process dies (or the write fails) half-way, the part is then
 * missing rather than part old, part new. An identical copy (a retried send) stays recorded throughout.
 */
export async function storePart(
  deps: UploadDeps,
  orgId: string,
  uploadId: string,
  partNumber: number,
  data: Buffer,
  checksums: PartSums | Promise<PartSums>,
): Promise<PartRow> {
  // The checksums may still be computing (or fail verification) while the transaction opens: awaited before
  // anything is recorded or written. Marked handled now; a rejection surfaces where it is awaited.
  const pending = Promise.resolve(checksums);
  pending.catch(() => {});
  let forget = false;
  for (let attempt = 1; ; attempt++) {
    const outcome = await inTransaction(deps.sql, async (tx) => {
      const now = deps.clock.now();
      const upload = assertOpen(await findUpload(tx, orgId, uploadId, 'share'), uploadId, now);
      if (partNumber > upload.partCount) throw partOutOfRange(upload.partCount, partNumber);
      if (data.length !== expectedPartBytes(upload, partNumber)) throw new ServiceError('part_mismatch');
      const sums = await pending;
      const part: PartRow = { partNumber, byteLength: data.length, crc32: sums.crc32, sha256: sums.sha256, receivedAt: now };
      if (forget && (await forgetDifferentPart(tx, uploadId, part))) return 'forgotten' as const; // committed first
      if (!(await recordPart(tx, uploadId, part))) return 'different' as const; // another copy is recorded
      try {
        await deps.blobs.putPart(uploadId, { number: partNumber, offset: (partNumber - 1) * upload.partSize, data, last: partNumber === upload.partCount });
      } catch (err) {
        throw storageFailure(err);
      }
      return part;
    });
    if (typeof outcome === 'object') return outcome;
    forget = outcome === 'different';
    // Giving up only when another copy is recorded: the part is never left forgotten by a request that failed.
    if (outcome === 'different' && attempt >= 16) {
      throw partContended(partNumber);
    }
  }
}

export interface UploadStatus {
  upload: UploadRow;
  received: PartRow[];
  missing: number[];
}

export function missingParts(upload: UploadRow, received: readonly PartRow[]): number[] {
  const have = new Set(received.map((p) => p.partNumber));
  const missing: number[] = [];
  for (let n = 1; n <= upload.partCount; n++) if (!have.has(n)) missing.push(n);
  return missing;
}

export async function uploadStatus(deps: UploadDeps, orgId: string, uploadId: string): Promise<UploadStatus> {
  const upload = await findUpload(deps.sql, orgId, uploadId);
  if (!upload || upload.state === 'aborted') throw uploadNotFound(uploadId);
  if (isExpired(upload, deps.clock.now())) {
    throw uploadExpired(upload.expiresAt);
  }
  const received = await listParts(deps.sql, uploadId);
  return { upload, received, missing: upload.state === 'open' ? missingParts(upload, received) : [] };
}

/**
 * Assemble the bytes and turn a `completing` reservation into the active file at its path (the file there before, if
 * any, moves to the trash). Also used to recover stuck ones.
 */
export async function finishCompletion(deps: UploadDeps, upload: UploadRow, received: readonly PartRow[]): Promise<WrittenFile> {
  try {
    await deps.blobs.finalize(upload.id, { partCount: upload.partCount, partSize: upload.partSize, byteLength: upload.byteLength }, upload.blobKey, {
      contentType: upload.mediaType,
    });
  } catch (err) {
    // Parts are still there (or the rename is retried idempotently): the reservation accepts a new attempt.
    await transitionUpload(deps.sql, upload.id, ['completing'], 'open', deps.clock.now()).catch(() => {});
    throw storageFailure(err);
  }
  return inTransaction(deps.sql, async (tx) => {
    const now = deps.clock.now();
    await lockOrgFiles(tx, upload.orgId);
    if (!(await transitionUpload(tx, upload.id, ['completing'], 'completed', now))) {
      throw uploadCompletedConcurrently(upload.id);
    }
    const row = {
      id: upload.fileId,
      orgId: upload.orgId,
      name: upload.name,
      mediaType: upload.mediaType,
      byteLength: upload.byteLength,
      // One part: its hash is the file's (computed on the way in). Several: a whole-file hash would cost a second
      // full read, and hashing every part costs more CPU than the rest of the upload path (bench/transfers.ts).
      sha256: upload.partCount === 1 && received.length === 1 ? received[0].sha256 : null,
      // The parts' CRC-32s combine into the whole content's, so every upload has a checksum to verify downloads by.
      crc32: received.every((p) => p.crc32)
        ? combineHexCrcs([...received].sort((a, b) => a.partNumber - b.partNumber).map((p) => ({ crc32: p.crc32!, byteLength: p.byteLength })))
        : null,
      blobKey: upload.blobKey,
      createdBy: upload.createdBy,
      createdAt: now,
      updatedAt: now,
      modifiedAt: upload.modifiedAt ?? now,
      executable: upload.executable,
    };
    // No folder can have appeared at the path since completion began: the completing reservation kept it out.
    return putFileAtPath(tx, row, now, { folderChecked: true });
  });
}

export async function completeUpload(deps: UploadDeps, orgId: string, uploadId: string): Promise<WrittenFile> {
  const { upload, received } = await inTransaction(deps.sql, async (tx) => {
    const now = deps.clock.now();
    // `for update` waits until every part write in flight (share lock) has committed or rolled back.
    const current = assertOpen(await findUpload(tx, orgId, uploadId, 'update'), uploadId, now);
    const parts = await listParts(tx, uploadId);
    const missing = missingParts(current, parts);
    if (missing.length) throw uploadIncomplete(missing);
    // Re-check the quota with the bytes this reservation already holds (it fails only if the quota was lowered).
    await assertQuota(tx, orgId, deps.config.quotaBytes, now, 0);
    // Refused while the reservation stays open: move what is in the way and complete again.
    await assertNoFolderClash(tx, orgId, current.name);
    const moved = await transitionUpload(tx, uploadId, ['open'], 'completing', now);
    if (!moved) throw uploadMoved(uploadId);
    return { upload: moved, received: parts };
  });
  return finishCompletion(deps, upload, received);
}

export async function abortUpload(deps: UploadDeps, orgId: string, uploadId: string): Promise<UploadRow> {
  const aborted = await inTransaction(deps.sql, async (tx) => {
    const now = deps.clock.now();
    assertOpen(await findUpload(tx, orgId, uploadId, 'update'), uploadId, now);
    const moved = await transitionUpload(tx, uploadId, ['open'], 'aborted', now);
    if (!moved) throw uploadMoved(uploadId);
    return moved;
  });
  await dropStaging(deps.sql, deps, uploadId);
  return aborted;
}

/** Delete staging bytes now, unless inside someone else's transaction (then the orphan janitor does it). */
export async function dropStaging(sql: Sql, deps: UploadDeps, uploadId: string): Promise<void> {
  if (isOuterTransaction(sql)) return;
  await deps.blobs.deleteUpload(uploadId).catch(() => {});
}
