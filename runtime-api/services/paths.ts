// Files are paths: one active file per (organization, name), held by the partial unique index files_active_name_idx,
// and no active name is a folder of another (`x` and `x/y` are never both active). Every transaction that changes
// which paths are active (writes, upload completion, restore, rename, trash, delete) first takes the organization's
// lock (the quota's, services/quota.ts), then the rows it changes: concurrent writers to one path queue, each sees the
// one before it, and the lock order is the same everywhere (no deadlock between two of them).
import type { Sql } from 'postgres';
import { findActiveByName, folderClash, insertFile, setFileState, type FileRow, type NewFileRow } from '../store/files.ts';
import { folderConflict, pathTaken, type PathOperation } from './files-messages.ts';
import { lockOrgStorage } from './quota.ts';

/** Longest file name, in Unicode code points (after NFC). */
export const NAME_MAX_CHARS = 255;

/** What to do when the path asked for holds another active file: refuse (409 path_taken), trash it, or go beside it. */
export type OnConflict = 'fail' | 'replace' | 'rename';

/** The organization's lock, before any file row: see the module comment. */
export const lockOrgFiles = lockOrgStorage;

/**
 * `name` with ` (label)` before the extension of its last segment (`reports/q1 (2).csv`; a leading dot is not an
 * extension: `.env (2)`), the segment shortened so the whole stays within 255 characters. Migration 0013 derives the
 * names of renamed duplicates the same way.
 */
export function derivedName(name: string, label: string): string {
  const slash = name.lastIndexOf('/');
  let dir = name.slice(0, slash + 1);
  const seg = name.slice(slash + 1);
  const dot = seg.lastIndexOf('.');
  const hasExt = dot > 0 && dot < seg.length - 1;
  let stem = [...(hasExt ? seg.slice(0, dot) : seg)];
  let ext = hasExt ? seg.slice(dot) : '';
  const suffix = ` (${label})`;
  const len = (s: string) => [...s].length;
  let room = NAME_MAX_CHARS - len(dir) - len(suffix);
  if (stem.length + len(ext) > room) {
    if (room - len(ext) < 1) ext = '';
    if (room - len(ext) < 1) {
      dir = '';
      room = NAME_MAX_CHARS - len(suffix);
    }
    stem = [
      ...stem
        .slice(0, room - len(ext))
        .join('')
        .trimEnd(),
    ];
  }
  return `${dir}${stem.join('')}${suffix}${ext}`;
}

/** Under the lock: refuse a path that is a folder of active files, or lies inside an active file. */
export async function assertNoFolderClash(tx: Sql, orgId: string, name: string, except: { fileId?: string; uploadId?: string } = {}): Promise<void> {
  const clash = await folderClash(tx, orgId, name, except.uploadId ?? null, except.fileId ?? null);
  if (clash) throw folderConflict(name, clash);
}

/** Under the lock: the first of `labels(1)`, `labels(2)`, ... beside `name` that no active file holds, as a name or a folder. */
export async function freeNameBeside(tx: Sql, orgId: string, name: string, label: (n: number) => string): Promise<string> {
  for (let n = 1; ; n++) {
    const candidate = derivedName(name, label(n));
    if (!(await findActiveByName(tx, orgId, candidate)) && !(await folderClash(tx, orgId, candidate))) return candidate;
  }
}

/**
 * Under the lock: make `name` free for a file that is not active there yet (restored, renamed). With `fail` an active
 * file there answers 409 path_taken; `replace` moves it to the trash (returned); `rename` returns a free name beside.
 */
export async function clearPathFor(
  tx: Sql,
  orgId: string,
  name: string,
  how: { onConflict: OnConflict; operation: PathOperation; fileId: string; now: Date; renameLabel: (n: number) => string },
): Promise<{ name: string; replaced: FileRow | null }> {
  await assertNoFolderClash(tx, orgId, name, { fileId: how.fileId });
  const holder = await findActiveByName(tx, orgId, name, 'update');
  if (!holder || holder.id === how.fileId) return { name, replaced: null };
  if (how.onConflict === 'replace') return { name, replaced: await setFileState(tx, orgId, holder.id, 'trashed', how.now) };
  if (how.onConflict === 'rename') return { name: await freeNameBeside(tx, orgId, name, how.renameLabel), replaced: null };
  throw pathTaken(name, holder.id, how.operation);
}

export interface WrittenFile {
  file: FileRow;
  /** The file that was active at the path before, now in the trash; null when the path was free. */
  replaced: FileRow | null;
}

/**
 * Under the lock: a new active file at `row.name`, the active file that was there moved to the trash (returned as
 * `replaced`, restorable). A folder clash is refused unless the caller already checked it and held the path since
 * (an upload's completion: its completing reservation keeps others out).
 */
export async function putFileAtPath(tx: Sql, row: NewFileRow, now: Date, options: { folderChecked?: boolean } = {}): Promise<WrittenFile> {
  if (!options.folderChecked) await assertNoFolderClash(tx, row.orgId, row.name);
  const holder = await findActiveByName(tx, row.orgId, row.name, 'update');
  const replaced = holder ? await setFileState(tx, row.orgId, holder.id, 'trashed', now) : null;
  return { file: await insertFile(tx, { ...row, state: 'active' }), replaced };
}

/** `restored 2026-11-27`, then `restored 2026-11-27 2`, ...: the labels of a restore beside a taken path. */
export function restoredLabel(now: Date): (n: number) => string {
  const day = now.toISOString().slice(0, 10);
  return (n) => (n === 1 ? `restored ${day}` : `restored ${day} ${n}`);
}

/** `2`, `3`, ...: the labels of a move beside a taken path (as migration 0013 named duplicates). */
export const numberedLabel = (n: number): string => String(n + 1);
