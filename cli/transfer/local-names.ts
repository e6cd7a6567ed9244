// Names two sides spell differently. The service keeps names in Unicode NFC and tells `A.txt` from `a.txt`; a local
// file system may keep NFD (macOS), and may fold case or normalization (APFS, NTFS). So names are compared in NFC,
// the destination folder is asked once what it folds, and names it would merge are reported instead of one silently
// overwriting the other. A file that is also a folder of other names (`x` and `x/y`) cannot exist locally either.
import { lstat, mkdir, rm, writeFile } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import { join, sep } from 'node:path';

export interface Folding {
  /** The file system treats `A` and `a` as one name. */
  caseInsensitive: boolean;
  /** The file system treats NFC and NFD spellings as one name. */
  normalizationInsensitive: boolean;
}

export const EXACT: Folding = { caseInsensitive: false, normalizationInsensitive: false };

/**
 * What the folder folds. Files already there answer without a change (is `x.TXT` the same file as `x.txt`?); when
 * they cannot tell and `write` allows, one probe file is created, looked up under other spellings, and removed.
 */
export async function probeFolding(dir: string, options: { samples: readonly { abs: string; rel: string }[]; write: boolean }): Promise<Folding> {
  const same = async (a: string, b: string) => {
    const [x, y] = await Promise.all([lstat(a).catch(() => null), lstat(b).catch(() => null)]);
    return x !== null && y !== null && x.ino === y.ino && x.dev === y.dev;
  };
  const base = (abs: string) => abs.slice(abs.lastIndexOf(sep) + 1);
  const swapCase = (s: string) => [...s].map((c) => (c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase())).join('');
  let caseInsensitive: boolean | null = null;
  let normalizationInsensitive: boolean | null = null;
  for (const f of options.samples) {
    const name = base(f.abs);
    const parent = f.abs.slice(0, f.abs.length - name.length);
    if (caseInsensitive === null && swapCase(name) !== name) caseInsensitive = await same(f.abs, parent + swapCase(name));
    const other = name.normalize('NFC') === name ? name.normalize('NFD') : name.normalize('NFC');
    if (normalizationInsensitive === null && other !== name) normalizationInsensitive = await same(f.abs, parent + other);
    if (caseInsensitive !== null && normalizationInsensitive !== null) return { caseInsensitive, normalizationInsensitive };
  }
  if (!options.write) return { caseInsensitive: caseInsensitive ?? false, normalizationInsensitive: normalizationInsensitive ?? false };
  await mkdir(dir, { recursive: true });
  const tag = randomBytes(4).toString('hex');
  const name = `.siglata-probe-${tag}-e\u0301`; // "é" decomposed (NFD)
  const path = join(dir, name);
  try {
    await writeFile(path, '');
    return {
      caseInsensitive: caseInsensitive ?? (await same(path, join(dir, name.toUpperCase()))),
      normalizationInsensitive: normalizationInsensitive ?? (await same(path, join(dir, name.normalize('NFC')))),
    };
  } catch {
    return { caseInsensitive: caseInsensitive ?? false, normalizationInsensitive: normalizationInsensitive ?? false };
  } finally {
    await rm(path, { force: true });
  }
}

/** The key two names share when the file system takes them for one. */
export function foldKey(rel: string, folding: Folding): string {
  let key = folding.normalizationInsensitive ? rel.normalize('NFC') : rel;
  if (folding.caseInsensitive) key = key.toLowerCase();
  return key;
}

/** For each name after the first that folds onto an earlier one: the earlier name it would overwrite. */
export function foldClashes(rels: readonly string[], folding: Folding): Map<string, string> {
  const clashes = new Map<string, string>();
  if (!folding.caseInsensitive && !folding.normalizationInsensitive) return clashes;
  const first = new Map<string, string>();
  for (const rel of rels) {
    const key = foldKey(rel, folding);
    const earlier = first.get(key);
    if (earlier === undefined) first.set(key, rel);
    else clashes.set(rel, earlier);
  }
  return clashes;
}

/** Names that are also a folder of other names (`x` beside `x/y`): each with one name inside it. */
export function fileFolderClashes(rels: readonly string[], folding: Folding = EXACT): Map<string, string> {
  const inside = new Map<string, string>();
  for (const rel of rels) {
    const segments = rel.split('/');
    for (let i = 1; i < segments.length; i++) {
      const folder = foldKey(segments.slice(0, i).join('/'), folding);
      if (!inside.has(folder)) inside.set(folder, rel);
    }
  }
  const clashes = new Map<string, string>();
  for (const rel of rels) {
    const child = inside.get(foldKey(rel, folding));
    if (child !== undefined) clashes.set(rel, child);
  }
  return clashes;
}
