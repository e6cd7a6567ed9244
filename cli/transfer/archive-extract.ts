// A tar as it comes down, unpacked entry by entry while it streams: each wanted entry is read, checked against the
// catalogue's size and CRC-32, written beside its place under a temporary name with its time and executable bit, and
// renamed into place. An entry that cannot be written (a name the local file system refuses, a folder in the way) is
// reported; the stream goes on. Entries nobody asked for are read past.
import { open, rm, rename } from 'node:fs/promises';
import { dirname } from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { Readable } from 'node:stream';
import { crc32 } from 'node:zlib';
import tar from 'tar-stream';
import { temporaryBeside, writeError, type EntryError, type FolderMaker } from './local-write.ts';
import { say } from './messages.ts';

export interface Wanted {
  /** Where the entry goes. */
  path: string;
  /** The name reported in errors. */
  name: string;
  size: number;
  /** The catalogue's CRC-32 (hex), checked when known. */
  crc32: string | null;
  executable: boolean;
  /** Keep the bytes in memory instead of writing them (link files, made links once every file is down). */
  keepInMemory?: boolean;
}

export interface Outcome {
  ok: boolean;
  error?: EntryError;
  /** The entry's bytes when kept in memory. */
  data?: Buffer;
  /** The entry's modification time (epoch ms) as the archive gives it. */
  mtimeMs: number | null;
}

/** Read past what is left of an entry, so the next one can come. */
async function drain(entry: AsyncIterable<unknown>): Promise<void> {
  for await (const _ of entry) {
    /* discarded */
  }
}

const mismatch = (): EntryError => ({ code: 'digest_mismatch', message: say('contentMismatch') });

/**
 * Unpack `body`, calling `want(name)` for each entry's name (relative to the export's prefix) and `done` with each
 * wanted entry's outcome, as it lands.
 */
export async function extractArchive(
  body: Readable,
  folders: FolderMaker,
  want: (name: string) => Wanted | undefined,
  done: (wanted: Wanted, outcome: Outcome) => void,
  signal?: AbortSignal,
): Promise<void> {
  const extract = tar.extract();
  const feeding = pipeline(body, extract, { signal });
  feeding.catch(() => {}); // its failure ends the iteration below, which reports it
  // Entries are small (big files come down on their own): each is read whole, checked, and written while the stream
  // goes on to the next, a few at a time, so the disk's latency overlaps the network's.
  const writing = new Set<Promise<void>>();
  let writingBytes = 0;
  for await (const entry of extract) {
    const header = entry.header;
    const wanted = header.type === 'file' || header.type === 'contiguous-file' ? want(header.name) : undefined;
    if (!wanted) {
      await drain(entry);
      continue;
    }
    const mtimeMs = header.mtime ? header.mtime.getTime() : null;
    let crc = 0;
    const parts: Buffer[] = [];
    for await (const c of entry) {
      crc = crc32(c as Buffer, crc);
      parts.push(c as Buffer);
    }
    const data = Buffer.concat(parts);
    if (data.length !== wanted.size || (wanted.crc32 !== null && crc.toString(16).padStart(8, '0') !== wanted.crc32)) {
      done(wanted, { ok: false, error: mismatch(), mtimeMs });
      continue;
    }
    if (wanted.keepInMemory) {
      done(wanted, { ok: true, data, mtimeMs });
      continue;
    }
    while (writing.size >= WRITES_IN_FLIGHT || writingBytes > BYTES_IN_FLIGHT) await Promise.race(writing);
    writingBytes += data.length;
    const task: Promise<void> = writeEntry(folders, wanted, data, mtimeMs)
      .then(
        () => done(wanted, { ok: true, mtimeMs }),
        (err) => done(wanted, { ok: false, error: writeError(wanted.name, err), mtimeMs }),
      )
      .finally(() => {
        writing.delete(task);
        writingBytes -= data.length;
      });
    writing.add(task);
  }
  await Promise.all(writing);
  await feeding;
}

/** Files being written at once, and the bytes they may hold in memory. */
const WRITES_IN_FLIGHT = 16;
const BYTES_IN_FLIGHT = 64 * 1024 * 1024;

/**
 * One entry into place: written under a short temporary name beside it (created with the executable bit where the
 * entry has one, under the umask, as `chmod +x` would), given its time, then renamed over whatever file was there.
 */
async function writeEntry(folders: FolderMaker, wanted: Wanted, data: Buffer, mtimeMs: number | null): Promise<void> {
  await folders.ensure(dirname(wanted.path));
  const tmp = temporaryBeside(wanted.path);
  const fh = await open(tmp, 'wx', wanted.executable && process.platform !== 'win32' ? 0o777 : 0o666);
  try {
    try {
      await fh.writeFile(data);
      if (mtimeMs !== null) await fh.utimes(new Date(mtimeMs), new Date(mtimeMs));
    } finally {
      await fh.close();
    }
    await rename(tmp, wanted.path);
  } catch (err) {
    await rm(tmp, { force: true });
    throw err;
  }
}
