// upload_abort: give up an open reservation; its parts are deleted and its bytes no longer count against the quota.
import * as v from 'valibot';
import { defineBinding } from '../../define.ts';
import { abortUpload } from '../../services/uploads.ts';
import { UploadId } from '../files/schemas.ts';

export const upload_abort = defineBinding({
  name: 'upload_abort',
  summary: 'Abort an open upload: its parts are deleted and its reservation released.',
  pt: {
    summary: 'Aborta um envio aberto: suas partes são apagadas e a reserva liberada.',
    aliases: ['cancelar envio', 'parar envio', 'desistir do envio'],
  },
  description: 'A completed or completing upload answers 409 conflict; afterwards the upload id answers 404 not_found.',
  aliases: ['cancel upload', 'stop upload'],
  examples: ['return await upload_abort({ uploadId: "upl_..." });'],
  input: v.strictObject({ uploadId: UploadId }),
  output: v.object({
    id: v.pipe(v.string(), v.description('The same as `uploadId`.')),
    uploadId: v.pipe(v.string(), v.description('The aborted reservation.')),
    state: v.pipe(v.literal('aborted'), v.description('Always `aborted`.')),
  }),
  scope: 'files:write',
  writes: true,
  async handler(input, deps) {
    const u = await abortUpload(deps, deps.caller.membership!.orgId, input.uploadId);
    return { id: u.id, uploadId: u.id, state: 'aborted' as const };
  },
});
