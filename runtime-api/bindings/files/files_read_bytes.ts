// files_read_bytes: the content of a small file as base64 (binary-safe; at most config textFileMaxBytes), so that
// a script can fetch many small files in one execution instead of one download request each.
import * as v from 'valibot';
import { defineBinding } from '../../define.ts';
import { fileIdOf, readSmallFile } from '../../services/files.ts';
import { FileIdentity, fileIdentity, fileRefEntries, oneFileRef } from './schemas.ts';

export const files_read_bytes = defineBinding({
  name: 'files_read_bytes',
  summary: 'Read a small file (up to 1 MiB by default) as base64; binary-safe.',
  pt: {
    summary: 'Lê um arquivo pequeno (até 1 MiB por padrão) em base64; seguro para binários.',
    aliases: ['ler binário', 'baixar arquivo pequeno', 'bytes do arquivo', 'imagem'],
  },
  description: 'Larger files answer 400 invalid_input: download those instead. Trashed files can be read too.',
  examples: ['const { base64, crc32 } = await files_read_bytes({ fileId: "fil_..." });\nreturn { bytes: base64.length * 3 / 4, crc32 };'],
  input: oneFileRef(v.strictObject(fileRefEntries('The path of an active file, e.g. `img/logo.png`.'))),
  output: v.object({
    ...FileIdentity,
    size: v.pipe(v.number(), v.description('Size in bytes.')),
    crc32: v.pipe(v.nullable(v.string()), v.description('Hex CRC-32 of the content, to verify it.')),
    base64: v.pipe(v.string(), v.description('The content, base64 with padding.')),
  }),
  scope: 'files:read',
  writes: false,
  async handler(input, { sql, blobs, caller, config, signal }) {
    const fileId = await fileIdOf(sql, caller.membership!.orgId, input);
    const { file, bytes } = await readSmallFile({ sql, blobs, caller, config, signal }, fileId, 'files_read_bytes');
    return { ...fileIdentity(file), size: file.byteLength, crc32: file.crc32 ?? null, base64: bytes.toString('base64') };
  },
});
