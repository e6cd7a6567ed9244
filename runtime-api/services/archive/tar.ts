// Reading a tar archive (optionally gzip-compressed) with tar-stream: one pass over the stream per walk, an entry's
// body streamed to whoever wants it and skipped otherwise. A gzip stream is counted as it expands, so a small
// archive that inflates without end is stopped at the ratio limit instead of being read to its end.
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGunzip } from 'node:zlib';
import tar from 'tar-stream';
import { ServiceError } from '../../errors.ts';
import { storageFailure } from '../uploads.ts';
import { type ArchiveReader, type EntryKind, RATIO_FLOOR, type ScanLimits, type ScannedEntry } from './entries.ts';
import { corruptArchive, expandsTooMuch, ratioTooHigh, tooManyEntries } from './messages.ts';
import { RAW_NAME_MAX } from './paths.ts';
import type { ArchiveSource } from './source.ts';

type Header = tar.Header;

const SPECIAL: Record<string, string> = {
  'character-device': 'character device',
  'block-device': 'block device',
  fifo: 'fifo',
};

function kindOf(type: Header['type']): { kind: EntryKind; special?: string } {
  switch (type) {
    case 'file':
    case 'contiguous-file':
      return { kind: 'file' };
    case 'directory':
      return { kind: 'folder' };
    case 'symlink':
      return { kind: 'symlink' };
    case 'link':
      return { kind: 'hardlink' };
    default:
      return { kind: 'special', special: (type && SPECIAL[type]) ?? `tar type ${String(type ?? 'unknown')}` };
  }
}

/** Counts what gunzip produces; past either cap the walk fails with that refusal. */
function expansionGuard(archiveBytes: number, limits: ScanLimits): Transform {
  const ratioCap = Math.max(RATIO_FLOOR, limits.maxRatio * archiveBytes);
  // Headers and padding ride along with the entries' bytes: at most 1.5 KiB an entry, plus the end blocks.
  const sizeCap = limits.maxExpandedBytes + (limits.maxEntries + 2) * 1536;
  let seen = 0;
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      seen += chunk.length;
      if (seen > ratioCap) return done(ratioTooHigh(seen / Math.max(1, archiveBytes), limits.maxRatio));
      if (seen > sizeCap) return done(expandsTooMuch(seen, limits.maxExpandedBytes));
      done(null, chunk);
    },
  });
}

export function tarReader(source: ArchiveSource, gzip: boolean, limits: ScanLimits): ArchiveReader {
  async function walk(each: (header: Header, body: AsyncIterable<Uint8Array>, index: number) => Promise<void>, signal?: AbortSignal): Promise<void> {
    let sourceFailed: unknown = null;
    const input = source.size ? await source.read({ start: 0, end: source.size - 1 }).catch((err) => Promise.reject(storageFailure(err))) : Readable.from([]);
    input.once('error', (err) => {
      sourceFailed = err;
    });
    // v7 archives (no ustar magic) are read too; every header's checksum is still checked.
    const extract = tar.extract({ allowUnknownFormat: true } as Parameters<typeof tar.extract>[0]);
    const piping = gzip ? pipeline(input, createGunzip(), expansionGuard(source.size, limits), extract) : pipeline(input, extract);
    piping.catch(() => {}); // a failure there reaches the loop below as the extract's error
    let index = 0;
    try {
      for await (const entry of extract) {
        signal?.throwIfAborted();
        await each(entry.header, entry as AsyncIterable<Uint8Array>, index++);
        for await (const _ of entry); // whatever `each` left unread
      }
      await piping;
    } catch (err) {
      if (sourceFailed) throw storageFailure(sourceFailed);
      if (err instanceof ServiceError || signal?.aborted) throw err;
      throw corruptArchive(gzip ? 'tar.gz' : 'tar', (err as Error).message ?? String(err));
    } finally {
      input.destroy();
      extract.destroy();
    }
  }

  return {
    format: 'tar',
    async scan(signal) {
      const entries: ScannedEntry[] = [];
      let total = 0;
      await walk(async (h, _body, index) => {
        if (index >= limits.maxEntries) throw tooManyEntries(limits.maxEntries);
        const size = h.size ?? 0;
        total += size;
        if (total > limits.maxExpandedBytes) throw expandsTooMuch(total, limits.maxExpandedBytes);
        const name = h.name ?? '';
        entries.push({
          index,
          raw: name.length > RAW_NAME_MAX ? name.slice(0, RAW_NAME_MAX + 1) : name,
          ...kindOf(h.type),
          size,
          mtime: h.mtime && !Number.isNaN(h.mtime.getTime()) ? h.mtime : null,
          executable: ((h.mode ?? 0) & 0o111) !== 0,
        });
      }, signal);
      if (gzip && total >= RATIO_FLOOR && total / Math.max(1, source.size) > limits.maxRatio) {
        throw ratioTooHigh(total / source.size, limits.maxRatio);
      }
      return entries;
    },
    async extract(wanted, each, signal) {
      const byIndex = new Map(wanted.map((e) => [e.index, e]));
      await walk(async (_h, body, index) => {
        const entry = byIndex.get(index);
        if (entry) await each(entry, body, null);
      }, signal);
    },
    close() {},
  };
}
