// files_update: move (rename) a file, change its stored media type, its executable bit or its modification time.
// Trashed files must be restored first. Moving onto another active file's path is refused unless the caller says what
// to do with that file; a move never makes a file and a folder share a path.
import * as v from 'valibot';
import { defineBinding } from '../../define.ts';
import { findFile, inTransaction, updateFileMeta } from '../../store/files.ts';
import { fileInTrash, fileNotFound } from '../../services/files-messages.ts';
import { clearPathFor, lockOrgFiles, numberedLabel } from '../../services/paths.ts';
import { Executable, FileId, FileName, MediaType, ModifiedAt, modifiedAtDate, OnConflict, toWrittenRecord, WrittenFileRecord } from './schemas.ts';

export const files_update = defineBinding({
  name: 'files_update',
  summary: 'Move (rename) a file, or change its media type, executable bit or modification time.',
  pt: {
    summary: 'Move (renomeia) um arquivo, ou muda seu tipo de mídia, bit de executável ou data de modificação.',
    aliases: ['mover', 'mover para pasta', 'renomear', 'trocar nome', 'mudar tipo de mídia', 'tornar executável', 'data de modificação'],
  },
  description:
    'Give any of `name`, `mediaType`, `executable`, `modifiedAt`. The content is unchanged. A trashed file answers 409 conflict: restore it first. ' +
    'Moving onto a path another active file holds answers 409 path_taken unless `onConflict` is "replace" (that file moves to the trash; ' +
    '`replacedFileId` names it) or "rename" (the first free name beside it: `q1 (2).csv`, `q1 (3).csv`, ...). ' +
    'Moving into a path inside a file, or onto a folder of other files, answers 409 folder_conflict.',
  aliases: ['move', 'move to folder', 'rename', 'retitle', 'relocate', 'change media type', 'content type', 'chmod', 'touch', 'mtime'],
  examples: [
    'return await files_update({ fileId: "fil_...", name: "reports/2026/q1.csv", mediaType: "text/csv" });',
    'return await files_update({ fileId: "fil_...", name: "reports/q1.csv", onConflict: "replace" });',
    'return await files_update({ fileId: "fil_...", executable: true });',
  ],
  input: v.pipe(
    v.strictObject({
      fileId: FileId,
      name: v.optional(FileName),
      mediaType: v.optional(MediaType),
      executable: v.optional(Executable),
      modifiedAt: v.optional(ModifiedAt),
      onConflict: v.pipe(
        v.optional(OnConflict),
        v.description(
          'When `name` is held by another active file: "fail" (default: 409 path_taken), "replace" (that file moves to the trash) or "rename" (a free name beside it).',
        ),
      ),
    }),
    v.check(
      (i) => i.name !== undefined || i.mediaType !== undefined || i.executable !== undefined || i.modifiedAt !== undefined,
      'give `name`, `mediaType`, `executable` or `modifiedAt`',
    ),
  ),
  output: WrittenFileRecord,
  scope: 'files:write',
  writes: true,
  async handler(input, { sql, caller, clock, config }) {
    const orgId = caller.membership!.orgId;
    const written = await inTransaction(sql, async (tx) => {
      const now = clock.now();
      await lockOrgFiles(tx, orgId);
      const file = await findFile(tx, orgId, input.fileId, 'update');
      if (!file) throw fileNotFound(input.fileId);
      if (file.state !== 'active') {
        throw fileInTrash(input.fileId, file.state);
      }
      let name = input.name;
      let replaced = null;
      if (name !== undefined && name !== file.name) {
        ({ name, replaced } = await clearPathFor(tx, orgId, name, {
          onConflict: input.onConflict ?? 'fail',
          operation: 'move',
          fileId: file.id,
          now,
          renameLabel: numberedLabel,
        }));
      }
      const patch = { name, mediaType: input.mediaType, executable: input.executable, modifiedAt: modifiedAtDate(input.modifiedAt) };
      return { file: (await updateFileMeta(tx, orgId, input.fileId, patch, now))!, replaced };
    });
    return toWrittenRecord(written, config);
  },
});
