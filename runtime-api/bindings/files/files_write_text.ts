// files_write_text: write a small text file at a path, or new content into a file given by id (at most config
// textFileMaxBytes of UTF-8). The new bytes are written first under a fresh blob key; the catalogue then points at
// them in one transaction (quota-checked under the organization's lock). Either way the previous version is kept in
// the trash: by path it is the file that was there; by id it is a copy of the file's old state under a new id.
import { crc32Hex } from '../../crc32-combine.ts';
import { createHash } from 'node:crypto';
import * as v from 'valibot';
import { createFileFromBytes } from '../../services/files.ts';
import { defineBinding } from '../../define.ts';
import { newId } from '../../ids.ts';
import { findFile, inTransaction, insertFile, replaceContent } from '../../store/files.ts';
import { assertQuota } from '../../services/quota.ts';
import { clearPathFor, numberedLabel } from '../../services/paths.ts';
import { fileInTrash, fileNotFound, textTooLarge } from '../../services/files-messages.ts';
import { deleteBlobsAfterCommit } from '../../services/trash.ts';
import { storageFailure } from '../../services/uploads.ts';
import { Executable, FileId, FileName, MediaType, ModifiedAt, modifiedAtDate, toWrittenRecord, WrittenFileRecord } from './schemas.ts';

const DEFAULT_TEXT_TYPE = 'text/plain; charset=utf-8';

export const files_write_text = defineBinding({
  name: 'files_write_text',
  summary: 'Write a small UTF-8 text file at a path (replacing the file there), or new text into a file by id (up to 1 MiB by default).',
  pt: {
    summary: 'Grava um arquivo de texto UTF-8 pequeno num caminho (substituindo o que estiver lá), ou texto novo num arquivo pelo id (até 1 MiB por padrão).',
    aliases: ['salvar', 'criar arquivo', 'novo arquivo', 'escrever', 'editar', 'sobrescrever', 'anotação', 'nota'],
  },
  description:
    'With `name` (and no `fileId`) the text becomes the file at that path: a new file, or, when the path holds one, a new file that replaces it ' +
    '(the old one moves to the trash and stays restorable; `replacedFileId` names it). `mediaType` defaults to text/plain; charset=utf-8 and `executable` to false. ' +
    'With `fileId` the file keeps its id and gets the new text (and `name` / `mediaType` / `executable` if given); its previous content is kept in the trash as `replacedFileId`. ' +
    'Giving a `fileId` a `name` another active file holds answers 409 path_taken (files_update moves files and takes `onConflict`). ' +
    'A path inside a file, or a path that is a folder of other files, answers 409 folder_conflict. Counts against the storage quota, replaced versions in the trash included.',
  aliases: ['save', 'create file', 'new file', 'write', 'edit', 'overwrite', 'note', 'put'],
  examples: [
    'return await files_write_text({ name: "notes/todo.md", mediaType: "text/markdown", text: "# To do\\n" });',
    'const { text } = await files_read_text({ fileId: "fil_..." });\nreturn await files_write_text({ fileId: "fil_...", text: text + "\\nmore" });',
    'return await files_write_text({ name: "bin/run.sh", text: "#!/bin/sh\\necho hi\\n", executable: true, modifiedAt: "2026-03-31T14:05:00Z" });',
  ],
  input: v.pipe(
    v.strictObject({
      fileId: v.optional(FileId),
      name: v.optional(FileName),
      mediaType: v.optional(MediaType),
      text: v.pipe(v.string(), v.description('The whole new content; stored as UTF-8.')),
      modifiedAt: v.optional(ModifiedAt),
      executable: v.optional(Executable),
    }),
    v.check((i) => i.fileId !== undefined || i.name !== undefined, 'give `name` to write the file at that path, or `fileId` to write into a file'),
  ),
  output: WrittenFileRecord,
  scope: 'files:write',
  writes: true,
  async handler(input, { sql, blobs, clock, caller, config }) {
    const orgId = caller.membership!.orgId;
    const data = Buffer.from(input.text, 'utf8');
    if (data.length > config.textFileMaxBytes) {
      throw textTooLarge(data.length, config.textFileMaxBytes);
    }
    const modifiedAt = modifiedAtDate(input.modifiedAt);
    if (!input.fileId) {
      const mediaType = input.mediaType ?? DEFAULT_TEXT_TYPE;
      const written = await createFileFromBytes(
        { sql, blobs, clock, caller, config },
        { name: input.name!, mediaType, data, modifiedAt, executable: input.executable },
      );
      return toWrittenRecord(written, config);
    }
    const existing = await findFile(sql, orgId, input.fileId);
    if (!existing) throw fileNotFound(input.fileId);
    const fileId = input.fileId;
    const sha256 = createHash('sha256').update(data).digest('hex');
    const blobKey = `${orgId}/${newId('blb')}`;
    try {
      await blobs.write(blobKey, data, { contentType: input.mediaType ?? existing.mediaType });
    } catch (err) {
      throw storageFailure(err);
    }
    try {
      const written = await inTransaction(sql, async (tx) => {
        const now = clock.now();
        // The lock first (services/paths.ts); the old content stays in the trash, so nothing is released.
        await assertQuota(tx, orgId, config.quotaBytes, now, data.length);
        const file = await findFile(tx, orgId, fileId, 'update');
        if (!file) throw fileNotFound(fileId);
        if (file.state !== 'active') {
          throw fileInTrash(fileId, file.state);
        }
        if (input.name !== undefined && input.name !== file.name) {
          await clearPathFor(tx, orgId, input.name, { onConflict: 'fail', operation: 'write', fileId, now, renameLabel: numberedLabel });
        }
        const updated = await replaceContent(
          tx,
          orgId,
          fileId,
          {
            blobKey,
            byteLength: data.length,
            sha256,
            crc32: crc32Hex(data),
            modifiedAt: modifiedAt ?? now,
            name: input.name,
            mediaType: input.mediaType,
            executable: input.executable,
          },
          now,
        );
        // The content this write replaced, kept in the trash under a new id (its bytes keep their blob).
        const previous = await insertFile(tx, { ...file, id: newId('fil'), state: 'trashed', trashedAt: now, updatedAt: now });
        return { file: updated!, replaced: previous };
      });
      return toWrittenRecord(written, config);
    } catch (err) {
      await deleteBlobsAfterCommit(sql, blobs, [blobKey]);
      throw err;
    }
  },
});
