// files_update: rename a file and/or change its stored media type. Trashed files must be restored first.
import * as v from 'valibot';
import { defineBinding } from '../../define.ts';
import { findFile, inTransaction, updateFileMeta } from '../../store/files.ts';
import { fileInTrash, fileNotFound } from '../../services/files-messages.ts';
import { FileId, FileName, FileRecord, MediaType, toFileRecord } from './schemas.ts';

export const files_update = defineBinding({
  name: 'files_update',
  summary: 'Rename a file or change its media type.',
  description: 'Give `name`, `mediaType` or both. The content is unchanged. A trashed file answers 409 conflict: restore it first.',
  aliases: ['move', 'move to folder', 'rename', 'retitle', 'relocate', 'change media type', 'content type'],
  examples: ['return await files_update({ fileId: "fil_...", name: "reports/2026/q1.csv", mediaType: "text/csv" });'],
  input: v.pipe(
    v.strictObject({
      fileId: FileId,
      name: v.optional(FileName),
      mediaType: v.optional(MediaType),
    }),
    v.check((i) => i.name !== undefined || i.mediaType !== undefined, 'give `name`, `mediaType` or both'),
  ),
  output: FileRecord,
  scope: 'files:write',
  writes: true,
  async handler(input, { sql, caller, clock, config }) {
    const orgId = caller.membership!.orgId;
    const row = await inTransaction(sql, async (tx) => {
      const file = await findFile(tx, orgId, input.fileId, 'update');
      if (!file) throw fileNotFound(input.fileId);
      if (file.state !== 'active') {
        throw fileInTrash(input.fileId, file.state);
      }
      return (await updateFileMeta(tx, orgId, input.fileId, { name: input.name, mediaType: input.mediaType }, clock.now()))!;
    });
    return toFileRecord(row, config);
  },
});
