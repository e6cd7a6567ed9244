// What `cp` / `sync` will do, decided before any byte moves: both trees listed (local-tree.ts, remote-tree.ts),
// filtered by globs, and each file classed as new, unchanged (same size and CRC-32), changed, or ambiguous (names
// are not unique). `--dry-run` prints this plan and stops.
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
 * `skip-link`: a symbolic link left out (neither --links nor --copy-links); `refused`: an entry that cannot be
 * copied as it stands (a name clash, a name the local file system cannot hold, an unreadable entry), with its error.
 */
export type Decision = 'new' | 'unchanged' | 'replace' | 'skip-existing' | 'exists' | 'ambiguous' | 'trash' | 'delete' | 'skip-link' | 'refused';

/** One side's file against the other side's copies of the same name. */
export function decide(
  size: number,
  crc: () => Promise<string>,
  others: readonly { size: number; crc32: string | null }[],
  existing: Existing,
): Promise<Decision> {
  return (async () => {
    if (others.length === 0) return 'new';
    if (others.length > 1) return 'ambiguous';
    const [other] = others;
    if (other.size === size && other.crc32 !== null && other.crc32 === (await crc())) return 'unchanged';
    return existing === 'overwrite' ? 'replace' : existing === 'skip' ? 'skip-existing' : 'exists';
  })();
}
