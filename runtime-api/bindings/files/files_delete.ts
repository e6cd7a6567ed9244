// files_delete: delete a trashed file permanently (bytes and record). Active files must be trashed first.
import * as v from 'valibot';
import { defineBinding } from '../../define.ts';
import { deleteFile } from '../../services/trash.ts';
import { FileId } from './schemas.ts';

export const files_delete = defineBinding({
  name: 'files_delete',
  summary: 'Permanently delete a file that is in the trash.',
  pt: {
    summary: 'Apaga para sempre um arquivo que está na lixeira.',
    aliases: ['excluir definitivamente', 'apagar de vez', 'esvaziar lixeira', 'destruir', 'eliminar'],
  },
  description:
    'Only trashed files can be deleted (an active one answers 409 conflict: call files_trash first). This cannot be undone; the quota is freed at once.',
  aliases: ['purge', 'erase', 'delete permanently', 'empty trash', 'destroy'],
  examples: ['await files_trash({ fileId: "fil_..." });\nreturn await files_delete({ fileId: "fil_..." });'],
  input: v.strictObject({ fileId: FileId }),
  output: v.object({
    id: v.pipe(v.string(), v.description("The deleted file's id; the same as `fileId`.")),
    fileId: v.pipe(v.string(), v.description("The deleted file's id.")),
    deleted: v.pipe(v.literal(true), v.description('Always true.')),
    size: v.pipe(v.number(), v.description('Bytes freed.')),
  }),
  scope: 'files:write',
  writes: true,
  async handler(input, deps) {
    const file = await deleteFile(deps, deps.caller.membership!.orgId, input.fileId);
    return { id: file.id, fileId: file.id, deleted: true as const, size: file.byteLength };
  },
});
