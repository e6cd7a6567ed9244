// upload: reserve, send 8 MiB parts a few at a time with their SHA-256, complete. The reservation is remembered
// (by path, size, modification time and target name) so that running the same command after an interruption asks
// upload_status and sends only the missing parts.
import { open, stat, type FileHandle } from 'node:fs/promises';
import { basename, extname, resolve } from 'node:path';
import { createHash } from 'node:crypto';
import { CliError, usageError } from '../errors.ts';
import { t } from '../i18n.ts';
import { callBinding } from '../service.ts';
import { stateFiles } from '../config.ts';
import { formatBytes } from '../format.ts';
import { progress } from '../progress.ts';
import type { Api } from '../http.ts';
import type { CommandContext } from '../context.ts';

const MEDIA_TYPES: Record<string, string> = {
  '.txt': 'text/plain; charset=utf-8',
  '.md': 'text/markdown; charset=utf-8',
  '.csv': 'text/csv; charset=utf-8',
  '.json': 'application/json',
  '.html': 'text/html; charset=utf-8',
  '.xml': 'application/xml',
  '.pdf': 'application/pdf',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.svg': 'image/svg+xml',
  '.zip': 'application/zip',
  '.gz': 'application/gzip',
  '.tar': 'application/x-tar',
  '.mp4': 'video/mp4',
  '.mp3': 'audio/mpeg',
  '.xlsx': 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  '.docx': 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
};

/** The media type a local file is sent with: by its extension, else application/octet-stream. */
export function mediaTypeOf(path: string): string {
  return MEDIA_TYPES[extname(path).toLowerCase()] ?? 'application/octet-stream';
}

interface Reservation {
  uploadId: string;
  fileId: string;
  partSize: number;
  partCount: number;
  partUrl: string;
}

interface UploadState extends Reservation {
  server: string;
  path: string;
  size: number;
  mtimeMs: number;
  name: string;
}

const PART_ATTEMPTS = 4;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Statuses worth sending a part again for: the network, the server having a bad moment. */
const transient = (err: unknown) => err instanceof CliError && (err.code === 'network_error' || (err.status !== undefined && err.status >= 500));

async function readPart(fh: FileHandle, r: Reservation, size: number, partNumber: number, path: string): Promise<Buffer> {
  const offset = (partNumber - 1) * r.partSize;
  const length = Math.min(r.partSize, size - offset);
  const buf = Buffer.allocUnsafe(length);
  let got = 0;
  while (got < length) {
    const { bytesRead } = await fh.read(buf, got, length - got, offset + got);
    if (bytesRead === 0) throw new CliError('file_changed', t('fileChanged', { path }));
    got += bytesRead;
  }
  return buf;
}

export async function sendPart(api: Api, r: Pick<Reservation, 'partUrl'>, partNumber: number, data: Buffer, signal: AbortSignal): Promise<void> {
  const digest = `sha-256=:${createHash('sha256').update(data).digest('base64')}:`;
  const url = r.partUrl.replace('{partNumber}', String(partNumber));
  for (let attempt = 1; ; attempt++) {
    try {
      const res = await api.raw(url, { method: 'PUT', body: data, signal, headers: { 'content-type': 'application/octet-stream', 'content-digest': digest } });
      await res.body.dump();
      return;
    } catch (err) {
      if (signal.aborted || attempt >= PART_ATTEMPTS || !transient(err)) throw err;
      await sleep(250 * 2 ** attempt);
    }
  }
}

/** An open reservation to continue (with the parts it still misses), or null to start over. */
async function resumable(ctx: CommandContext, api: Api, state: UploadState): Promise<{ missing: number[]; fileId?: string; completing?: boolean } | null> {
  try {
    const status = await callBinding(api, 'upload_status', { uploadId: state.uploadId });
    if (status.state === 'completed') return { missing: [], fileId: status.fileId };
    if (status.state === 'completing') return { missing: [], completing: true };
    return { missing: status.missingParts };
  } catch (err) {
    if (err instanceof CliError && (err.code === 'not_found' || err.code === 'upload_expired')) {
      ctx.io.err(`${t('reservationGone', { uploadId: state.uploadId, code: err.code })}\n`);
      return null;
    }
    throw err;
  }
}

/** Complete; a concurrent or earlier completion (409 conflict) is waited for through upload_status. */
async function complete(api: Api, uploadId: string): Promise<any> {
  try {
    return (await callBinding(api, 'upload_complete', { uploadId })).file;
  } catch (err) {
    if (!(err instanceof CliError) || err.code !== 'conflict') throw err;
    for (let i = 0; i < 120; i++) {
      const status = await callBinding(api, 'upload_status', { uploadId });
      if (status.state === 'completed' && status.fileId) return callBinding(api, 'files_get', { fileId: status.fileId });
      if (status.state === 'open') return (await callBinding(api, 'upload_complete', { uploadId })).file;
      await sleep(500);
    }
    throw err;
  }
}

