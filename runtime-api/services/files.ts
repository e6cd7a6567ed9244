// Writing a file from bytes: the bytes first under a fresh blob key, then the row in one transaction after the
// quota check, the bytes deleted again if the transaction fails. The path's active file, if any, is replaced: it moves
// to the trash, where it stays restorable (and keeps counting against the quota). files_write_text, files_write_bytes
// and spreadsheet_write share it; the small-file readers share readSmallFile.
import type { Sql } from 'postgres';
import { crc32Hex } from '../crc32-combine.ts';
import { createHash } from 'node:crypto';
import type { HandlerContext } from '../define.ts';
import { newId } from '../ids.ts';
import { findActiveByName, findFile, findNewestTrashedByName, inTransaction, type FileRow } from '../store/files.ts';
import { assertQuota } from './quota.ts';
import { putFileAtPath, type WrittenFile } from './paths.ts';

export type { WrittenFile };
import { fileNotFound, noFileAtPath, noTrashedFileAtPath, textFileTooLarge } from './files-messages.ts';
import { deleteBlobsAfterCommit } from './trash.ts';
import { storageFailure } from './uploads.ts';

type Deps = Pick<HandlerContext, 'sql' | 'blobs' | 'clock' | 'config' | 'caller'>;

/**
 * The new active file at `name` in the caller's organization, counted against the quota in full (a replaced version
 * moves to the trash, where it still counts). `modifiedAt` defaults to the write time, `executable` to false.
 */
export async function createFileFromBytes(
  deps: Deps,
  input: { name: string; mediaType: string; data: Buffer; modifiedAt?: Date; executable?: boolean },
): Promise<WrittenFile> {
  const orgId = deps.caller.membership!.orgId;
  const { data } = input;
  const sha256 = createHash('sha256').update(data).digest('hex');
  const blobKey = `${orgId}/${newId('blb')}`;
  try {
    await deps.blobs.write(blobKey, data, { contentType: input.mediaType });
  } catch (err) {
    throw storageFailure(err);
  }
  try {
    return await inTransaction(deps.sql, async (tx) => {
      const now = deps.clock.now();
      await assertQuota(tx, orgId, deps.config.quotaBytes, now, data.length);
      return putFileAtPath(
        tx,
        {
          id: newId('fil'),
          orgId,
          name: input.name,
          mediaType: input.mediaType,
          byteLength: data.length,
          sha256,
          crc32: crc32Hex(data),
          blobKey,
          createdBy: deps.caller.userId,
          createdAt: now,
          updatedAt: now,
          modifiedAt: input.modifiedAt ?? now,
          executable: input.executable ?? false,
        },
        now,
      );
    });
  } catch (err) {
    await deleteBlobsAfterCommit(deps.sql, deps.blobs, [blobKey]);
    throw err;
  }
}

/** A whole small file for files_read_text / files_read_bytes: not_found, the size cap (naming the download route). */
/** A whole small file in memory (files_read_text, files_read_bytes); stops early once `signal` fires (the execution ended). */
export async function readSmallFile(
  deps: Pick<Deps, 'sql' | 'blobs' | 'caller' | 'config'> & { signal?: AbortSignal },
  fileId: string,
  binding: string,
): Promise<{ file: FileRow; bytes: Buffer }> {
  const { config } = deps;
  const file = await findFile(deps.sql, deps.caller.membership!.orgId, fileId);
  if (!file) throw fileNotFound(fileId);
  if (file.byteLength > config.textFileMaxBytes) {
    throw textFileTooLarge(file, binding, config.textFileMaxBytes, config.publicBaseUrl);
  }
  const chunks: Buffer[] = [];
  try {
    for await (const chunk of await deps.blobs.read(file.blobKey)) {
      if (deps.signal?.aborted) break;
      chunks.push(chunk as Buffer);
    }
  } catch (err) {
    throw storageFailure(err);
  }
  deps.signal?.throwIfAborted();
  return { file, bytes: Buffer.concat(chunks) };
}

/** Content already staged under a blob key no row points at yet, and what the file at `name` should carry. */
export interface PathWrite {
  name: string;
  mediaType: string;
  blobKey: string;
  size: number;
  sha256: string | null;
  crc32: string | null;
  /** When the content was last modified, as the client knows it (an archive entry's mtime); null: now. */
  modifiedAt: Date | null;
  executable: boolean;
}

export type PathWriteStatus = 'created' | 'replaced' | 'unchanged';

/**
 * Make `w` the file at its path, inside the caller's transaction (which has checked the quota under the
 * organization's storage lock): `created` on a free path; `replaced` when another active file was there (it moves to
 * the trash, restorable); `unchanged` when the active file there already has this content (it is left as it is, and
 * `w.blobKey` is the caller's to delete). Archive import writes every entry through here.
 */
export async function writeFileAtPath(
  tx: Sql,
  who: { orgId: string; userId: string },
  w: PathWrite,
  now: Date,
): Promise<{ file: FileRow; status: PathWriteStatus }> {
  const holder = await findActiveByName(tx, who.orgId, w.name, 'update');
  // Same content only when the hashes say so: a file whose SHA-256 is unknown (a multi-part upload) is replaced.
  if (holder && holder.byteLength === w.size && holder.sha256 !== null && holder.sha256 === w.sha256) return { file: holder, status: 'unchanged' };
  const { file, replaced } = await putFileAtPath(
    tx,
    {
      id: newId('fil'),
      orgId: who.orgId,
      name: w.name,
      mediaType: w.mediaType,
      byteLength: w.size,
      sha256: w.sha256,
      crc32: w.crc32,
      blobKey: w.blobKey,
      createdBy: who.userId,
      createdAt: now,
      updatedAt: now,
      modifiedAt: w.modifiedAt ?? now,
      executable: w.executable,
    },
    now,
    // The caller checked the file/folder rule for every path, under the organization's lock it still holds.
    { folderChecked: true },
  );
  return { file, status: replaced ? 'replaced' : 'created' };
}

/** A file named by id, or by path: the active file there, or (`in: "trash"`) the version trashed last. */
export interface FileRef {
  fileId?: string;
  name?: string;
}

/** The id of the file a reference names; 404 not_found when there is none. */
export async function fileIdOf(sql: Sql, orgId: string, ref: FileRef, where: 'active' | 'trash' = 'active'): Promise<string> {
  if (ref.fileId !== undefined) return ref.fileId;
  const row = where === 'trash' ? await findNewestTrashedByName(sql, orgId, ref.name!) : await findActiveByName(sql, orgId, ref.name!);
  if (!row) throw where === 'trash' ? noTrashedFileAtPath(ref.name!) : noFileAtPath(ref.name!);
  return row.id;
}
