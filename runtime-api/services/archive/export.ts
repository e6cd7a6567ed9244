// files_export and its download: the selection (active files under a folder, or a list of them) is fixed when the
// export is made, each file under its path relative to that folder; the download streams them one after another
// into one archive (tar-stream or yazl), reading one file's bytes at a time, so no archive or file is ever whole in
// memory. Tar entries carry the file's modification time and mode 0644 (0755 when executable).
import { Readable } from 'node:stream';
import tar from 'tar-stream';
import yazl from 'yazl';
import type { BlobStore } from '../../blobs/port.ts';
import type { HandlerContext } from '../../define.ts';
import { newId } from '../../ids.ts';
import { type ArchiveFormat, type ExportRow, findExport, insertExport } from '../../store/exports.ts';
import { activeFilesUnder, type FileRow, filesByIds } from '../../store/files.ts';
import type { Sql } from 'postgres';
import { readFileBytes } from '../downloads.ts';
import {
  exportExpired,
  exportFileGone,
  exportFileNotActive,
  exportNotFound,
  exportOutsidePrefix,
  exportPathClash,
  exportTooLarge,
  invalidInto,
} from './messages.ts';
import { foldersOf, intoFolder } from './paths.ts';

type Deps = Pick<HandlerContext, 'sql' | 'clock' | 'config' | 'caller'>;

export interface ExportRequest {
  prefix?: string;
  fileIds?: string[];
  format: ArchiveFormat;
}

/** Fix the selection and its names; the archive itself is made by the download. */
export async function createExport(deps: Deps, request: ExportRequest): Promise<ExportRow> {
  const orgId = deps.caller.membership!.orgId;
  const max = deps.config.archive.maxEntries;
  const folder = intoFolder(request.prefix);
  if ('problem' in folder) throw invalidInto(folder.problem);
  const base = folder.folder ? `${folder.folder}/` : '';
  let files: FileRow[];
  if (request.fileIds) {
    const ids = [...new Set(request.fileIds)];
    if (ids.length > max) throw exportTooLarge(max);
    const found = new Map((await filesByIds(deps.sql, orgId, ids)).map((f) => [f.id, f]));
    files = ids.map((id) => {
      const f = found.get(id);
      if (!f || f.state !== 'active') throw exportFileNotActive(id);
      if (!f.name.startsWith(base)) throw exportOutsidePrefix(id, f.name, folder.folder);
      return f;
    });
    files.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  } else {
    files = await activeFilesUnder(deps.sql, orgId, base, max + 1);
    if (files.length > max) throw exportTooLarge(max);
  }
  const paths = files.map((f) => f.name.slice(base.length));
  const taken = new Set<string>();
  for (const p of paths) {
    if (taken.has(p)) throw exportPathClash(p);
    taken.add(p);
  }
  for (const p of paths) {
    const above = foldersOf(p).find((f) => taken.has(f));
    if (above !== undefined) throw exportPathClash(above);
  }
  const now = deps.clock.now();
  const last = folder.folder.slice(folder.folder.lastIndexOf('/') + 1);
  return insertExport(deps.sql, {
    id: newId('exp'),
    orgId,
    createdBy: deps.caller.userId,
    format: request.format,
    name: `${last || 'files'}.${request.format}`,
    fileIds: files.map((f) => f.id),
    paths,
    bytes: files.reduce((n, f) => n + f.byteLength, 0),
    createdAt: now,
    expiresAt: new Date(now.getTime() + deps.config.archive.exportTtlMs),
  });
}

export interface ExportItem {
  path: string;
  file: FileRow;
}

/** An export of this organization, unexpired, with its files (trashed since is fine: their bytes are kept). */
export async function exportToDownload(sql: Sql, orgId: string, exportId: string, now: Date): Promise<{ row: ExportRow; items: ExportItem[] }> {
  const row = await findExport(sql, orgId, exportId);
  if (!row) throw exportNotFound(exportId);
  if (row.expiresAt.getTime() <= now.getTime()) throw exportExpired(exportId, row.expiresAt);
  const found = new Map((await filesByIds(sql, orgId, row.fileIds)).map((f) => [f.id, f]));
  const items = row.fileIds.map((id, i) => {
    const file = found.get(id);
    if (!file) throw exportFileGone(id);
    return { path: row.paths[i], file };
  });
  return { row, items };
}

const PRECOMPRESSED = /^(image\/(png|jpeg|gif|webp)|audio\/|video\/|application\/(zip|gzip|x-7z-compressed|vnd\.openxmlformats))/;

/** The entry's permission bits: the executable bit decides. */
const modeOf = (file: FileRow) => (file.executable ? 0o755 : 0o644);

/** The archive, streamed: each file's bytes are read when its turn comes; destroying the stream stops the reads. */
export function archiveStream(blobs: BlobStore, format: ArchiveFormat, items: readonly ExportItem[]): Readable {
  return format === 'zip' ? zipStream(blobs, items) : tarStream(blobs, items);
}

function tarStream(blobs: BlobStore, items: readonly ExportItem[]): Readable {
  const pack = tar.pack();
  const out = Readable.from(pack as AsyncIterable<Buffer>);
  const stopped = new AbortController();
  out.once('close', () => {
    stopped.abort();
    pack.destroy();
  });
  (async () => {
    for (const { path, file } of items) {
      if (stopped.signal.aborted) return;
      const source = await readFileBytes(blobs, file);
      const done = new Promise<void>((resolve, reject) => {
        const sink = pack.entry({ name: path, size: file.byteLength, mtime: file.modifiedAt, mode: modeOf(file), type: 'file', uid: 0, gid: 0 }, (err) =>
          err ? reject(err) : resolve(),
        );
        copy(source, sink, stopped.signal).then(() => void sink.end(undefined), reject);
      });
      try {
        await done;
      } finally {
        source.destroy();
      }
    }
    pack.finalize();
  })().catch((err) => {
    if (!stopped.signal.aborted) out.destroy(err);
  });
  return out;
}

/** `source` into a tar entry, waiting whenever the entry says it is full. */
async function copy(
  source: Readable,
  sink: { write(chunk: Buffer): boolean; once(event: 'drain', fn: () => void): unknown },
  signal: AbortSignal,
): Promise<void> {
  for await (const chunk of source) {
    signal.throwIfAborted();
    if (!sink.write(chunk as Buffer)) {
      await new Promise<void>((resolve, reject) => {
        const stop = () => reject(signal.reason);
        signal.addEventListener('abort', stop, { once: true });
        sink.once('drain', () => {
          signal.removeEventListener('abort', stop);
          resolve();
        });
      });
    }
  }
}

function zipStream(blobs: BlobStore, items: readonly ExportItem[]): Readable {
  const zip = new yazl.ZipFile();
  const out = zip.outputStream as Readable;
  let current: Readable | null = null;
  out.once('close', () => current?.destroy());
  zip.on('error', (err: Error) => out.destroy(err));
  for (const { path, file } of items) {
    zip.addReadStreamLazy(
      path,
      { size: file.byteLength, mtime: file.modifiedAt, mode: 0o100000 | modeOf(file), compress: !PRECOMPRESSED.test(file.mediaType) },
      (cb) => {
        if (out.destroyed) return cb(new Error('the download was abandoned'), undefined as never); // open no more files
        readFileBytes(blobs, file).then(
          (stream) => {
            current = stream;
            cb(null, stream);
          },
          (err) => cb(err, undefined as never),
        );
      },
    );
  }
  zip.end();
  return out;
}
