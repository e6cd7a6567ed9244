// files_read_text: the content of a small UTF-8 text file (at most config textFileMaxBytes, 1 MiB by default).
import * as v from 'valibot';
import { defineBinding } from '../../define.ts';
import { fileIdOf, readSmallFile } from '../../services/files.ts';
import { notUtf8Text } from '../../services/files-messages.ts';
import { FileIdentity, fileIdentity, fileRefEntries, oneFileRef } from './schemas.ts';

export const files_read_text = defineBinding({
  name: 'files_read_text',
  summary: 'Read a small UTF-8 text file (up to 1 MiB by default) as a string.',
  pt: {
    summary: 'Lê um arquivo de texto UTF-8 pequeno (até 1 MiB por padrão) como string.',
    aliases: ['abrir', 'ler', 'ver', 'conteúdo', 'texto do arquivo', 'ler arquivo'],
  },
  description:
    'Give `fileId`, or `name` (the path of an active file). Larger files, or bytes that are not valid UTF-8, answer 400 invalid_input: download those instead. Trashed files can be read too.',
  aliases: ['open', 'read', 'view', 'cat', 'content', 'text of a file'],
  examples: [
    'const { text } = await files_read_text({ fileId: "fil_..." });\nreturn text.split("\\n").length;',
    'const { text } = await files_read_text({ name: "notes/todo.md" });\nreturn text;',
  ],
  input: oneFileRef(v.strictObject(fileRefEntries('The path of an active file, e.g. `notes/todo.md`.'))),
  output: v.object({
    ...FileIdentity,
    mediaType: v.pipe(v.string(), v.description('Stored media type.')),
    size: v.pipe(v.number(), v.description('Size in bytes (UTF-8).')),
    text: v.pipe(v.string(), v.description('The content, decoded as UTF-8 (a leading BOM is dropped).')),
  }),
  scope: 'files:read',
  writes: false,
  async handler(input, { sql, blobs, caller, config, signal }) {
    const fileId = await fileIdOf(sql, caller.membership!.orgId, input);
    const { file, bytes } = await readSmallFile({ sql, blobs, caller, config, signal }, fileId, 'files_read_text');
    let text: string;
    try {
      text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    } catch {
      throw notUtf8Text();
    }
    return { ...fileIdentity(file), mediaType: file.mediaType, size: file.byteLength, text };
  },
});
