// files_restore: bring a trashed file back, within the restore window (else 410 restore_expired).
import * as v from 'valibot';
import { defineBinding } from '../../define.ts';
import { restoreFile } from '../../services/trash.ts';
import { FileId, FileRecord, toFileRecord } from './schemas.ts';

export const files_restore = defineBinding({
  name: 'files_restore',
  summary: 'Restore a file from the trash (within 30 days of trashing it).',
  description: 'Restoring an active file changes nothing. After the window the answer is 410 restore_expired.',
  aliases: ['undelete', 'recover', 'untrash', 'bring back'],
  examples: ['return await files_restore({ fileId: "fil_..." });'],
  input: v.strictObject({ fileId: FileId }),
  output: FileRecord,
  scope: 'files:write',
  writes: true,
  async handler(input, deps) {
    return toFileRecord(await restoreFile(deps, deps.caller.membership!.orgId, input.fileId), deps.config);
  },
});
