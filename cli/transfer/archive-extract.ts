// A tar as it comes down, unpacked entry by entry while it streams: each wanted entry is written beside its place
// under a temporary name with its CRC-32 computed on the way, checked against the catalogue, given its time and mode,
// and renamed into place. An entry that cannot be written (a name the local file system refuses, a folder in the
// way) is drained and reported; the stream goes on. Entries nobody asked for are drained.
import { open, rm, rename, type FileHandle } from 'node:fs/promises';
import { dirname } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { Transform, type Readable } from 'node:stream';
import { crc32 } from 'node:zlib';
import tar from 'tar-stream';
import { applyMeta, temporaryBeside, writeError, type EntryError, type FolderMaker } from './local-write.ts';
import { lang } from '../i18n.ts';

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

const mismatch = (): EntryError => ({
  code: 'digest_mismatch',
  message: lang() === 'pt-BR' ? 'o conteúdo recebido não confere' : 'the content received does not check out',
});

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
  for await (const entry of extract) {
    const header = entry.header;
    const wanted = header.type === 'file' || header.type === 'contiguous-file' ? want(header.name) : undefined;
    if (!wanted) {
      await drain(entry);
      continue;
    }
    const mtimeMs = header.mtime ? header.mtime.getTime() : null;
    let crc = 0;
    let size = 0;
    const tally = (chunk: Buffer) => {
      crc = crc32(chunk, crc);
      size += chunk.length;
    };
    const count = new Transform({
      transform(chunk: Buffer, _enc, cb) {
        tally(chunk);
        cb(null, chunk);
      },
    });
    const checks = () => size === wanted.size && (wanted.crc32 === null || crc.toString(16).padStart(8, '0') === wanted.crc32);
    if (wanted.keepInMemory) {
      const parts: Buffer[] = [];
      for await (const c of entry) {
        tally(c as Buffer);
        parts.push(c as Buffer);
      }
      done(wanted, checks() ? { ok: true, data: Buffer.concat(parts), mtimeMs } : { ok: false, error: mismatch(), mtimeMs });
      continue;
    }
    // Everything that can refuse the name happens before the entry is read, so a refusal leaves it whole to drain.
    let tmp: string;
    let fh: FileHandle;
    try {
      await folders.ensure(dirname(wanted.path));
      tmp = temporaryBeside(wanted.path);
      fh = await open(tmp, 'wx');
    } catch (err) {
      await drain(entry);
      done(wanted, { ok: false, error: writeError(wanted.name, err), mtimeMs });
      continue;
    }
    // A write that fails midway (a full disk) leaves the stream unreadable: the whole transfer stops there.
    await pipeline(entry as unknown as Readable, count, fh.createWriteStream()).catch(async (err) => {
      await rm(tmp, { force: true });
      throw err;
    });
    if (!checks()) {
      await rm(tmp, { force: true });
      done(wanted, { ok: false, error: mismatch(), mtimeMs });
      continue;
    }
    try {
      await applyMeta(tmp, { mtimeMs, executable: wanted.executable });
      await rename(tmp, wanted.path);
      done(wanted, { ok: true, mtimeMs });
    } catch (err) {
      // The entry is read whole by now: a refusal to take its place (a folder there) is this entry's alone.
      await rm(tmp, { force: true });
      done(wanted, { ok: false, error: writeError(wanted.name, err), mtimeMs });
    }
  }
  await feeding;
}
