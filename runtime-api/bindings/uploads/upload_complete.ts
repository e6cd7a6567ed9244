// upload_complete: turn a reservation whose parts all arrived into an active file (400 upload_incomplete lists the
// missing parts; a concurrent second completion gets 409 conflict; an expired reservation 410 upload_expired).
import * as v from 'valibot';
import { defineBinding } from '../../define.ts';
import { completeUpload } from '../../services/uploads.ts';
import { FileRecord, toFileRecord, UploadId } from '../files/schemas.ts';

export const upload_complete = defineBinding({
  name: 'upload_complete',
  summary: 'Complete an upload once every part is stored; the file then appears in files_list as active.',
  description: 'Missing parts answer 400 upload_incomplete with `missingParts`. Completing twice answers 409 conflict.',
  aliases: ['finish upload', 'finalize upload', 'commit upload'],
  examples: ['const { file } = await upload_complete({ uploadId: "upl_..." });\nreturn file;'],
  input: v.strictObject({ uploadId: UploadId }),
  output: v.object({
    id: v.pipe(v.string(), v.description('The same as `uploadId`.')),
    uploadId: v.pipe(v.string(), v.description('The completed reservation.')),
    file: v.pipe(FileRecord, v.description('The new file, active.')),
  }),
  scope: 'files:write',
  writes: true,
  async handler(input, deps) {
    const file = await completeUpload(deps, deps.caller.membership!.orgId, input.uploadId);
    return { id: input.uploadId, uploadId: input.uploadId, file: toFileRecord(file, deps.config) };
  },
});
