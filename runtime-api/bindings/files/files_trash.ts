// files_trash: move a file to the trash. Its bytes are kept (and still count against the quota) until it is
// restored, deleted, or purged when the restore window closes.
import * as v from 'valibot';
import { defineBinding } from '../../define.ts';
import { trashFile } from '../../services/trash.ts';
import { FileId, FileRecord, toFileRecord } from './schemas.ts';

export const files_trash = defineBinding({
  name: 'files_trash',
  summary: 'Move a file to the trash (restorable for 30 days).',
  pt: {
    summary: 'Move um arquivo para a lixeira (restaurável por 30 dias).',
    aliases: ['apagar', 'excluir', 'remover', 'lixeira', 'jogar fora', 'descartar', 'mandar para a lixeira'],
  },
  description:
    "Trashing a trashed file changes nothing. The record's `restorableUntil` tells when the file will be purged. Its path is free at once; " +
    'if another file takes it meanwhile, files_restore asks what to do (`onConflict`).',
  aliases: ['delete', 'remove', 'bin', 'discard', 'throw away'],
  examples: ['const f = await files_trash({ fileId: "fil_..." });\nreturn f.restorableUntil;'],
  input: v.strictObject({ fileId: FileId }),
  output: FileRecord,
  scope: 'files:write',
  writes: true,
  async handler(input, deps) {
    return toFileRecord(await trashFile(deps, deps.caller.membership!.orgId, input.fileId), deps.config);
  },
});
