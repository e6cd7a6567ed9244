// What an import will do with each entry, decided from the headers alone before any byte is written: its path or
// why it is refused. Within the archive the first entry to claim a path wins: a later entry with the same path is a
// duplicate, and a later entry that would make a file of a folder (or a folder of a file) is a conflict. Against the
// catalogue, an entry may not sit under an active file, nor be a file where active files make a folder.
import type { Sql } from 'postgres';
import { pathClashes } from '../../store/files.ts';
import { RATIO_FLOOR, type ScannedEntry } from './entries.ts';
import { entryTexts } from './messages.ts';
import { entryPath, foldersOf, type Refusal, shownName } from './paths.ts';

export interface PlannedEntry {
  entry: ScannedEntry;
  /** The catalogue path, or (refused before it had one) the name as the archive spells it, shown safely. */
  path: string;
  refusal: Refusal | null;
  /** In the import's report: files, and folders that were refused (accepted folders are implicit). */
  reported: boolean;
}

export interface PlanLimits {
  maxEntryRatio: number;
  maxPathChars: number;
}

function typeRefusal(e: ScannedEntry, limits: PlanLimits): Refusal | null {
  if (e.kind === 'symlink') return { code: 'symlink_refused', message: entryTexts.symlink() };
  if (e.kind === 'hardlink') return { code: 'hardlink_refused', message: entryTexts.hardlink() };
  if (e.kind === 'special') return { code: 'special_file_refused', message: entryTexts.special(e.special ?? 'special') };
  if (e.kind !== 'file') return null;
  if (e.unreadable) {
    return 'encrypted' in e.unreadable
      ? { code: 'encrypted_entry', message: entryTexts.encrypted() }
      : { code: 'unsupported_compression', message: entryTexts.compression(e.unreadable.method) };
  }
  if (e.compressedSize !== undefined && e.size >= RATIO_FLOOR) {
    const ratio = e.size / Math.max(1, e.compressedSize);
    if (ratio > limits.maxEntryRatio) return { code: 'ratio_exceeded', message: entryTexts.ratio(ratio, limits.maxEntryRatio) };
  }
  return null;
}

/** Each entry's path or refusal, from the archive alone (in archive order). */
export function planEntries(entries: readonly ScannedEntry[], into: string, limits: PlanLimits): PlannedEntry[] {
  const files = new Set<string>();
  /** Folder path → the entry path that first needed it. */
  const folders = new Map<string, string>();
  const planned: PlannedEntry[] = [];
  for (const entry of entries) {
    const isFolder = entry.kind === 'folder';
    const named = entryPath(entry.raw, isFolder, into, limits.maxPathChars);
    if (named === null) continue; // the archive's root folder
    const refuse = (refusal: Refusal, path = 'path' in named ? named.path : shownName(entry.raw)) => planned.push({ entry, path, refusal, reported: true });
    if (!('path' in named)) {
      refuse(named);
      continue;
    }
    const { path } = named;
    const refusal = typeRefusal(entry, limits);
    if (refusal) {
      refuse(refusal);
      continue;
    }
    const fileAbove = foldersOf(path).find((f) => files.has(f));
    if (fileAbove) {
      refuse({ code: 'path_conflict', message: entryTexts.entryIsFile(fileAbove) });
      continue;
    }
    if (isFolder) {
      if (files.has(path)) {
        refuse({ code: 'path_conflict', message: entryTexts.entryIsFolder(path) });
        continue;
      }
      for (const f of [...foldersOf(path), path]) if (!folders.has(f)) folders.set(f, path);
      planned.push({ entry, path, refusal: null, reported: false });
      continue;
    }
    if (files.has(path)) {
      refuse({ code: 'duplicate_path', message: entryTexts.duplicate() });
      continue;
    }
    const under = folders.get(path);
    if (under !== undefined) {
      refuse({ code: 'path_conflict', message: entryTexts.entryIsFolder(under) });
      continue;
    }
    files.add(path);
    for (const f of foldersOf(path)) if (!folders.has(f)) folders.set(f, path);
    planned.push({ entry, path, refusal: null, reported: true });
  }
  return planned;
}

/** Refuse the accepted entries that break the file/folder rule against the organization's active files. */
export async function refuseCatalogueClashes(sql: Sql, orgId: string, planned: PlannedEntry[]): Promise<void> {
  const accepted = planned.filter((p) => !p.refusal);
  const folderPaths = new Set<string>();
  for (const p of accepted) {
    for (const f of foldersOf(p.path)) folderPaths.add(f);
    if (p.entry.kind === 'folder') folderPaths.add(p.path);
  }
  const filePaths = accepted.filter((p) => p.entry.kind === 'file').map((p) => p.path);
  const clashes = await pathClashes(sql, orgId, [...folderPaths], filePaths);
  if (!clashes.files.size && !clashes.folders.size) return;
  for (const p of accepted) {
    const file = [...foldersOf(p.path), ...(p.entry.kind === 'folder' ? [p.path] : [])].find((f) => clashes.files.has(f));
    if (file !== undefined) p.refusal = { code: 'path_conflict', message: entryTexts.existingIsFile(file) };
    else if (p.entry.kind === 'file' && clashes.folders.has(p.path)) p.refusal = { code: 'path_conflict', message: entryTexts.existingIsFolder() };
    if (p.refusal) p.reported = true;
  }
}
