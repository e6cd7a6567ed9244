// What `cp` / `sync` will do, decided before any byte moves: both trees listed (local-tree.ts, remote-tree.ts),
// filtered by globs, and each file classed as new, unchanged or changed as rclone would class it. `--dry-run` prints
// this plan and stops.
import { createReadStream } from 'node:fs';
import { crc32 } from 'node:zlib';

/** `*` within a segment, `**` across segments, `?` one character; a pattern without `/` matches any base name. */
export function globMatcher(patterns: readonly string[]): (rel: string) => boolean {
  const regexes = patterns.map((p) => {
    let re = '';
    for (let i = 0; i < p.length; i++) {
      const c = p[i];
      if (c === '*' && p[i + 1] === '*') {
        re += '.*';
        i++;
        if (p[i + 1] === '/') i++;
      } else if (c === '*') re += '[^/]*';
      else if (c === '?') re += '[^/]';
      else re += c.replace(/[.+^${}()|[\]\\]/g, '\\$&');
    }
    return { re: new RegExp(`^${re}$`), base: !p.includes('/') };
  });
  return (rel) => regexes.some(({ re, base }) => re.test(rel) || (base && re.test(rel.slice(rel.lastIndexOf('/') + 1))));
}

export function filter(include: readonly string[], exclude: readonly string[]): (rel: string) => boolean {
  const inc = include.length ? globMatcher(include) : () => true;
  const exc = globMatcher(exclude);
  return (rel) => inc(rel) && !exc(rel);
}

/** The catalogue's CRC-32 form (8 hex digits) of a file's content, or of a link file's (its target). */
export async function crcOfFile(path: string, linkTarget?: string): Promise<string> {
  let crc = 0;
  if (linkTarget !== undefined) crc = crc32(Buffer.from(linkTarget));
  else for await (const chunk of createReadStream(path)) crc = crc32(chunk as Buffer, crc);
  return crc.toString(16).padStart(8, '0');
}

export type Existing = 'fail' | 'overwrite' | 'skip';
/**
 * `trash` / `delete`: only on the destination (sync --delete), a remote file to the trash, a local one deleted.
 * `skip-newer`: with --update, a destination newer than the source is kept. `skip-link`: a symbolic link left out (neither --links nor --copy-links); `refused`: an entry that cannot be
 * copied as it stands (a name clash, a name the local file system cannot hold, an unreadable entry), with its error.
 */
export type Decision = 'new' | 'unchanged' | 'replace' | 'skip-existing' | 'skip-newer' | 'exists' | 'trash' | 'delete' | 'skip-link' | 'refused';

/**
 * How a file is judged unchanged, as rclone judges it: by default size and modification time (within the modify
 * window), a time-only difference being settled by the checksum (equal content: only the destination's time is set);
 * --checksum: size and checksum; --size-only: size; --ignore-times: never unchanged.
 */
export interface Comparison {
  mode: 'modtime' | 'checksum' | 'size-only' | 'ignore-times';
  /** Times closer than this are equal: 1 s by default (tar keeps whole seconds). */
  windowMs: number;
  /** --update: a destination newer than the source is kept. */
  update: boolean;
}

export const DEFAULT_COMPARISON: Comparison = { mode: 'modtime', windowMs: 1000, update: false };

export interface Side {
  size: number;
  /** Epoch ms, or null where the side keeps none (then the checksum decides). */
  mtimeMs: number | null;
  /** CRC-32 as 8 hex digits, computed only if needed; null when unknown. */
  crc32: () => Promise<string | null>;
}

export interface Verdict {
  decision: Decision;
  /** Same content, other time: set the destination's time instead of copying (rclone's "updated modification time"). */
  touch: boolean;
}

/** The source file against what the destination holds at its name (null: nothing). */
export async function decide(src: Side, dst: Side | null, c: Comparison, existing: Existing): Promise<Verdict> {
  const verdict = (decision: Decision, touch = false): Verdict => ({ decision, touch });
  if (!dst) return verdict('new');
  const changed = () => verdict(existing === 'overwrite' ? 'replace' : existing === 'skip' ? 'skip-existing' : 'exists');
  if (c.mode === 'ignore-times') return changed();
  const timed = src.mtimeMs !== null && dst.mtimeMs !== null;
  const sameTime = timed && Math.abs(src.mtimeMs! - dst.mtimeMs!) < c.windowMs;
  if (c.update && timed && dst.mtimeMs! - src.mtimeMs! >= c.windowMs) return verdict('skip-newer');
  if (src.size !== dst.size) return changed();
  if (c.mode === 'size-only') return verdict('unchanged');
  if (c.mode === 'modtime' && sameTime) return verdict('unchanged');
  const [a, b] = await Promise.all([src.crc32(), dst.crc32()]);
  if (a !== null && b !== null) return a === b ? verdict('unchanged', c.mode === 'modtime' && timed) : changed();
  // No checksum on one side: --checksum falls back to the size (as rclone does); otherwise the times decide.
  return c.mode === 'checksum' ? verdict('unchanged') : changed();
}
