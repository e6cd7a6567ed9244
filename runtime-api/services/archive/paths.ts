// An archive entry's name as a catalogue path, or why it cannot be one. Archives come from anywhere, so a name is
// distrusted in the order that matters most: anything that could reach outside the archive (absolute, `..`) is
// named as such, then the file-name rule (bindings/files/schemas.ts) applies to the result with `into` in front.
import type { Localized } from '../../errors.ts';
import type { ENTRY_CODES } from '../../bindings/files/archive-schemas.ts';
import { nameProblem } from '../../bindings/files/schemas.ts';
import { entryTexts } from './messages.ts';

export type EntryCode = (typeof ENTRY_CODES)[number];

export interface Refusal {
  code: EntryCode;
  message: Localized;
}

/** Raw names longer than this are refused unread (a path of 255 characters is at most 1,020 bytes of UTF-8). */
export const RAW_NAME_MAX = 4096;

const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;
const BIDI = /[\u202a-\u202e\u2066-\u2069\u200e\u200f]/;

const refuse = (code: EntryCode, message: Localized): Refusal => ({ code, message });

/**
 * The path an entry named `raw` gets under `into` ('' or a valid folder path), or its refusal. A leading `./` (any
 * number of them) and a folder's trailing `/` are dropped; the result is NFC. Null for the archive's own root (a
 * folder entry `./`, which names nothing).
 */
export function entryPath(raw: string, isFolder: boolean, into: string, maxChars: number): { path: string } | Refusal | null {
  if (raw.length > RAW_NAME_MAX) return refuse('path_too_long', entryTexts.tooLong([...raw].length, maxChars));
  if (CONTROL.test(raw)) return refuse('invalid_path', entryTexts.controlCharacter());
  if (raw.includes('\\')) return refuse('invalid_path', entryTexts.backslash());
  if (raw.startsWith('/') || /^[A-Za-z]:/.test(raw)) return refuse('absolute_path', entryTexts.absolute());
  let rel = raw;
  while (rel.startsWith('./')) rel = rel.slice(2);
  if (rel.endsWith('/')) rel = rel.slice(0, -1);
  if (rel === '' || rel === '.') return isFolder && raw !== '' ? null : refuse('invalid_path', entryTexts.emptyName());
  const segments = rel.split('/');
  if (segments.includes('..')) return refuse('path_climbs_out', entryTexts.climbsOut());
  if (segments.some((s) => s === '' || s === '.')) return refuse('invalid_path', entryTexts.emptySegment());
  if (!rel.isWellFormed()) return refuse('invalid_path', entryTexts.notWellFormed());
  if (BIDI.test(rel)) return refuse('invalid_path', entryTexts.bidi());
  if (segments.some((s) => s.trim() !== s)) return refuse('invalid_path', entryTexts.whitespace());
  const path = (into ? `${into}/${rel}` : rel).normalize('NFC');
  const chars = [...path].length;
  if (chars > maxChars) return refuse('path_too_long', entryTexts.tooLong(chars, maxChars));
  const problem = nameProblem(path);
  if (problem) return refuse('invalid_path', entryTexts.invalidName(problem));
  return { path };
}

/** `into` as a folder path: NFC, without a trailing `/`; '' for the top. A problem as its localized text. */
export function intoFolder(into: string | undefined): { folder: string } | { problem: Localized } {
  const folder = (into ?? '').normalize('NFC').replace(/\/+$/, '');
  if (!folder) return { folder: '' };
  const problem = nameProblem(folder);
  return problem ? { problem: entryTexts.invalidName(problem) } : { folder };
}

/** The folders a path lies in, outermost first: `a/b/c` → `a`, `a/b`. */
export function foldersOf(path: string): string[] {
  const out: string[] = [];
  for (let i = path.indexOf('/'); i !== -1; i = path.indexOf('/', i + 1)) out.push(path.slice(0, i));
  return out;
}

/** A name as it may be shown in a report: at most 300 characters, control characters made visible. */
export function shownName(raw: string): string {
  const cut = raw.length > 300 ? `${raw.slice(0, 300)}…` : raw;
  return cut.replace(/[\u0000-\u001f\u007f-\u009f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
