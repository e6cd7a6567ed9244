// files_write_bytes: write a small file at a path from base64 bytes (binary-safe, at most config textFileMaxBytes
// decoded); a file already at the path is replaced and moves to the trash.
// Many of these in one script is how clients move batches of small files without a begin/PUT/complete per file.
import * as v from 'valibot';
import { createFileFromBytes } from '../../services/files.ts';
import { defineBinding } from '../../define.ts';
import { bytesTooLarge } from '../../services/files-messages.ts';
import { Executable, FileName, MediaType, ModifiedAt, modifiedAtDate, toWrittenRecord, WrittenFileRecord } from './schemas.ts';

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

export const files_write_bytes = defineBinding({
  name: 'files_write_bytes',
  summary: 'Write a small file at a path from base64-encoded bytes (binary-safe; up to 1 MiB decoded by default), replacing the file there.',
  pt: {
    summary:
      'Grava um arquivo pequeno num caminho a partir de bytes em base64 (seguro para binários; até 1 MiB decodificado por padrão), substituindo o arquivo que estiver lá.',
    aliases: ['gravar binário', 'salvar imagem', 'enviar arquivo pequeno', 'criar arquivo binário'],
  },
  description:
    'For batches of small files: a script may write many. A file already at the path is replaced: it moves to the trash, stays restorable, ' +
    'and `replacedFileId` names it. `mediaType` defaults to application/octet-stream, `executable` to false, `modifiedAt` to now. ' +
    'A path inside a file, or a path that is a folder of other files, answers 409 folder_conflict. ' +
    'Counts against the storage quota (replaced versions in the trash too). Larger files go through upload_begin.',
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
    modifiedAt: v.optional(ModifiedAt),
    executable: v.optional(Executable),
  }),
  output: WrittenFileRecord,
  scope: 'files:write',
  writes: true,
  async handler(input, { sql, blobs, clock, caller, config }) {
    const data = Buffer.from(input.base64, 'base64');
    if (data.length > config.textFileMaxBytes) {
      throw bytesTooLarge(data.length, config.textFileMaxBytes);
    }
    const mediaType = input.mediaType ?? 'application/octet-stream';
    const written = await createFileFromBytes(
      { sql, blobs, clock, caller, config },
      { name: input.name, mediaType, data, modifiedAt: modifiedAtDate(input.modifiedAt), executable: input.executable },
    );
    return toWrittenRecord(written, config);
  },
});
