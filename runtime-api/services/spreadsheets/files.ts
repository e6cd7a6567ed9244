// The catalogue side of the spreadsheet bindings: read a file's bytes (capped) and create a file from bytes.
// Creation follows files_write_text's order exactly — bytes first under a fresh blob key, then the row in one
// transaction after the quota check (services/quota.ts), the bytes deleted again if the transaction fails.
// TODO(files): replace createFileFromBytes with the files service's own "create a file from a Buffer" once it exists.
import { createHash } from 'node:crypto';
import type { HandlerContext } from '../../define.ts';
import { newId } from '../../ids.ts';
import { findFile, inTransaction, insertFile, type FileRow } from '../../store/files.ts';
import { assertQuota } from '../quota.ts';
import { deleteBlobsAfterCommit, notFound } from '../trash.ts';
import { storageFailure } from '../uploads.ts';
import { invalid, mib } from './limits.ts';

type Deps = Pick<HandlerContext, 'sql' | 'blobs' | 'clock' | 'config' | 'caller'>;

/** The whole content of one of the caller's organization's files (active or trashed), at most `maxBytes`. */
export async function readFileBytes(deps: Deps, fileId: string, maxBytes: number): Promise<{ file: FileRow; bytes: Buffer }> {
  const file = await findFile(deps.sql, deps.caller.membership!.orgId, fileId);
  if (!file) throw notFound(fileId);
  const tooBig = () => invalid('fileId', `the file has ${file.byteLength} bytes; spreadsheet_read reads files of at most ${mib(maxBytes)}. `
    + 'Split it, or export only the sheet you need.');
  if (file.byteLength > maxBytes) throw tooBig();
  const chunks: Buffer[] = [];
  let total = 0;
  try {
    for await (const chunk of await deps.blobs.read(file.blobKey)) {
      total += (chunk as Buffer).length;
      if (total > maxBytes) throw tooBig(); // the row's size is trusted, but never past the cap
      chunks.push(chunk as Buffer);
    }
  } catch (err) {
    throw storageFailure(err);
  }
  return { file, bytes: Buffer.concat(chunks, total) };
}

/** A new active file in the caller's organization, counted against the quota. */
export async function createFileFromBytes(deps: Deps, input: { name: string; mediaType: string; data: Buffer }): Promise<FileRow> {
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
      return insertFile(tx, {
        id: newId('fil'), orgId, name: input.name, mediaType: input.mediaType, byteLength: data.length, sha256, blobKey,
        createdBy: deps.caller.userId, createdAt: now, updatedAt: now,
      });
    });
  } catch (err) {
    await deleteBlobsAfterCommit(deps.sql, deps.blobs, [blobKey]);
    throw err;
  }
}
