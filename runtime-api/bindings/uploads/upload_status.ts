// upload_status: where an upload stands — which parts arrived and which are missing.
import * as v from 'valibot';
import { defineBinding } from '../../define.ts';
import { uploadStatus } from '../../services/uploads.ts';
import { UploadId } from '../files/schemas.ts';

export const upload_status = defineBinding({
  name: 'upload_status',
  summary: 'The state of an upload: parts received and missing, bytes received, expiry.',
  pt: {
    summary: 'O estado de um envio: partes recebidas e faltantes, bytes recebidos, validade.',
    aliases: ['progresso do envio', 'partes faltando', 'retomar envio', 'andamento do upload'],
  },
  description: 'An expired reservation answers 410 upload_expired; an aborted or unknown one 404 not_found.',
  aliases: ['upload progress', 'missing parts', 'resume upload'],
  examples: ['const s = await upload_status({ uploadId: "upl_..." });\nreturn s.missingParts;'],
  input: v.strictObject({ uploadId: UploadId }),
  output: v.object({
    id: v.pipe(v.string(), v.description('The same as `uploadId`.')),
    uploadId: v.pipe(v.string(), v.description('Reservation id.')),
    state: v.pipe(
      v.picklist(['open', 'completing', 'completed', 'importing', 'imported']),
      v.description(
        '`open` (accepts parts), `completing` (being assembled), `completed`, `importing` (files_import is reading it as an archive) or `imported` (its entries are files; it became no file itself).',
      ),
    ),
    name: v.pipe(v.string(), v.description('Full path the file will have.')),
    path: v.pipe(v.string(), v.description('The same as `name`.')),
    mediaType: v.pipe(v.string(), v.description('Media type the file will have.')),
    size: v.pipe(v.number(), v.description('Declared size in bytes.')),
    partSize: v.pipe(v.number(), v.description('Bytes per part (8,388,608).')),
    partCount: v.pipe(v.number(), v.description('Number of parts.')),
    receivedParts: v.pipe(v.array(v.number()), v.description('Part numbers stored so far, ascending.')),
    missingParts: v.pipe(v.array(v.number()), v.description('Part numbers still to send, ascending (empty unless open).')),
    receivedBytes: v.pipe(v.number(), v.description('Bytes stored so far.')),
    expiresAt: v.pipe(v.string(), v.description('When the reservation lapses (ISO 8601).')),
    fileId: v.pipe(v.nullable(v.string()), v.description("The file's id once completed, else null.")),
  }),
  scope: 'files:read',
  writes: false,
  async handler(input, deps) {
    const { upload, received, missing } = await uploadStatus(deps, deps.caller.membership!.orgId, input.uploadId);
    return {
      id: upload.id,
      uploadId: upload.id,
      state: upload.state as 'open' | 'completing' | 'completed' | 'importing' | 'imported',
      name: upload.name,
      path: upload.name,
      mediaType: upload.mediaType,
      size: upload.byteLength,
      partSize: upload.partSize,
      partCount: upload.partCount,
      receivedParts: received.map((p) => p.partNumber),
      missingParts: missing,
      receivedBytes: received.reduce((n, p) => n + p.byteLength, 0),
      expiresAt: upload.expiresAt.toISOString(),
      fileId: upload.state === 'completed' ? upload.fileId : null,
    };
  },
});
