// The local side of cp / sync: every file under a folder (or the one file named), with what a copy carries besides
// the bytes (modification time, executable bit), and symbolic links handled as rclone does: reported and left out
// by default, followed with --copy-links, or kept as `<name>.rclonelink` files holding the target with --links.
// What cannot be read is reported per entry; the walk goes on.
import { lstat, readdir, readlink, realpath, stat } from 'node:fs/promises';
import type { Stats } from 'node:fs';
import { basename, join } from 'node:path';

/** What a copy does with symbolic links: leave them out (reported), follow them, or translate them to link files. */
export type LinkPolicy = 'skip' | 'follow' | 'translate';

/** rclone's suffix for a symbolic link stored as a file whose content is the link's target. */
export const LINK_SUFFIX = '.rclonelink';

export interface LocalFile {
  /** `/`-separated path under the root, as the file system spells it. */
  rel: string;
  abs: string;
  size: number;
  mtimeMs: number;
  executable: boolean;
  /** Set for a link kept as a link file (--links): its target, which is the file's content. */
  linkTarget?: string;
}

/** Something under the root that is not copied: a link not followed, or an entry that could not be read. */
export interface LocalSkip {
  rel: string;
  abs: string;
  /** `link`: a symbolic link left out by policy; anything else is an error code. */
  code: 'link' | 'broken_link' | 'link_loop' | 'unreadable' | 'special_file';
  /** The link's target, for links. */
  target?: string;
  detail?: string;
}

export interface LocalTree {
  /** Whether the root is a folder (false: it is one file, listed under its base name). */
  folder: boolean;
  files: LocalFile[];
  skipped: LocalSkip[];
}

const executableBit = (st: Stats) => process.platform !== 'win32' && (st.mode & 0o100) !== 0;

const fileOf = (rel: string, abs: string, st: Stats): LocalFile => ({
  rel,
  abs,
  size: st.size,
  mtimeMs: st.mtimeMs,
  executable: executableBit(st),
});

/** Raised when the root itself is missing or unreadable: the whole command has nothing to work on. */
export class RootMissing extends Error {
  readonly code: string;
  constructor(code: string) {
    super(code);
    this.code = code;
  }
}

/** Every file under `root` (or `root` itself) with `/`-separated relative paths, sorted by code point. */
export async function walkLocal(root: string, policy: LinkPolicy = 'skip'): Promise<LocalTree> {
  // The root is what the user named: a link there is followed (as rclone and cp -r do), whatever the policy.
  const top = await stat(root).catch((err: NodeJS.ErrnoException) => {
    throw new RootMissing(err.code ?? 'ENOENT');
  });
  if (!top.isDirectory()) {
    if (!top.isFile()) throw new RootMissing('ENOTFILE');
    return { folder: false, files: [fileOf(basename(root), root, top)], skipped: [] };
  }
  const files: LocalFile[] = [];
  const skipped: LocalSkip[] = [];
  // Folders being walked, by device and inode: a followed link back into one of them would never end.
  const walking = new Set<string>();
  const identity = (st: Stats) => `${st.dev}:${st.ino}`;

  async function walk(dir: string, relDir: string, dirStat: Stats): Promise<void> {
    walking.add(identity(dirStat));
    let entries;
    try {
      entries = await readdir(dir, { withFileTypes: true });
    } catch (err) {
      skipped.push({ rel: relDir || '.', abs: dir, code: 'unreadable', detail: (err as NodeJS.ErrnoException).code });
      walking.delete(identity(dirStat));
      return;
    }
    for (const entry of entries) {
      const abs = join(dir, entry.name);
      const rel = relDir ? `${relDir}/${entry.name}` : entry.name;
      try {
        if (entry.isSymbolicLink()) {
          const target = await readlink(abs);
          if (policy === 'skip') {
            skipped.push({ rel, abs, code: 'link', target });
            continue;
          }
          if (policy === 'translate') {
            const own = await lstat(abs);
            files.push({ rel: `${rel}${LINK_SUFFIX}`, abs, size: Buffer.byteLength(target), mtimeMs: own.mtimeMs, executable: false, linkTarget: target });
            continue;
          }
          const st = await stat(abs).catch(() => null);
          if (!st) {
            skipped.push({ rel, abs, code: 'broken_link', target });
            continue;
          }
          if (st.isDirectory()) {
            if (walking.has(identity(st))) skipped.push({ rel, abs, code: 'link_loop', target: await realpath(abs).catch(() => target) });
            else await walk(abs, rel, st);
          } else if (st.isFile()) files.push(fileOf(rel, abs, st));
          else skipped.push({ rel, abs, code: 'special_file' });
          continue;
        }
        if (entry.isDirectory()) {
          await walk(abs, rel, await stat(abs));
          continue;
        }
        if (entry.isFile()) files.push(fileOf(rel, abs, await stat(abs)));
        else skipped.push({ rel, abs, code: 'special_file' });
      } catch (err) {
        skipped.push({ rel, abs, code: 'unreadable', detail: (err as NodeJS.ErrnoException).code });
      }
    }
    walking.delete(identity(dirStat));
  }

  await walk(root, '', top);
  const byRel = (a: { rel: string }, b: { rel: string }) => (a.rel < b.rel ? -1 : a.rel > b.rel ? 1 : 0);
  return { folder: true, files: files.sort(byRel), skipped: skipped.sort(byRel) };
}
