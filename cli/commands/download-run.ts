// download: stream a file to disk with progress. Bytes go to `<out>.part` beside a small record of the file's
// ETag; after an interruption, running the command again asks for the rest with Range + If-Range, so a file that
// changed meanwhile is sent whole instead of being spliced. The result is checked against the announced length,
// the ETag of every response, and the catalogue's checksums: CRC-32 (every file) and SHA-256 (when known).
import { createReadStream, createWriteStream } from 'node:fs';
import { readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { basename } from 'node:path';
import { createHash } from 'node:crypto';
import { crc32 } from 'node:zlib';
import { pipeline } from 'node:stream/promises';
import { Transform } from 'node:stream';
import { CliError, usageError } from '../errors.ts';
import { lang, t } from '../i18n.ts';
import { callBinding } from '../service.ts';
import { header } from '../http.ts';
import { formatBytes } from '../format.ts';
import { progress } from '../progress.ts';
import type { Api } from '../http.ts';
import type { CommandContext } from '../context.ts';
import { resolveFileIds } from '../resolve.ts';
import { applyMeta } from '../transfer/local-write.ts';

interface PartialRecord {
  fileId: string;
  etag: string;
  size: number;
}

/** The catalogue's CRC-32 format: 8 hex digits. */
const crcHex = (crc: number) => crc.toString(16).padStart(8, '0');

/** SHA-256 and CRC-32 (hex) of a file, in one read. */
async function digestsOf(path: string): Promise<{ sha256: string; crc32: string }> {
  const hash = createHash('sha256');
  let crc = 0;
  for await (const chunk of createReadStream(path)) {
    hash.update(chunk as Buffer);
    crc = crc32(chunk as Buffer, crc);
  }
  return { sha256: hash.digest('hex'), crc32: crcHex(crc) };
}

/** The catalogue's checksums (CRC-32 for every file, SHA-256 when known) against what arrived. */
function matches(file: { sha256: string | null; crc32?: string | null }, got: { sha256: string; crc32: string }): boolean {
  return (!file.sha256 || file.sha256 === got.sha256) && (!file.crc32 || file.crc32 === got.crc32);
}

/** The last segment of a catalogue name, safe as a local file name. */
function localName(name: string): string {
  const last = name.split('/').pop() || 'download';
  return last.replace(/[\u0000-\u001f\u007f\\:]/g, '_').replace(/^\.+$/, '_');
}

async function readRecord(path: string): Promise<PartialRecord | null> {
  try {
    return JSON.parse(await readFile(path, 'utf8')) as PartialRecord;
  } catch {
    return null;
  }
}

/** `-o -`: the bytes to stdout (for pipes); nothing to resume, the SHA-256 still checked when known. */
async function toStdout(
  ctx: CommandContext,
  api: Api,
  file: { downloadUrl: string; sha256: string | null; crc32?: string | null; size: number },
): Promise<number> {
  const res = await api.raw(file.downloadUrl, { signal: ctx.interrupt.signal });
  const hash = createHash('sha256');
  let size = 0;
  let crc = 0;
  for await (const chunk of res.body) {
    hash.update(chunk as Buffer);
    crc = crc32(chunk as Buffer, crc);
    size += (chunk as Buffer).length;
    if (ctx.io.out(chunk as Buffer) === false) await new Promise((r) => process.stdout.once('drain', r));
  }
  if (size !== file.size) throw new CliError('incomplete_download', t('sizeMismatch', { got: size, want: file.size }), { resolution: t('networkHelp') });
  if (!matches(file, { sha256: hash.digest('hex'), crc32: crcHex(crc) }))
    throw new CliError('digest_mismatch', t('digestMismatch'), { resolution: t('networkHelp') });
  return 0;
}

export async function runDownload(ctx: CommandContext, values: Record<string, string | boolean | undefined>, [arg]: string[]): Promise<number> {
  // stdout carries the file's bytes then: a JSON report there would corrupt them.
  if (values.output === '-' && ctx.json)
    throw usageError(
      lang() === 'pt-BR'
        ? '-o - e --json se excluem: a saída padrão leva os bytes do arquivo'
        : "-o - and --json exclude each other: stdout carries the file's bytes",
    );
  const api = await ctx.api();
  const [fileId] = await resolveFileIds(api, [arg]);
  const file = await callBinding(api, 'files_get', { fileId });
  const out = (values.output as string | undefined) ?? localName(file.name);
  if (out === '-') return toStdout(ctx, api, file);
  const partPath = `${out}.part`;
  const recordPath = `${out}.part.json`;

  const record = await readRecord(recordPath);
  let start = 0;
  if (record && record.fileId === fileId) start = (await stat(partPath).catch(() => null))?.size ?? 0;
  if (start > file.size) start = 0; // not a prefix of this file: fetch it whole
  const headers: Record<string, string> = {};
  if (start > 0 && record) {
    headers.range = `bytes=${start}-`;
    headers['if-range'] = record.etag;
  }

  const signal = ctx.interrupt.signal;
  const res = await api.raw(file.downloadUrl, { headers, signal, accept: [206, 416] });
  const etag = header(res, 'etag') ?? '';
  if (res.status === 416) {
    // Everything was already here: Range asked for bytes past the end.
    await res.body.dump();
  } else if (res.status === 206) {
    // If-Range already asked for this; a server that ignored it must not get its bytes spliced onto ours.
    if (etag !== record!.etag) {
      await res.body.dump();
      throw new CliError('conflict', t('downloadRestart'));
    }
    ctx.io.err(`${t('downloadResuming', { done: formatBytes(start), size: formatBytes(file.size) })}\n`);
  } else {
    if (start > 0) ctx.io.err(`${t('downloadRestart')}\n`);
    start = 0;
  }
  const total = res.status === 206 || res.status === 416 ? file.size : Number(header(res, 'content-length') ?? file.size);
  await writeFile(recordPath, JSON.stringify({ fileId, etag: res.status === 416 ? record!.etag : etag, size: total } satisfies PartialRecord));

  if (res.status !== 416) {
    const bar = progress(total, start, { tty: ctx.io.stderrIsTTY, write: ctx.io.err, label: basename(out) });
    const count = new Transform({
      transform(chunk: Buffer, _enc, cb) {
        bar.add(chunk.length);
        cb(null, chunk);
      },
    });
    try {
      await pipeline(res.body, count, createWriteStream(partPath, { flags: start > 0 ? 'a' : 'w' }), { signal });
    } catch (err) {
      if (signal.aborted) throw signal.reason;
      throw new CliError('network_error', t('network', { server: api.server, detail: (err as NodeJS.ErrnoException).code ?? (err as Error).message }), {
        resolution: t('networkHelp'),
      });
    }
    bar.done();
  }
  const size = (await stat(partPath)).size;
  if (size !== total) throw new CliError('incomplete_download', t('sizeMismatch', { got: size, want: total }), { resolution: t('networkHelp') });
  const got = await digestsOf(partPath);
  const { sha256 } = got;
  if (!matches(file, got)) {
    await rm(partPath, { force: true });
    await rm(recordPath, { force: true });
    throw new CliError('digest_mismatch', t('digestMismatch'), { resolution: t('digestMismatchHelp', { path: out }) });
  }
  await rename(partPath, out);
  await rm(recordPath, { force: true });
  // The file's modification time and executable bit come along, as rclone brings them.
  const modified = typeof file.modifiedAt === 'string' ? Date.parse(file.modifiedAt) : Number.NaN;
  await applyMeta(out, { mtimeMs: Number.isFinite(modified) ? modified : null, executable: file.executable === true });
  if (ctx.json) ctx.printJson({ fileId, path: out, size, sha256, etag, resumedFrom: res.status === 206 ? start : 0 });
  else ctx.io.out(`${t('downloadDone', { fileId, path: out, size: formatBytes(size), sha256 })}\n`);
  return 0;
}
