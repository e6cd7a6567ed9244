// Reading a zip archive with yauzl over range reads of the upload: the central directory gives every entry's name,
// sizes and attributes without touching the data; bodies are then read one at a time. yauzl checks that each body
// inflates to exactly its declared size; the CRC-32 is left to the reader (stage.ts checks it). Names are decoded
// here rather than by yauzl, which would refuse the whole archive at the first bad name instead of that entry.
import { PassThrough } from 'node:stream';
import yauzl from 'yauzl';
import { ServiceError } from '../../errors.ts';
import { storageFailure } from '../uploads.ts';
import { type ArchiveReader, EntryDataError, type EntryKind, RATIO_FLOOR, type ScanLimits, type ScannedEntry } from './entries.ts';
import { corruptArchive, expandsTooMuch, overlappingEntries, ratioTooHigh, tooManyEntries } from './messages.ts';
import { RAW_NAME_MAX } from './paths.ts';
import { type ArchiveSource, SourceReader } from './source.ts';

const S_IFMT = 0o170000;
const TYPES: Record<number, EntryKind | string> = {
  0o100000: 'file',
  0o040000: 'folder',
  0o120000: 'symlink',
  0o020000: 'character device',
  0o060000: 'block device',
  0o010000: 'fifo',
  0o140000: 'socket',
};
/** Size of a local file header before its name and extra field. */
const LOCAL_HEADER = 30;

/** The Unix mode an entry carries (made on Unix or macOS), else null. */
function unixMode(e: yauzl.Entry): number | null {
  const os = e.versionMadeBy >> 8;
  return os === 3 || os === 19 ? (e.externalFileAttributes >>> 16) & 0xffff : null;
}

function kindOf(e: yauzl.Entry, raw: string): { kind: EntryKind; special?: string } {
  const mode = unixMode(e);
  const type = mode ? TYPES[mode & S_IFMT] : undefined;
  if (type === 'symlink') return { kind: 'symlink' };
  if (type && type !== 'file' && type !== 'folder') return { kind: 'special', special: type };
  if (raw.endsWith('/') || type === 'folder' || (e.externalFileAttributes & 0x10) !== 0) return { kind: 'folder' };
  return { kind: 'file' };
}

function nameOf(e: yauzl.Entry): string {
  const raw = e.fileNameRaw.length > RAW_NAME_MAX * 4 ? e.fileNameRaw.subarray(0, RAW_NAME_MAX * 4) : e.fileNameRaw;
  // CP437 (a name without the UTF-8 flag) draws control bytes as symbols: they are kept as what they are, and refused.
  if (raw.some((b) => b < 0x20 || b === 0x7f)) return raw.toString('latin1');
  const name = yauzl.getFileNameLowLevel(e.generalPurposeBitFlag, raw, e.extraFields, true);
  return name.length > RAW_NAME_MAX ? name.slice(0, RAW_NAME_MAX + 1) : name;
}

export function zipReader(source: ArchiveSource, limits: ScanLimits): ArchiveReader {
  const reader = new SourceReader(source);
  let zip: yauzl.ZipFile | null = null;
  const handles = new Map<number, yauzl.Entry>();

  const fail = (err: unknown): never => {
    if (reader.failure) throw storageFailure(reader.failure);
    if (err instanceof ServiceError) throw err;
    throw corruptArchive('zip', (err as Error).message ?? String(err));
  };

  return {
    format: 'zip',
    async scan(signal) {
      try {
        zip = await yauzl.fromRandomAccessReaderPromise(reader, source.size, {
          lazyEntries: true,
          autoClose: false,
          decodeStrings: false,
          validateEntrySizes: true,
          strictFileNames: true,
        });
      } catch (err) {
        return fail(err);
      }
      if (zip.entryCount > limits.maxEntries) throw tooManyEntries(limits.maxEntries);
      const entries: ScannedEntry[] = [];
      const spans: { start: number; end: number }[] = [];
      let total = 0;
      let index = 0;
      try {
        for await (const e of zip.eachEntry()) {
          signal?.throwIfAborted();
          const raw = nameOf(e);
          total += e.uncompressedSize;
          if (total > limits.maxExpandedBytes) throw expandsTooMuch(total, limits.maxExpandedBytes);
          const mode = unixMode(e);
          entries.push({
            index,
            raw,
            ...kindOf(e, raw),
            size: e.uncompressedSize,
            compressedSize: e.compressedSize,
            ...(e.isEncrypted()
              ? { unreadable: { encrypted: true as const } }
              : e.compressionMethod !== 0 && e.compressionMethod !== 8
                ? { unreadable: { method: e.compressionMethod } }
                : {}),
            mtime: e.getLastModDate(),
            executable: mode !== null && (mode & 0o111) !== 0,
          });
          spans.push({ start: e.relativeOffsetOfLocalHeader, end: e.relativeOffsetOfLocalHeader + LOCAL_HEADER + e.compressedSize });
          // Only what opening the body needs is kept: names and extra fields may be large, and there may be many.
          e.fileNameRaw = e.extraFieldRaw = e.fileCommentRaw = Buffer.alloc(0);
          e.extraFields = [];
          handles.set(index++, e);
        }
      } catch (err) {
        if (signal?.aborted) throw err;
        return fail(err);
      }
      // Entries whose data overlap are the trick of the zip bombs that reuse one compressed body many times.
      spans.sort((a, b) => a.start - b.start);
      for (let i = 1; i < spans.length; i++) if (spans[i].start < spans[i - 1].end) throw overlappingEntries();
      if (total >= RATIO_FLOOR && total / Math.max(1, source.size) > limits.maxRatio) throw ratioTooHigh(total / source.size, limits.maxRatio);
      return entries;
    },

    async extract(wanted, each, signal) {
      for (const entry of [...wanted].sort((a, b) => a.index - b.index)) {
        signal?.throwIfAborted();
        const handle = handles.get(entry.index);
        if (!zip || !handle) throw new Error(`entry ${entry.index} was not scanned`);
        const body = new PassThrough();
        try {
          const stream = await zip.openReadStreamPromise(handle);
          stream.once('error', (err) => body.destroy(reader.failure ? storageFailure(reader.failure) : new EntryDataError(err.message, { cause: err })));
          body.once('close', () => stream.destroy());
          stream.pipe(body);
        } catch (err) {
          if (reader.failure) throw storageFailure(reader.failure);
          body.destroy(new EntryDataError((err as Error).message, { cause: err }));
        }
        await each(entry, body, handle.crc32);
      }
    },

    close() {
      zip?.close();
    },
  };
}
