// The surface words of one language's pages, for query words the index does not hold as typed: typos (nearest words by
// edit distance), a last word still being typed (completions), and words written split or joined ("down load",
// "magiclink"). Built once per index; every lookup is deterministic.
import { editDistance } from './text.ts';

export interface Vocabulary {
  /** Folded surface word → its index term and how often the pages use it. */
  words: Map<string, { term: string; count: number }>;
  /** The same words sorted, for prefix lookups by binary search. */
  sorted: string[];
  /** Words by length, each with the bit mask of its letters (a cheap filter before the edit distance). */
  byLen: Map<number, Array<[string, number]>>;
}

export function buildVocabulary(words: Map<string, { term: string; count: number }>): Vocabulary {
  const sorted = [...words.keys()].sort();
  const byLen = new Map<number, Array<[string, number]>>();
  for (const w of sorted) {
    const bucket = byLen.get(w.length) ?? [];
    bucket.push([w, letterMask(w)]);
    byLen.set(w.length, bucket);
  }
  return { words, sorted, byLen };
}

function letterMask(word: string): number {
  let mask = 0;
  for (let i = 0; i < word.length; i++) mask |= 1 << (word.charCodeAt(i) % 31);
  return mask;
}

function popcount(x: number): number {
  let n = 0;
  for (; x; n++) x &= x - 1;
  return n;
}

/** Index terms of the most used words ranked first by `order`, distinct, at most `limit`. */
function topTerms(vocab: Vocabulary, found: string[], limit: number): string[] {
  found.sort((a, b) => vocab.words.get(b)!.count - vocab.words.get(a)!.count || (a < b ? -1 : 1));
  return [...new Set(found.map((w) => vocab.words.get(w)!.term))].slice(0, limit);
}

/** Terms of the known words nearest to an unknown word (same first letter), each with its uses as a share of the most
 * used one's, with their edit distance and how often the pages use those words. Short words (3-4 letters) have too
 * many neighbours for any edit to be a safe guess: they take only the slips people make when typing fast, a dropped
 * letter or two swapped ones, and keep their first letter ("qota" → quota, "rols" → roles; "qwer" is not "quer"). */
export function nearest(vocab: Vocabulary, token: string): { terms: string[]; shares: number[]; distance: number; uses: number } {
  if (token.length < 3 || /\p{N}/u.test(token)) return { terms: [], shares: [], distance: 0, uses: 0 };
  // Two edits only for long words: at seven letters they already turn "pricing" into "writing".
  const max = token.length >= 8 ? 2 : 1;
  const short = token.length < 5;
  const mask = letterMask(token);
  let best = max + 1;
  let found: string[] = [];
  for (let len = token.length - max; len <= token.length + max; len++) {
    for (const [surface, surfaceMask] of vocab.byLen.get(len) ?? []) {
      // People rarely mistype the first letter; a guess that changes it is more often another word.
      if (surface[0] !== token[0]) continue;
      if (short && (len < token.length || (len === token.length && surfaceMask !== mask))) continue;
      // Each edit brings in or takes away at most one distinct letter (a swap none): too many differing letters
      // rule a word out before the distance is computed.
      if (popcount(mask ^ surfaceMask) > 2 * Math.min(best, max)) continue;
      const d = editDistance(token, surface, best);
      if (d < best) {
        best = d;
        found = [surface];
      } else if (d === best) found.push(surface);
    }
  }
  if (best > max) return { terms: [], shares: [], distance: 0, uses: 0 };
  const terms = topTerms(vocab, found, 2);
  // Of two words equally near, the one the pages use more is the likelier meant ("scops": scopes, not stops).
  const termUses = terms.map((term) => found.reduce((n, w) => n + (vocab.words.get(w)!.term === term ? vocab.words.get(w)!.count : 0), 0));
  return {
    terms,
    shares: termUses.map((n) => n / termUses[0]),
    distance: best,
    uses: found.reduce((n, w) => n + vocab.words.get(w)!.count, 0),
  };
}