/** The upload command's body. The file keeps the local file's modification time and executable bit, as rclone keeps them. */
export async function runUpload(ctx: CommandContext, values: Record<string, string | boolean | undefined>, [pathArg]: string[]): Promise<number> {
  const parallel = values.parallel === undefined ? 4 : Number(values.parallel);
  if (!Number.isInteger(parallel) || parallel < 1 || parallel > 16) throw usageError('--parallel: a number from 1 to 16');
  const path = resolve(pathArg);
  let info;
  try {
    info = await stat(path);
  } catch (err) {
    throw new CliError('file_unreadable', t('fileNotReadable', { path: pathArg, detail: (err as NodeJS.ErrnoException).code ?? String(err) }), {
      resolution: t('fileNotReadableHelp'),
    });
  }
  if (!info.isFile())
    throw new CliError('file_unreadable', t('fileNotReadable', { path: pathArg, detail: 'not a regular file' }), { resolution: t('fileNotReadableHelp') });
  const name = (values.name as string | undefined) ?? basename(path);
  const mediaType = (values.type as string | undefined) ?? mediaTypeOf(path);
  const api = await ctx.api();
  const key = createHash('sha256')
    .update(JSON.stringify([api.server, path, name, mediaType]))
    .digest('hex')
    .slice(0, 32);

  let state = await stateFiles.read<UploadState>('uploads', key);
  let missing: number[] | null = null;
  let resumed = false;
  if (state && (state.size !== info.size || state.mtimeMs !== info.mtimeMs)) {
    ctx.io.err(`${t('fileChanged', { path: pathArg })}\n`);
    // The old reservation would hold quota until it expires.
    await callBinding(api, 'upload_abort', { uploadId: state.uploadId }).catch(() => null);
    state = null;
  }
  if (state) {
    const found = await resumable(ctx, api, state);
    if (found?.fileId) {
      await stateFiles.remove('uploads', key);
      const file = await callBinding(api, 'files_get', { fileId: found.fileId });
      return finish(ctx, file, { uploadId: state.uploadId, resumed: true, partsSent: 0, partsSkipped: state.partCount });
    }
    if (found) {
      missing = found.missing;
      resumed = true;
      ctx.io.err(`${t('uploadResuming', { uploadId: state.uploadId, have: state.partCount - missing.length, total: state.partCount })}\n`);
    } else {
      state = null;
    }
  }
  if (!state) {
    const kept = { modifiedAt: new Date(Math.round(info.mtimeMs)).toISOString(), executable: process.platform !== 'win32' && (info.mode & 0o100) !== 0 };
    const r = await callBinding<Reservation>(api, 'upload_begin', { name, mediaType, size: info.size, ...kept });
    state = {
      uploadId: r.uploadId,
      fileId: r.fileId,
      partSize: r.partSize,
      partCount: r.partCount,
      partUrl: r.partUrl,
      server: api.server,
      path,
      size: info.size,
      mtimeMs: info.mtimeMs,
      name,
    };
    await stateFiles.write('uploads', key, state);
    missing = Array.from({ length: r.partCount }, (_, i) => i + 1);
    ctx.io.err(`${t('uploadStarting', { name, size: formatBytes(info.size), uploadId: r.uploadId, total: r.partCount })}\n`);
  }
  const reservation = state;
  const todo = missing!;
  const already = reservation.partCount - todo.length;
  const alreadyBytes =
    already === 0 ? 0 : info.size - todo.reduce((sum, n) => sum + Math.min(reservation.partSize, info.size - (n - 1) * reservation.partSize), 0);
  const bar = progress(info.size, alreadyBytes, { tty: ctx.io.stderrIsTTY, write: ctx.io.err, label: basename(name) });

  const signal = ctx.interrupt.signal;
  const fh = await open(path, 'r');
  let done = alreadyBytes;
  try {
    const queue = [...todo];
    const worker = async () => {
      for (let n = queue.shift(); n !== undefined; n = queue.shift()) {
        if (signal.aborted) return;
        const data = await readPart(fh, reservation, info.size, n, pathArg);
        await sendPart(api, reservation, n, data, signal);
        done += data.length;
        bar.add(data.length);
        bar.line(t('partStored', { part: n, total: reservation.partCount, done: formatBytes(done), size: formatBytes(info.size) }));
      }
    };
    await Promise.all(Array.from({ length: Math.min(parallel, todo.length) }, worker));
  } finally {
    await fh.close();
  }
  if (signal.aborted) throw signal.reason;
  bar.done();
  const file = await complete(api, reservation.uploadId);
  await stateFiles.remove('uploads', key);
  return finish(ctx, file, { uploadId: reservation.uploadId, resumed, partsSent: todo.length, partsSkipped: already });
}

function finish(ctx: CommandContext, file: any, extra: Record<string, unknown>): number {
  if (ctx.json) ctx.printJson({ ...file, ...extra });
  else ctx.io.out(`${t('uploadDone', { name: file.name, fileId: file.fileId, size: formatBytes(file.size) })}\n`);
  return 0;
}
