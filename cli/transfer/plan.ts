// What `cp` / `sync` will do, decided before any byte moves: both trees listed (the remote one a page of 1000 names
// per request), filtered by globs, and each file classed as new, unchanged (same size and CRC-32), changed, or
// ambiguous (names are not unique). `--dry-run` prints this plan and stops.
import { createReadStream } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { crc32 } from 'node:zlib';
import type { Api } from '../http.ts';
import { listItems } from '../resolve.ts';

export interface LocalFile {
  rel: string;
  abs: string;
  size: number;
}
export interface RemoteFile {
  fileId: string;
  name: string;
  size: number;
  crc32: string | null;
}

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

/** Every regular file under `root` (or `root` itself), with `/`-separated relative paths, sorted. */
export async function walkLocal(root: string): Promise<LocalFile[]> {
  const top = await stat(root);
  if (top.isFile()) return [{ rel: root.split(sep).pop()!, abs: root, size: top.size }];
  const out: LocalFile[] = [];
  for (const entry of await readdir(root, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const abs = join(entry.parentPath, entry.name);
    out.push({ rel: relative(root, abs).split(sep).join('/'), abs, size: (await stat(abs)).size });
  }
  return out.sort((a, b) => (a.rel < b.rel ? -1 : a.rel > b.rel ? 1 : 0));
}

/** The active files whose names start with `prefix`. */
export async function listRemote(api: Api, prefix: string): Promise<RemoteFile[]> {
  const out: RemoteFile[] = [];
  let cursor: string | null = null;
  do {
    const query = new URLSearchParams({ state: 'active', limit: '1000' });
    if (prefix) query.set('prefix', prefix);
    if (cursor) query.set('cursor', cursor);
    const page = (await api.json<{ nextCursor?: string | null }>(`/app/v1/files?${query}`)).body;
    out.push(...listItems<RemoteFile>(page));
    cursor = page?.nextCursor ?? null;
  } while (cursor);
  return out;
}

export async function crcOfFile(path: string): Promise<string> {
  let crc = 0;
  for await (const chunk of createReadStream(path)) crc = crc32(chunk as Buffer, crc);
  return crc.toString(16).padStart(8, '0');
}

export type Existing = 'fail' | 'overwrite' | 'skip';
/** `trash` / `delete`: only on the destination (sync --delete), a remote file to the trash, a local one deleted. */
export type Decision = 'new' | 'unchanged' | 'replace' | 'skip-existing' | 'exists' | 'ambiguous' | 'trash' | 'delete';

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