/** Terms of the most used words that start with `prefix` (the word the user is still typing), itself excluded. */
export function completions(vocab: Vocabulary, prefix: string, limit = 3): string[] {
  if (prefix.length < 3 || /\p{N}/u.test(prefix)) return [];
  let lo = 0;
  let hi = vocab.sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (vocab.sorted[mid] < prefix) lo = mid + 1;
    else hi = mid;
  }
  const found: string[] = [];
  for (let i = lo; i < vocab.sorted.length && vocab.sorted[i].startsWith(prefix); i++) {
    if (vocab.sorted[i] !== prefix) found.push(vocab.sorted[i]);
  }
  return topTerms(vocab, found, limit);
}

/** Query words with splits and joins the pages support: two words whose concatenation the pages use while they never
 * write the two apart ("down load" → download), and an unknown word the pages write as two adjacent words ("magiclink"
 * → magic link). `isWord` knows every surface word of the pages; `isPair` whether two words occur side by side;
 * `isFunction` whether a word is a stop word or a question filler. */
export function splitJoin(
  tokens: readonly string[],
  isWord: (w: string) => boolean,
  isPair: (a: string, b: string) => boolean,
  isFunction: (w: string) => boolean,
): string[] {
  const out: string[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const a = tokens[i];
    const b = tokens[i + 1];
    // Two function words are a phrase of their own ("a gente" is "we", not "agente"), not the halves of one word.
    if (b !== undefined && !(isFunction(a) && isFunction(b)) && isWord(a + b) && !isPair(a, b)) {
      out.push(a + b);
      i++;
      continue;
    }
    if (a.length >= 6 && !isWord(a)) {
      const cut = findCut(a, isWord, isPair);
      if (cut) {
        out.push(a.slice(0, cut), a.slice(cut));
        continue;
      }
    }
    out.push(a);
  }
  return out;
}

function findCut(word: string, isWord: (w: string) => boolean, isPair: (a: string, b: string) => boolean): number {
  for (let i = 2; i <= word.length - 2; i++) {
    const a = word.slice(0, i);
    const b = word.slice(i);
    if (isWord(a) && isWord(b) && isPair(a, b)) return i;
  }
  return 0;
}

/** Derivational endings: a word and its relatives share a root and differ only in one of these ("lixo" and "lixeira",
 * "employ" and "employment"). Inflections are the stemmer's job; these are the endings it keeps apart. */
const DERIVATIONS: Record<'pt' | 'en', readonly string[]> = {
  pt: ['', 'a', 'e', 'o', 'eira', 'eiro', 'aria', 'ario', 'cao', 'coes', 'mento', 'agem', 'ador', 'avel', 'ivel', 'ista', 'ura', 'ar', 'er', 'ir'],
  en: ['', 'e', 'er', 'ee', 'ment', 'tion', 'ation', 'ing', 'able', 'ible', 'al', 'ity', 'ness', 'ship', 'ize', 'ise'],
};

/** Terms of known words sharing an unknown word's root under another derivational ending (the most used first), for a
 * question that names the thing where the page names the act or the place ("lixo" → lixeira). The root keeps at least
 * four letters, or three when the word is one ending away, so short words do not meet unrelated ones. */
export function derivations(vocab: Vocabulary, token: string, lang: 'pt' | 'en', limit = 2): string[] {
  const endings = DERIVATIONS[lang];
  const found = new Set<string>();
  for (const from of endings) {
    if (!token.endsWith(from)) continue;
    const root = token.slice(0, token.length - from.length);
    if (root.length < 3 || (root.length < 4 && from.length > 1)) continue;
    for (const to of endings) {
      if (to === from) continue;
      const word = root + to;
      if (word !== token && vocab.words.has(word)) found.add(word);
    }
  }
  return topTerms(vocab, [...found], limit);
}
