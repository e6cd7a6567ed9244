// The alternatives each query word stands for in one language's pages: the word as typed, its typos, the completions of
// the word still being typed, its derivations, related terms, synonyms and translations, each at a discount, and the
// word pairs the query holds. Scoring (scoring.ts) counts a group's best alternative.
import { isQueryStopword, stem, type Lang } from './text.ts';
import { expansions } from './synonyms.ts';
import { completions, derivations, nearest } from './vocabulary.ts';
import { idf, isPhraseWord, key, type SubIndex } from './sub-index.ts';
import type { Related } from './related.ts';

/** Word pairs refine word matches; they never carry a page alone. */
const PAIR_WEIGHT = 0.5;
const FUZZY_WEIGHT = [1, 0.75, 0.55];
/** A completion of the last word, typed while the answer appears ("planil" → planilha). */
const PREFIX_WEIGHT = 0.8;
/** A word only the other language uses ("planilhas" in an English question) counts for the translation of the pages
 * that use it, at a discount. */
const BRIDGE_WEIGHT = 0.7;
/** A term the pages use together with a query word stands in for it at this discount (times their relatedness). */
const RELATED_WEIGHT = 0.5;
const SYNONYM_WEIGHT = 0.8;
/** A word of the other language stands for its translation in this one's pages (times their association). */
const TRANSLATED_WEIGHT = 0.5;
/** A word of the same root under another derivational ending ("lixo" → lixeira). */
const DERIVED_WEIGHT = 0.5;

export interface Alt {
  term: string;
  weight: number;
  /** Matched through the translations: `term` is a term of the other language's sub-index, whose documents map to
   * this one's by `to` (-1: no translation). */
  via?: { sub: SubIndex; to: Int32Array };
}
/** The alternatives of one query word or pair; `mass` is what the group is worth when matched (for coverage). */
export interface Group {
  alts: Alt[];
  mass: number;
  /** The query word of a word group (pairs and synonyms have none). */
  word?: string;
  /** The query words a synonym phrase's group stands for: matched, they are words the pages know in another wording. */
  stands?: readonly string[];
}

/** Nearest known words of an unknown query word (a typo), discounted by their distance and, below the most used one,
 * by how much less the pages use them. */
function fuzzy(sub: SubIndex, token: string): Alt[] {
  const { terms, shares, distance } = nearest(sub.vocab, token);
  return terms.map((term, i) => ({ term, weight: FUZZY_WEIGHT[distance] * shares[i] }));
}

/** The query's adjacent word pairs, function words included: the index holds pairs of two function words only where a
 * page's keywords name a question ("who can"), so elsewhere they match nothing. */
function pairs(tokens: readonly string[], lang: Lang): string[] {
  const out: string[] = [];
  for (let i = 1; i < tokens.length; i++) out.push(`${key(tokens[i - 1], lang)} ${key(tokens[i], lang)}`);
  return out;
}

/** Groups of alternative terms for one language: one per query word (its own term, else the nearest vocabulary
 * words; a word of the other language also as its translation), one per adjacent word pair, and the words and pairs of
 * synonym phrases at a discount. A group scores its best alternative, so an expansion never outweighs the word itself. */
export function queryGroups(
  sub: SubIndex,
  tokens: readonly string[],
  known: (token: string) => boolean,
  typing: string | null,
  translate: (token: string) => readonly Related[],
): Group[] {
  const groups: Group[] = [];
  const unknownMass = idf(sub, '');
  const seen = new Set<string>();
  for (const token of tokens) {
    if (isQueryStopword(token) || seen.has(token)) continue;
    seen.add(token);
    const own = stem(token, sub.lang);
    // Only a word no page of any language writes is a typo: an English word is not misspelt Portuguese. (Stems would
    // not do: Portuguese rules stem English words too, and "scops" would pass as a form of "scopes".)
    const alts: Alt[] = sub.postings.has(own) ? [{ term: own, weight: 1 }] : known(token) ? [] : fuzzy(sub, token);
    if (alts.length === 0 && !known(token)) for (const term of derivations(sub.vocab, token, sub.lang)) alts.push({ term, weight: DERIVED_WEIGHT });
    if (token === typing) {
      for (const term of completions(sub.vocab, token)) if (!alts.some((a) => a.term === term)) alts.push({ term, weight: PREFIX_WEIGHT });
    }
    for (const r of translate(token)) {
      if (sub.postings.has(r.term) && !alts.some((a) => a.term === r.term)) alts.push({ term: r.term, weight: TRANSLATED_WEIGHT * r.strength });
    }
    // A word the pages never use still counts in the query's mass, as the rarest word would: it lowers coverage.
    const mass = alts.length ? Math.max(...alts.map((a) => idf(sub, a.term))) : unknownMass;
    if (alts.length === 1 && alts[0].weight === 1) {
      for (const r of sub.related.get(own) ?? []) alts.push({ term: r.term, weight: RELATED_WEIGHT * r.strength });
    }
    groups.push({ alts, mass, word: token });
  }
  // A run of function words ("o que fazer", "who can") is one question phrase: its pairs are alternatives of one group,
  // so a longer phrase does not count more times, and the kind of question it asks is part of what a page must cover.
  let phrase: Alt[] = [];
  const endPhrase = () => {
    if (phrase.length) groups.push({ alts: phrase, mass: Math.max(...phrase.map((a) => idf(sub, a.term))) });
    phrase = [];
  };
  for (let i = 1; i < tokens.length; i++) {
    const term = `${key(tokens[i - 1], sub.lang)} ${key(tokens[i], sub.lang)}`;
    const functional = isQueryStopword(tokens[i - 1]) && isQueryStopword(tokens[i]);
    if (!functional) endPhrase();
    if (!sub.postings.has(term) || (functional && !(isPhraseWord(tokens[i - 1]) && isPhraseWord(tokens[i])))) continue;
    if (functional) phrase.push({ term, weight: PAIR_WEIGHT });
    else groups.push({ alts: [{ term, weight: PAIR_WEIGHT }], mass: 0 });
  }
  endPhrase();
  for (const { from, to } of expansions(tokens, sub.lang)) {
    const extra: Group[] = [];
    for (const token of to) {
      if (isQueryStopword(token) || seen.has(token)) continue;
      const term = stem(token, sub.lang);
      if (sub.postings.has(term)) extra.push({ alts: [{ term, weight: SYNONYM_WEIGHT }], mass: 0, stands: from });
    }
    for (const term of pairs(to, sub.lang)) {
      if (sub.postings.has(term)) extra.push({ alts: [{ term, weight: PAIR_WEIGHT * SYNONYM_WEIGHT }], mass: 0, stands: from });
    }
    groups.push(...extra);
  }
  return groups;
}

/** A query word's alternatives in the other language, reaching this language's pages through their translations at a
 * discount, and what the word weighs there (none when the other language does not know the word either). */
export function bridged(word: string, otherGroups: readonly Group[], other: SubIndex, toHere: Int32Array): { alts: Alt[]; mass: number } {
  const there = otherGroups.find((g) => g.word === word);
  const alts = (there?.alts ?? []).filter((a) => !a.via).map((a) => ({ term: a.term, weight: a.weight * BRIDGE_WEIGHT, via: { sub: other, to: toHere } }));
  return { alts, mass: there?.mass ?? 0 };
}
