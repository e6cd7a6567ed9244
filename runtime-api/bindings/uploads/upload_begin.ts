// upload_begin: reserve an upload (quota-checked) and learn how to send it: parts of exactly 8 MiB (the last one
// carries the remainder) PUT to `partUrl`, then upload_complete.
import * as v from 'valibot';
import { defineBinding } from '../../define.ts';
import { beginUpload, MAX_UPLOAD_BYTES, PART_SIZE } from '../../services/uploads.ts';
import { Executable, FileName, FileSize, MediaType, ModifiedAt, modifiedAtDate } from '../files/schemas.ts';

export const upload_begin = defineBinding({
  name: 'upload_begin',
  summary: 'Reserve an upload of `size` bytes; returns the part size, part count and the URL to PUT parts to.',
  pt: {
    summary: 'Reserva um envio de `size` bytes; devolve o tamanho e o número de partes e o endereço para onde enviá-las (PUT).',
    aliases: ['enviar arquivo', 'envio', 'upload', 'subir arquivo', 'arquivo grande', 'carregar arquivo'],
  },
  description:
    'Send part n (1-based) as `PUT partUrl` (with {partNumber} replaced) with a Bearer token, Content-Type application/octet-stream ' +
    'and exactly `partSize` bytes, except the last part, which carries the remainder. Parts may be sent in any order and in parallel, ' +
    'and re-sent until completion; an optional Content-MD5 or Content-Digest (sha-256) is verified. Then call upload_complete. ' +
    'The reservation counts against the quota until it completes, is aborted, or expires at `expiresAt`. ' +
    'On completion the file takes the path `name`: a file already there is replaced and moves to the trash (restorable). ' +
    'A path inside a file, or a path that is a folder of other files, answers 409 folder_conflict (here and again at completion). ' +
    '`modifiedAt` and `executable` are carried to the file (defaults: the completion time, false).',
  aliases: ['upload', 'send file', 'put file', 'large file', 'binary', 'import file'],
  examples: [
    'const u = await upload_begin({ name: "data/big.csv", mediaType: "text/csv", size: 20000000 });\nreturn { uploadId: u.uploadId, parts: u.partCount, url: u.partUrl };',
  ],
  input: v.strictObject({
    name: FileName,
    mediaType: v.pipe(
      v.optional(MediaType, 'application/octet-stream'),
      v.description('Media type of the file (default application/octet-stream); returned as Content-Type on download.'),
    ),
    size: v.pipe(FileSize, v.maxValue(MAX_UPLOAD_BYTES, `at most ${MAX_UPLOAD_BYTES} bytes (10,000 parts)`), v.description('Exact size of the file in bytes.')),
    modifiedAt: v.optional(ModifiedAt),
    executable: v.optional(Executable),
  }),
  output: v.object({
    id: v.pipe(v.string(), v.description('The same as `uploadId`.')),
    uploadId: v.pipe(v.string(), v.description('Reservation id (`upl_…`) for parts, upload_status, upload_complete and upload_abort.')),
    fileId: v.pipe(v.string(), v.description('The id the file will have once completed (a file it replaces keeps its own id, in the trash).')),
    partSize: v.pipe(v.literal(PART_SIZE), v.description('Bytes per part: 8,388,608 (8 MiB); the final part carries the remainder.')),
    partCount: v.pipe(v.number(), v.description('Number of parts, 1 to 10,000 (a 0-byte file has one empty part).')),
    lastPartSize: v.pipe(v.number(), v.description('Exact size of the final part.')),
    expiresAt: v.pipe(v.string(), v.description('When the reservation lapses (ISO 8601); afterwards parts and completion answer 410 upload_expired.')),
    partUrl: v.pipe(v.string(), v.description('URL template for parts: replace `{partNumber}` and PUT the bytes.')),
  }),
  scope: 'files:write',
  writes: true,
  async handler(input, deps) {
    const m = deps.caller.membership!;
    const u = await beginUpload(
      deps,
      { orgId: m.orgId, userId: deps.caller.userId },
      { name: input.name, mediaType: input.mediaType, byteLength: input.size, executable: input.executable, modifiedAt: modifiedAtDate(input.modifiedAt) },
    );
    return {
      id: u.id,
      uploadId: u.id,
      fileId: u.fileId,
      partSize: PART_SIZE,
      partCount: u.partCount,
      lastPartSize: u.byteLength - (u.partCount - 1) * u.partSize,
      expiresAt: u.expiresAt.toISOString(),
      partUrl: `${deps.config.publicBaseUrl}/v1/mcp/uploads/${u.id}/parts/{partNumber}`,
    };
  },
});
