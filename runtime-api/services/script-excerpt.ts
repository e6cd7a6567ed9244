// The first lines of a script, as the audit log keeps them so an owner can tell one run from another. Scripts are
// otherwise never stored (only their SHA-256): the excerpt is short, and the credentials this service issues (API
// keys, access tokens) are masked before it is cut, so a script that pasted one in does not leave it in the log.

/** At most this many lines (the first non-blank one first), and this many characters in all. */
export const EXCERPT_LINES = 3;
export const EXCERPT_CHARS = 240;

const SECRETS: readonly [RegExp, string][] = [
  [/\bslk_[A-Za-z0-9_-]+/g, 'slk_…'],
  [/\beyJ[A-Za-z0-9_-]*\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*/g, 'eyJ…'],
];

export function maskSecrets(text: string): string {
  return SECRETS.reduce((s, [pattern, mask]) => s.replace(pattern, mask), text);
}

/** The excerpt and the script's number of lines (so a reader knows how much is not shown). */
export function scriptExcerpt(source: string): { excerpt: string; lines: number } {
  const all = source.split(/\r\n|\r|\n/);
  const first = all.findIndex((l) => l.trim() !== '');
  const lines = first < 0 ? [] : all.slice(first, first + EXCERPT_LINES).map((l) => l.trimEnd());
  const masked = [...maskSecrets(lines.join('\n'))];
  const excerpt = masked.length > EXCERPT_CHARS ? `${masked.slice(0, EXCERPT_CHARS - 1).join('')}…` : masked.join('');
  return { excerpt, lines: all.length };
}
