// files_trash: move a file to the trash. Its bytes are kept (and still count against the quota) until it is
// restored, deleted, or purged when the restore window closes.
import * as v from 'valibot';
import { defineBinding } from '../../define.ts';
import { trashFile } from '../../services/trash.ts';
import { fileIdOf } from '../../services/files.ts';
import { FileRecord, fileRefEntries, oneFileRef, toFileRecord } from './schemas.ts';

export const files_trash = defineBinding({
  name: 'files_trash',
  summary: 'Move a file to the trash (restorable for 30 days).',
  pt: {
    summary: 'Move um arquivo para a lixeira (restaurável por 30 dias).',
    aliases: ['apagar', 'excluir', 'remover', 'lixeira', 'jogar fora', 'descartar', 'mandar para a lixeira'],
  },
  description:
    "Give `fileId`, or `name` (the path of an active file). Trashing a trashed file changes nothing. The record's `restorableUntil` tells when the file will be purged. Its path is free at once; " +
    'if another file takes it meanwhile, files_restore asks what to do (`onConflict`).',
  aliases: ['delete', 'remove', 'bin', 'discard', 'throw away'],
  examples: ['const f = await files_trash({ fileId: "fil_..." });\nreturn f.restorableUntil;', 'return (await files_trash({ name: "drafts/old.txt" })).state;'],
  input: oneFileRef(v.strictObject(fileRefEntries('The path of the active file to trash.'))),
  output: FileRecord,
  scope: 'files:write',
  writes: true,
  async handler(input, deps) {
    const orgId = deps.caller.membership!.orgId;
    return toFileRecord(await trashFile(deps, orgId, await fileIdOf(deps.sql, orgId, input)), deps.config);
  },
});
