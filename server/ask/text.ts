// Text analysis for /ask: accent folding, tokenizing, stop words and per-language stemming. Documents and queries go
// through the same functions, so a folded query ("sessao") meets the accented page ("sessão") on the same term.
import { stemmer as stemPt } from '@orama/stemmers/portuguese';
import { stemmer as stemEn } from '@orama/stemmers/english';
import { QUERY_FILLERS, STOPWORDS } from './stopwords.ts';
import { IRREGULAR_VERBS } from './irregular-verbs.ts';

export type Lang = 'pt' | 'en';
export const LANGS: readonly Lang[] = ['pt', 'en'];
/** The other of the site's two languages. */
export const otherLang = (lang: Lang): Lang => (lang === 'pt' ? 'en' : 'pt');

/** Lower case without diacritics: "Restauração" → "restauracao". */
export function fold(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase();
}

/** Folded word tokens (letters and digits); punctuation such as `_`, `:` and `/` splits. A one-letter prefix joined by
 * a hyphen stays on its word ("e-mail" = "email"), since people write both. */
export function tokenize(text: string): string[] {
  return (
    fold(text)
      .replace(/(^|[^\p{L}\p{N}])(\p{L})-(?=\p{L})/gu, '$1$2')
      .match(/[\p{L}\p{N}]+/gu) ?? []
  );
}

export function isStopword(token: string, lang: Lang): boolean {
  return STOPWORDS[lang].has(token);
}

/** Query words that are stop words in either language, or question fillers, carry no topic in any page ("are" must
 * not meet "área"). */
export function isQueryStopword(token: string): boolean {
  return STOPWORDS.pt.has(token) || STOPWORDS.en.has(token) || QUERY_FILLERS.has(token);
}

// Snowball's Portuguese stemmer expects accents and leaves plurals such as "sessões"/"erros" apart from their
// singulars. Folded words are first brought to a singular, then the nasal/accented endings the stemmer keys on are
// put back. Both are functions of the folded word alone, so an accent-less query stems like the accented page.
// The first person plural of verbs (-amos, -emos, -imos) is not a plural: the stemmer removes that ending itself.
const PT_PLURALS: ReadonlyArray<[RegExp, string]> = [
  [/oes$/, 'ao'],
  [/aes$/, 'ao'],
  [/(.{2})ais$/, '$1al'],
  [/(.{2})eis$/, '$1el'],
  [/(.{2})ois$/, '$1ol'],
  [/[aei]mos$/, '$&'],
  [/(.{2}[^su])s$/, '$1'],
];
// The first person of the past of -ar verbs, which the stemmer leaves apart from the infinitive, becomes the infinitive,
// which stems like every other form of the verb: -gar and -car verbs spell it -guei and -quei ("apaguei", "fiquei"),
// and in short verbs the stemmer does not reach the ending at all ("entrei"). (The same rule for -ou and -iu measured
// worse: "saiu" (left the company) then meets "sair" (sign out).)
const PT_VERBS: ReadonlyArray<[RegExp, string]> = [
  [/(.{2})guei$/, '$1gar'],
  [/(.{2})quei$/, '$1car'],
  [/(.{2})ei$/, '$1ar'],
];
const PT_ACCENTS: ReadonlyArray<[RegExp, string]> = [
  [/(.)cao$/, '$1ção'],
  [/(.{2})ao$/, '$1ão'],
  [/encia$/, 'ência'],
  [/ancia$/, 'ância'],
  [/avel$/, 'ável'],
  [/ivel$/, 'ível'],
];

function rewrite(word: string, rules: ReadonlyArray<[RegExp, string]>): string {
  for (const [pattern, replacement] of rules) {
    if (pattern.test(word)) return word.replace(pattern, replacement);
  }
  return word;
}

const cache: Record<Lang, Map<string, string>> = { pt: new Map(), en: new Map() };

/** The index term of a folded token in a language. Digits and very short tokens are kept as they are. */
export function stem(token: string, lang: Lang): string {
  const base = lang === 'en' ? IRREGULAR_VERBS.get(token) : undefined;
  if (base) return stem(base, lang);
  if (token.length < 4 || /^\p{N}+$/u.test(token)) return token;
  const memo = cache[lang];
  let term = memo.get(token);
  if (term === undefined) {
    term = lang === 'pt' ? fold(stemPt(rewrite(rewrite(rewrite(token, PT_VERBS), PT_PLURALS), PT_ACCENTS))) : fold(stemEn(token));
    if (memo.size > 50_000) memo.clear();
    memo.set(token, term);
  }
  return term;
}

/** Tokens → index terms for a document of `lang` (stop words dropped). */
export function analyze(text: string, lang: Lang): string[] {
  const terms: string[] = [];
  for (const token of tokenize(text)) {
    if (!isStopword(token, lang)) terms.push(stem(token, lang));
  }
  return terms;
}

/** `pt-BR` → pt, `en-US` → en; anything else → null. */
export function langOf(tag: string | null | undefined): Lang | null {
  const base = (tag ?? '').trim().toLowerCase().split(/[-_]/)[0];
  return base === 'pt' || base === 'en' ? base : null;
}

// Three rows of the distance matrix, reused across calls (single-threaded; words are short).
let rows: [Int32Array, Int32Array, Int32Array] = [new Int32Array(64), new Int32Array(64), new Int32Array(64)];

/** Optimal string alignment distance (Damerau–Levenshtein with adjacent swaps), stopping early past `max`. */
export function editDistance(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  if (b.length + 1 > rows[0].length) rows = [new Int32Array(b.length + 1), new Int32Array(b.length + 1), new Int32Array(b.length + 1)];
  let [prev2, prev, row] = rows;
  for (let j = 0; j <= b.length; j++) prev[j] = j;
  for (let i = 1; i <= a.length; i++) {
    row[0] = i;
    let best = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a.charCodeAt(i - 1) === b.charCodeAt(j - 1) ? 0 : 1;
      let d = Math.min(prev[j] + 1, row[j - 1] + 1, prev[j - 1] + cost);
      if (i > 1 && j > 1 && a.charCodeAt(i - 1) === b.charCodeAt(j - 2) && a.charCodeAt(i - 2) === b.charCodeAt(j - 1)) d = Math.min(d, prev2[j - 2] + 1);
      row[j] = d;
      if (d < best) best = d;
    }
    if (best > max) return max + 1;
    [prev2, prev, row] = [prev, row, prev2];
  }
  return prev[b.length];
}

/** Sentences of a text block, each a verbatim substring of it (citations must be checkable against the page). */
export function sentences(block: string): string[] {
  const out: string[] = [];
  // A sentence ends at . ! ? followed by white space and a capital, digit, quote or backtick, so "8.5" and
  // "e.g. files_list" stay whole.
  const boundary = /[.!?]+(?=\s+[\p{Lu}\p{N}"“`(])/gu;
  let start = 0;
  for (const match of block.matchAll(boundary)) {
    const end = match.index + match[0].length;
    const s = block.slice(start, end).trim();
    if (s) out.push(s);
    start = end;
  }
  const rest = block.slice(start).trim();
  if (rest) out.push(rest);
  return out;
}
