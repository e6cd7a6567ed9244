// upload_complete: turn a reservation whose parts all arrived into the active file at its path, replacing the file
// there, which moves to the trash (400 upload_incomplete lists the
// missing parts; a concurrent second completion gets 409 conflict; an expired reservation 410 upload_expired).
import * as v from 'valibot';
import { defineBinding } from '../../define.ts';
import { completeUpload } from '../../services/uploads.ts';
import { FileRecord, toFileRecord, UploadId } from '../files/schemas.ts';

export const upload_complete = defineBinding({
  name: 'upload_complete',
  summary: 'Complete an upload once every part is stored; the file then is the active file at its path.',
  pt: {
    summary: 'Conclui um envio quando todas as partes chegaram; o arquivo passa a ser o arquivo ativo no seu caminho.',
    aliases: ['concluir envio', 'finalizar envio', 'terminar upload'],
  },
  description:
    'Missing parts answer 400 upload_incomplete with `missingParts`. Completing twice answers 409 conflict. ' +
    'A file already at the path is replaced: it moves to the trash (restorable) and `replacedFileId` names it. ' +
    'A path that now lies inside a file, or is a folder of other files, answers 409 folder_conflict and the upload stays open: move what is in the way, then complete again.',
  aliases: ['finish upload', 'finalize upload', 'commit upload'],
  examples: ['const { file } = await upload_complete({ uploadId: "upl_..." });\nreturn file;'],
  input: v.strictObject({ uploadId: UploadId }),
  output: v.object({
    id: v.pipe(v.string(), v.description('The same as `uploadId`.')),
    uploadId: v.pipe(v.string(), v.description('The completed reservation.')),
    file: v.pipe(FileRecord, v.description('The new file, active.')),
    replacedFileId: v.pipe(
      v.nullable(v.string()),
      v.description('The file that held the path before, now in the trash (restorable with files_restore); null when the path was free.'),
    ),
  }),
  scope: 'files:write',
  writes: true,
  async handler(input, deps) {
    const { file, replaced } = await completeUpload(deps, deps.caller.membership!.orgId, input.uploadId);
    return { id: input.uploadId, uploadId: input.uploadId, file: toFileRecord(file, deps.config), replacedFileId: replaced?.id ?? null };
  },
});
