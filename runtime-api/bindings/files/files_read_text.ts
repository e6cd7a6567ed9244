// files_read_text: the content of a small UTF-8 text file (at most config textFileMaxBytes, 1 MiB by default).
import * as v from 'valibot';
import { defineBinding } from '../../define.ts';
import { ServiceError, l10n } from '../../errors.ts';
import { findFile } from '../../store/files.ts';
import { notFound } from '../../services/trash.ts';
import { storageFailure } from '../../services/uploads.ts';
import { FileId } from './schemas.ts';

export const files_read_text = defineBinding({
  name: 'files_read_text',
  summary: 'Read a small UTF-8 text file (up to 1 MiB by default) as a string.',
  description: 'Larger files, or bytes that are not valid UTF-8, answer 400 invalid_input: download those instead. Trashed files can be read too.',
  examples: ['const { text } = await files_read_text({ fileId: "fil_..." });\nreturn text.split("\\n").length;'],
  input: v.strictObject({ fileId: FileId }),
  output: v.object({
    fileId: v.pipe(v.string(), v.description('File id.')),
    name: v.pipe(v.string(), v.description('File name.')),
    mediaType: v.pipe(v.string(), v.description('Stored media type.')),
    byteLength: v.pipe(v.number(), v.description('Size in bytes (UTF-8).')),
    text: v.pipe(v.string(), v.description('The content, decoded as UTF-8 (a leading BOM is dropped).')),
  }),
  scope: 'files:read',
  writes: false,
  async handler(input, { sql, blobs, caller, config, signal }) {
    const file = await findFile(sql, caller.membership!.orgId, input.fileId);
    if (!file) throw notFound(input.fileId);
    if (file.byteLength > config.textFileMaxBytes) {
      throw new ServiceError('invalid_input', {
        resolution: l10n(`\`fileId\`: the file has ${file.byteLength} bytes; files_read_text reads at most ${config.textFileMaxBytes}. Download it from ${config.publicBaseUrl}/v1/mcp/files/${file.id}/download instead.`,
          `\`fileId\`: o arquivo tem ${file.byteLength} bytes; files_read_text lê no máximo ${config.textFileMaxBytes}. Baixe-o de ${config.publicBaseUrl}/v1/mcp/files/${file.id}/download.`),
      });
    }
    let bytes: Buffer;
    try {
      const chunks: Buffer[] = [];
      for await (const chunk of await blobs.read(file.blobKey)) {
        if (signal?.aborted) break;
        chunks.push(chunk as Buffer);
      }
      bytes = Buffer.concat(chunks);
    } catch (err) {
      throw storageFailure(err);
    }
    signal?.throwIfAborted();
    let text: string;
    try {
      text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    } catch {
      throw new ServiceError('invalid_input', { resolution: l10n('`fileId`: the file is not valid UTF-8 text; download it instead.', '`fileId`: o arquivo não é texto UTF-8 válido; baixe-o.') });
    }
    return { fileId: file.id, name: file.name, mediaType: file.mediaType, byteLength: file.byteLength, text };
  },
});
