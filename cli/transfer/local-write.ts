// Writing what a copy brings down into the local folder, one entry at a time: a name the local file system cannot
// hold, a file where a folder must go (or the reverse), or any other refusal becomes that entry's error and the
// copy goes on. Each file lands whole: written beside its place under a short temporary name, then renamed.
import { chmod, lstat, mkdir, rename, rm, stat, symlink, utimes } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import { dirname, join, relative, sep } from 'node:path';
import { say } from './messages.ts';

export interface EntryError {
  code: string;
  message: string;
  resolution?: string;
}

/** What a file carries besides its bytes. */
export interface FileMeta {
  /** Epoch milliseconds, or null to leave the time of writing. */
  mtimeMs: number | null;
  executable: boolean;
}

/** A local path for `rel` under `root`, or null when it would leave the folder. */
export function localPath(root: string, rel: string): string | null {
  const segments = rel.split('/');
  if (segments.some((s) => s === '' || s === '.' || s === '..' || s.includes('\0') || (sep === '\\' && /[\\:]/.test(s)))) return null;
  const abs = join(root, ...segments);
  const back = relative(root, abs);
  return back.startsWith('..') ? null : abs;
}

/** The entry error for what the file system answered while writing `rel`. */
export function writeError(rel: string, err: unknown): EntryError {
  const code = (err as NodeJS.ErrnoException)?.code ?? '';
  if (code === 'ENAMETOOLONG') {
    const bytes = Math.max(...rel.split('/').map((s) => Buffer.byteLength(s)));
    return { code: 'name_too_long', message: say('nameTooLong', { bytes }), resolution: say('nameTooLongHelp') };
  }
  if (code === 'ENOTDIR' || code === 'EISDIR' || code === 'EEXIST' || code === 'ENOTEMPTY') {
    return { code: 'path_conflict', message: say('pathInTheWay'), resolution: say('pathInTheWayHelp') };
  }
  if (code === 'EILSEQ' || code === 'EINVAL') return { code: 'invalid_local_name', message: say('nameRefused'), resolution: say('nameRefusedHelp') };
  if (code === 'ENOSPC' || code === 'EDQUOT') return { code: 'disk_full', message: say('diskFull') };
  return {
    code: 'file_unwritable',
    message: say('unwritable', { detail: code || String((err as Error)?.message ?? err) }),
    resolution: say('unwritableHelp'),
  };
}

/** The temporary name a file is written under before it takes its place: short, so any name that fits, fits. */
export function temporaryBeside(path: string): string {
  return join(dirname(path), `.siglata-${randomBytes(6).toString('hex')}.tmp`);
}

/**
 * Folders created, so each is made once per copy. With `throughLinks` false (--links, where links in the tree are
 * data, possibly from the other side), no file is written through a symbolic link inside the root: a link
 * `a -> /elsewhere` brought down earlier must not make `a/x` land outside the folder.
 */
export class FolderMaker {
  private readonly made = new Set<string>();
  private readonly root: string;
  private readonly throughLinks: boolean;
  constructor(root: string, options: { throughLinks: boolean }) {
    this.root = root;
    this.throughLinks = options.throughLinks;
  }
  async ensure(dir: string): Promise<void> {
    if (this.made.has(dir)) return;
    if (!this.throughLinks) {
      const rel = relative(this.root, dir);
      let at = this.root;
      for (const segment of rel ? rel.split(sep) : []) {
        at = join(at, segment);
        if (this.made.has(at)) continue;
        if ((await lstat(at).catch(() => null))?.isSymbolicLink()) throw Object.assign(new Error('link in the way'), { code: 'ENOTDIR' });
      }
    }
    await mkdir(dir, { recursive: true });
    this.made.add(dir);
  }
}

/**
 * Time and executable bit on a written file, where the platform has one: executable adds x wherever r is (as
 * `chmod +x` under the umask the file was created with), not executable takes every x away; other bits stay.
 */
export async function applyMeta(path: string, meta: FileMeta): Promise<void> {
  if (process.platform !== 'win32') {
    const mode = (await stat(path)).mode & 0o7777;
    const want = meta.executable ? mode | ((mode & 0o444) >> 2) : mode & ~0o111;
    if (want !== mode) await chmod(path, want);
  }
  if (meta.mtimeMs !== null) {
    const when = new Date(meta.mtimeMs);
    await utimes(path, when, when);
  }
}

/** A symbolic link at `path` pointing at `target` (--links), replacing a link already there, never a file. */
export async function writeLink(folders: FolderMaker, path: string, target: string): Promise<void> {
  await folders.ensure(dirname(path));
  const there = await lstat(path).catch(() => null);
  if (there && !there.isSymbolicLink()) throw Object.assign(new Error('exists'), { code: 'EEXIST' });
  const tmp = temporaryBeside(path);
  await symlink(target, tmp);
  try {
    await rename(tmp, path);
  } catch (err) {
    await rm(tmp, { force: true });
    throw err;
  }
}
