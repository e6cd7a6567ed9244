// files_get: one file of the organization, active or trashed.
import * as v from 'valibot';
import { defineBinding } from '../../define.ts';
import { findFile } from '../../store/files.ts';
import { fileNotFound } from '../../services/files-messages.ts';
import { FileId, FileRecord, toFileRecord } from './schemas.ts';

export const files_get = defineBinding({
  name: 'files_get',
  summary: "Get one file's record (name, media type, size, state, dates) by id.",
  aliases: ['details', 'metadata', 'info', 'size', 'stat', 'download link'],
  examples: ['const f = await files_get({ fileId: "fil_..." });\nreturn [f.path, f.size, f.state];'],
  input: v.strictObject({ fileId: FileId }),
  output: FileRecord,
  scope: 'files:read',
  writes: false,
  async handler(input, { sql, caller, config }) {
    const row = await findFile(sql, caller.membership!.orgId, input.fileId);
    if (!row) throw fileNotFound(input.fileId);
    return toFileRecord(row, config);
  },
});
