// Creating a file from bytes: the bytes first under a fresh blob key, then the row in one transaction after the
// quota check, the bytes deleted again if the transaction fails. files_write_text and spreadsheet_write share it.
import { crc32Hex } from '../crc32-combine.ts';
import { createHash } from 'node:crypto';
import type { HandlerContext } from '../define.ts';
import { newId } from '../ids.ts';
import { inTransaction, insertFile, type FileRow } from '../store/files.ts';
import { assertQuota } from './quota.ts';
import { deleteBlobsAfterCommit } from './trash.ts';
import { storageFailure } from './uploads.ts';

type Deps = Pick<HandlerContext, 'sql' | 'blobs' | 'clock' | 'config' | 'caller'>;

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
        id: newId('fil'), orgId, name: input.name, mediaType: input.mediaType, byteLength: data.length, sha256, crc32: crc32Hex(data), blobKey,
        createdBy: deps.caller.userId, createdAt: now, updatedAt: now,
      });
    });
  } catch (err) {
    await deleteBlobsAfterCommit(deps.sql, deps.blobs, [blobKey]);
    throw err;
  }
}
