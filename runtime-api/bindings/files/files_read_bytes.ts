// files_read_bytes: the content of a small file as base64 (binary-safe; at most config textFileMaxBytes), so that
// a script can fetch many small files in one execution instead of one download request each.
import * as v from 'valibot';
import { defineBinding } from '../../define.ts';
import { ServiceError, l10n } from '../../errors.ts';
import { findFile } from '../../store/files.ts';
import { notFound } from '../../services/trash.ts';
import { storageFailure } from '../../services/uploads.ts';
import { FileId } from './schemas.ts';

export const files_read_bytes = defineBinding({
  name: 'files_read_bytes',
  summary: 'Read a small file (up to 1 MiB by default) as base64; binary-safe.',
  description: 'Larger files answer 400 invalid_input: download those instead. Trashed files can be read too.',
  examples: ['const { base64, crc32 } = await files_read_bytes({ fileId: "fil_..." });\nreturn { bytes: base64.length * 3 / 4, crc32 };'],
  input: v.strictObject({ fileId: FileId }),
  output: v.object({
    fileId: v.pipe(v.string(), v.description('File id.')),
    name: v.pipe(v.string(), v.description('File name.')),
    byteLength: v.pipe(v.number(), v.description('Size in bytes.')),
    crc32: v.pipe(v.nullable(v.string()), v.description('Hex CRC-32 of the content, to verify it.')),
    base64: v.pipe(v.string(), v.description('The content, base64 with padding.')),
  }),
  scope: 'files:read',
  writes: false,
  async handler(input, { sql, blobs, caller, config }) {
    const file = await findFile(sql, caller.membership!.orgId, input.fileId);
    if (!file) throw notFound(input.fileId);
    if (file.byteLength > config.textFileMaxBytes) {
      throw new ServiceError('invalid_input', {
        resolution: l10n(`\`fileId\`: the file has ${file.byteLength} bytes; files_read_bytes reads at most ${config.textFileMaxBytes}. Download it from ${config.publicBaseUrl}/v1/mcp/files/${file.id}/download instead.`,
          `\`fileId\`: o arquivo tem ${file.byteLength} bytes; files_read_bytes lê no máximo ${config.textFileMaxBytes}. Baixe-o de ${config.publicBaseUrl}/v1/mcp/files/${file.id}/download.`),
      });
    }
    const chunks: Buffer[] = [];
    try {
      for await (const chunk of await blobs.read(file.blobKey)) chunks.push(chunk as Buffer);
    } catch (err) {
      throw storageFailure(err);
    }
    return { fileId: file.id, name: file.name, byteLength: file.byteLength, crc32: file.crc32 ?? null, base64: Buffer.concat(chunks).toString('base64') };
  },
});
