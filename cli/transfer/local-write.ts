// Writing what a copy brings down into the local folder, one entry at a time: a name the local file system cannot
// hold, a file where a folder must go (or the reverse), or any other refusal becomes that entry's error and the
// copy goes on. Each file lands whole: written beside its place under a short temporary name, then renamed.
import { chmod, lstat, mkdir, rename, rm, stat, symlink, utimes } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import { dirname, join, relative, sep } from 'node:path';
import { lang } from '../i18n.ts';

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
  const pt = lang() === 'pt-BR';
  if (code === 'ENAMETOOLONG') {
    const longest = Math.max(...rel.split('/').map((s) => Buffer.byteLength(s)));
    return {
      code: 'name_too_long',
      message: pt
        ? `o sistema de arquivos local não comporta este nome (um trecho de ${longest} bytes; o limite costuma ser 255)`
        : `the local file system cannot hold this name (a segment of ${longest} bytes; the limit is usually 255)`,
      resolution: pt
        ? 'Renomeie o arquivo no serviço (siglata exec com files_update) ou deixe-o de fora com --exclude.'
        : 'Rename the file on the service (siglata exec with files_update) or leave it out with --exclude.',
    };
  }
  if (code === 'ENOTDIR' || code === 'EISDIR' || code === 'EEXIST' || code === 'ENOTEMPTY') {
    return {
      code: 'path_conflict',
      message: pt ? 'um arquivo e uma pasta disputam este caminho na pasta local' : 'a file and a folder contend for this path in the local folder',
      resolution: pt
        ? 'Mova ou renomeie o que ocupa o caminho localmente, ou deixe este arquivo de fora com --exclude.'
        : 'Move or rename what holds the path locally, or leave this file out with --exclude.',
    };
  }
  if (code === 'EILSEQ' || code === 'EINVAL') {
    return {
      code: 'invalid_local_name',
      message: pt ? 'o sistema de arquivos local recusa este nome' : 'the local file system refuses this name',
      resolution: pt ? 'Deixe o arquivo de fora com --exclude, ou renomeie-o no serviço.' : 'Leave the file out with --exclude, or rename it on the service.',
    };
  }
  if (code === 'ENOSPC' || code === 'EDQUOT') {
    return { code: 'disk_full', message: pt ? 'sem espaço no disco local' : 'no space left on the local disk' };
  }
  return {
    code: 'file_unwritable',
    message: `${pt ? 'não foi possível gravar' : 'cannot write'}: ${code || String((err as Error)?.message ?? err)}`,
    resolution: pt ? 'Confira as permissões da pasta de destino.' : 'Check the permissions of the destination folder.',
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
