// files_write_text: create a small text file, or replace the content of an existing one (at most config
// textFileMaxBytes of UTF-8). The new bytes are written first under a fresh blob key; the catalogue then points at
// them in one transaction (quota-checked under the organization's lock), and the old bytes are deleted after commit.
import { crc32Hex } from '../../crc32-combine.ts';
import { createHash } from 'node:crypto';
import * as v from 'valibot';
import { createFileFromBytes } from '../../services/files.ts';
import { defineBinding } from '../../define.ts';
import { newId } from '../../ids.ts';
import { findFile, inTransaction, replaceContent } from '../../store/files.ts';
import { assertQuota } from '../../services/quota.ts';
import { fileInTrash, fileNotFound, textTooLarge } from '../../services/files-messages.ts';
import { deleteBlobsAfterCommit } from '../../services/trash.ts';
import { storageFailure } from '../../services/uploads.ts';
import { FileId, FileName, FileRecord, MediaType, toFileRecord } from './schemas.ts';

const DEFAULT_TEXT_TYPE = 'text/plain; charset=utf-8';

export const files_write_text = defineBinding({
  name: 'files_write_text',
  summary: 'Create a small UTF-8 text file, or replace the text of an existing one (up to 1 MiB by default).',
  description:
    'Without `fileId` a new file is created (`name` required; `mediaType` defaults to text/plain; charset=utf-8). ' +
    "With `fileId` the file's content is replaced (and renamed / retyped if `name` / `mediaType` are given). Counts against the storage quota.",
  aliases: ['save', 'create file', 'new file', 'write', 'edit', 'overwrite', 'note'],
  examples: [
    'return await files_write_text({ name: "notes/todo.md", mediaType: "text/markdown", text: "# To do\\n" });',
    'const { text } = await files_read_text({ fileId: "fil_..." });\nreturn await files_write_text({ fileId: "fil_...", text: text + "\\nmore" });',
  ],
  input: v.pipe(
    v.strictObject({
      fileId: v.optional(FileId),
      name: v.optional(FileName),
      mediaType: v.optional(MediaType),
      text: v.pipe(v.string(), v.description('The whole new content; stored as UTF-8.')),
    }),
    v.check((i) => i.fileId !== undefined || i.name !== undefined, 'give `name` to create a file, or `fileId` to replace one'),
  ),
  output: FileRecord,
  scope: 'files:write',
  writes: true,
  async handler(input, { sql, blobs, clock, caller, config }) {
    const orgId = caller.membership!.orgId;
    const data = Buffer.from(input.text, 'utf8');
    if (data.length > config.textFileMaxBytes) {
      throw textTooLarge(data.length, config.textFileMaxBytes);
    }
    const contentType = input.mediaType ?? DEFAULT_TEXT_TYPE;
    if (!input.fileId) {
      return toFileRecord(await createFileFromBytes({ sql, blobs, clock, caller, config }, { name: input.name!, mediaType: contentType, data }), config);
    }
    const existing = await findFile(sql, orgId, input.fileId);
    if (!existing) throw fileNotFound(input.fileId);
    const fileId = input.fileId;
    const sha256 = createHash('sha256').update(data).digest('hex');
    const blobKey = `${orgId}/${newId('blb')}`;
    try {
      await blobs.write(blobKey, data, { contentType });
    } catch (err) {
      throw storageFailure(err);
    }
    try {
      const { row, oldKey } = await inTransaction(sql, async (tx) => {
        const now = clock.now();
        const file = await findFile(tx, orgId, fileId, 'update');
        if (!file) throw fileNotFound(fileId);
        if (file.state !== 'active') {
          throw fileInTrash(fileId, file.state);
        }
        await assertQuota(tx, orgId, config.quotaBytes, now, data.length, file.byteLength);
        const updated = await replaceContent(
          tx,
          orgId,
          fileId,
          { blobKey, byteLength: data.length, sha256, crc32: crc32Hex(data), name: input.name, mediaType: input.mediaType },
          now,
        );
        return { row: updated!, oldKey: file.blobKey };
      });
      await deleteBlobsAfterCommit(sql, blobs, [oldKey]);
      return toFileRecord(row, config);
    } catch (err) {
      await deleteBlobsAfterCommit(sql, blobs, [blobKey]);
      throw err;
    }
  },
});
