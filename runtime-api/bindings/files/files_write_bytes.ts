// files_write_bytes: create a small file from base64 bytes (binary-safe, at most config textFileMaxBytes decoded).
// Many of these in one script is how clients move batches of small files without a begin/PUT/complete per file.
import * as v from 'valibot';
import { createFileFromBytes } from '../../services/files.ts';
import { defineBinding } from '../../define.ts';
import { bytesTooLarge } from '../../services/files-messages.ts';
import { FileName, FileRecord, MediaType, toFileRecord } from './schemas.ts';

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

export const files_write_bytes = defineBinding({
  name: 'files_write_bytes',
  summary: 'Create a small file from base64-encoded bytes (binary-safe; up to 1 MiB decoded by default).',
  description:
    'For batches of small files: a script may create many. `mediaType` defaults to application/octet-stream. ' +
    'Counts against the storage quota. Larger files go through upload_begin.',
  examples: ['return await files_write_bytes({ name: "img/dot.gif", mediaType: "image/gif", base64: "R0lGODlhAQABAAAAACw=" });'],
  input: v.strictObject({
    name: FileName,
    mediaType: v.optional(MediaType),
    base64: v.pipe(
      v.string(),
      v.regex(BASE64, 'not base64'),
      v.check((s) => s.length % 4 === 0, 'base64 length must be a multiple of 4'),
      v.description('The whole content, base64 (RFC 4648, with padding).'),
    ),
  }),
  output: FileRecord,
  scope: 'files:write',
  writes: true,
  async handler(input, { sql, blobs, clock, caller, config }) {
    const data = Buffer.from(input.base64, 'base64');
    if (data.length > config.textFileMaxBytes) {
      throw bytesTooLarge(data.length, config.textFileMaxBytes);
    }
    const mediaType = input.mediaType ?? 'application/octet-stream';
    return toFileRecord(await createFileFromBytes({ sql, blobs, clock, caller, config }, { name: input.name, mediaType, data }), config);
  },
});
