// Many small files as one tar, the way they travel up: each file an entry with its modification time and mode (0755
// when executable), read a few at a time while the archive is built in memory, so its exact size is known before
// the upload is reserved. Chunks stay under a bound, so a huge tree becomes several archives, none held whole.
import tar from 'tar-stream';

export interface PackItem {
  /** The entry's name: the file's full path in the catalogue. */
  name: string;
  size: number;
  mtimeMs: number;
  executable: boolean;
  read(): Promise<Buffer>;
}

/** What one archive holds at most (content bytes); 8 parts of 8 MiB. */
export const ARCHIVE_BYTES = 64 * 1024 * 1024;
/** Entries per archive, well inside what an import takes. */
export const ARCHIVE_ENTRIES = 5_000;

/** Split `items` into archives of at most ARCHIVE_BYTES of content and ARCHIVE_ENTRIES entries. */
export function archiveChunks<T>(items: readonly T[], sizeOf: (item: T) => number): T[][] {
  const out: T[][] = [];
  let current: T[] = [];
  let bytes = 0;
  for (const item of items) {
    const size = sizeOf(item);
    if (current.length && (bytes + size > ARCHIVE_BYTES || current.length >= ARCHIVE_ENTRIES)) {
      out.push(current);
      current = [];
      bytes = 0;
    }
    current.push(item);
    bytes += size;
  }
  if (current.length) out.push(current);
  return out;
}

/** Files read at once while an archive is built. */
const READ_AHEAD = 16;

export interface PackFailure {
  item: PackItem;
  error: unknown;
}

/**
 * The tar of `items`, in order. An item that cannot be read is left out and reported (the others still go); an item
 * whose size changed since it was listed is read as it is now, and its new size is what the archive says.
 */
export async function packArchive(items: readonly PackItem[]): Promise<{ archive: Buffer; packed: PackItem[]; failed: PackFailure[] }> {
  const pack = tar.pack();
  const chunks: Buffer[] = [];
  pack.on('data', (c) => {
    chunks.push(c as Buffer);
  });
  const ended = new Promise<void>((resolve, reject) => {
    pack.on('end', resolve);
    pack.on('error', reject);
  });
  const packed: PackItem[] = [];
  const failed: PackFailure[] = [];
  const reads = new Map<number, Promise<Buffer>>();
  const start = (i: number) => {
    if (i < items.length && !reads.has(i)) {
      const p = items[i].read();
      p.catch(() => {}); // reported when its turn comes
      reads.set(i, p);
    }
  };
  for (let i = 0; i < Math.min(READ_AHEAD, items.length); i++) start(i);
  for (let i = 0; i < items.length; i++) {
    const item = items[i];
    let data: Buffer;
    try {
      data = await reads.get(i)!;
    } catch (error) {
      failed.push({ item, error });
      continue;
    } finally {
      reads.delete(i);
      start(i + READ_AHEAD);
    }
    await new Promise<void>((resolve, reject) => {
      pack.entry(
        {
          name: item.name,
          size: data.length,
          // ustar keeps whole seconds; the comparison allows for it (a 1 s modify window, as rclone uses).
          mtime: new Date(Math.floor(item.mtimeMs / 1000) * 1000),
          mode: item.executable ? 0o755 : 0o644,
          type: 'file',
          uid: 0,
          gid: 0,
        },
        data,
        (err) => (err ? reject(err) : resolve()),
      );
    });
    packed.push({ ...item, size: data.length });
  }
  pack.finalize();
  await ended;
  return { archive: Buffer.concat(chunks), packed, failed };
}
