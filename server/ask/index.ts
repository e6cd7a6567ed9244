// The /ask search: BM25 over one sub-index per page language (sub-index.ts), with query words matched as typed, as
// typos, as completions of the last word, split or joined, through related terms, through the pages' translations and
// the lexicon mined from them; a stated language orders the answer, and a question about what no page knows gets none.
// Pure and deterministic.
import type { Page } from './corpus.ts';
import { isQueryStopword, isStopword, LANGS, otherLang, stem, tokenize, type Lang } from './text.ts';
import { expansions } from './synonyms.ts';
import { pairTranslations } from './translations.ts';
import { completions, derivations, nearest, splitJoin } from './vocabulary.ts';
import { buildSub, idf, key, type Doc, type SubIndex } from './sub-index.ts';
import { bilingualLexicon } from './lexicon.ts';
import { askedQuestions } from './asked.ts';
import type { Related } from './related.ts';

/** Word pairs refine word matches; they never carry a page alone. */
const PAIR_WEIGHT = 0.5;
/** Raw score → 0..100 by saturation s/(s+K): absolute, so the top hit of a weak query stays low. */
const SCALE_K = 8;
/** Scaled scores under this are noise (a single rare word in one body paragraph, a far typo). */
export const MIN_SCORE = 15;
/** Hits far below the best one answer another question. */
const RELATIVE_CUTOFF = 0.15;
/** Without a stated language, pages of the other language than the guessed one rank as if this much weaker. */
const OTHER_LANG_FACTOR = 0.6;
/** When the question's function words are all of one language, the other language's pages rank as if this much weaker:
 * the reader's language is known (though not stated, so the list stays in score order, as without accept-language). */
const OTHER_GRAMMAR_FACTOR = 0.3;
const FUZZY_WEIGHT = [1, 0.75, 0.55];
/** A completion of the last word, typed while the answer appears ("planil" → planilha). */
const PREFIX_WEIGHT = 0.8;
/** A word only the other language uses ("planilhas" in an English question) counts for the translation of the pages
 * that use it, at a discount. */
const BRIDGE_WEIGHT = 0.7;
/** A word the other language's pages use this many times more often than this language's is borrowed from it. */
const BORROWED_RATIO = 3;
/** A term the pages use together with a query word stands in for it at this discount (times their relatedness). */
const RELATED_WEIGHT = 0.5;
const SYNONYM_WEIGHT = 0.8;
/** A word of the other language stands for its translation in this one's pages (times their association). */
const TRANSLATED_WEIGHT = 0.5;
/** A word of the same root under another derivational ending ("lixo" → lixeira). */
const DERIVED_WEIGHT = 0.5;
/** Share of a page's score kept however little of the query it covers. */
const COVERAGE_FLOOR = 0.5;
export const DEFAULT_MAX_RESULTS = 9;
/** The site's overview page (schema.org WebPage, the home page) names every topic in a line each: it answers a question
 * about the product itself, rarely one combining topics, which the page treating them answers ("team got too big for
 * the storage" ranked the home page, which says "every team" and "10 GiB of storage", above the quota page). From two
 * topic words on it ranks as if this much weaker; for a question naming only the site ("o que é a siglata", the
 * WebSite every page declares itself part of), which every page mentions, as if this much stronger. */
const OVERVIEW_FACTOR = 0.5;
/** Topic words up to which a question names a feature rather than describes a situation (see the no-answer rule). */
const SHORT_QUESTION = 3;

interface Alt {
  term: string;
  weight: number;
  /** Matched through the translations: `term` is a term of the other language's sub-index, whose documents map to
   * this one's by `to` (-1: no translation). */
  via?: { sub: SubIndex; to: Int32Array };
}
/** The alternatives of one query word or pair; `mass` is what the group is worth when matched (for coverage). */
interface Group {
  alts: Alt[];
  mass: number;
  /** The query word of a word group (pairs and synonyms have none). */
  word?: string;
}

export interface AskHit {
  page: Page;
  /** 0..100, integer. */
  score: number;
  /** Share of the query's word mass (rarer words weigh more, unknown words most) this page matches, 0..1. */
  coverage: number;
  citations: string[];
}
export interface AskQuery {
  text: string;
  /** `all`/null: every page; a host: pages of that site (`www.` ignored). */
  site?: string | null;
  maxResults?: number | null;
  /** The language the request states (accept-language): its pages come first. null: taken from the question's
   * function words when they all belong to one language, else guessed from its words; the pages of that language get
   * an edge (a larger one in the first case) and the list stays in score order. */
  lang?: Lang | null;
}
export interface AskOutcome {
  hits: AskHit[];
  lang: Lang | null;
  /** The query's topic words, and those no page of either language knows in any form (not even as a typo or prefix). */
  words: { content: string[]; unknown: string[] };
}

export interface AskIndex {
  readonly size: number;
  readonly pages: readonly Page[];
  search(query: AskQuery): AskOutcome;
}

/** Nearest known words of an unknown query word (a typo), discounted by their distance. */
function fuzzy(sub: SubIndex, token: string): Alt[] {
  const { terms, distance } = nearest(sub.vocab, token);
  return terms.map((term) => ({ term, weight: FUZZY_WEIGHT[distance] }));
}

function pairs(tokens: readonly string[], lang: Lang): string[] {
  const out: string[] = [];
  for (let i = 1; i < tokens.length; i++) {
    if (!isQueryStopword(tokens[i - 1]) || !isQueryStopword(tokens[i])) out.push(`${key(tokens[i - 1], lang)} ${key(tokens[i], lang)}`);
  }
  return out;
}

/** Groups of alternative terms for one language: one per query word (its own term, else the nearest vocabulary
 * words; a word of the other language also as its translation), one per adjacent word pair, and the words and pairs of
 * synonym phrases at a discount. A group scores its best alternative, so an expansion never outweighs the word itself. */
function queryGroups(sub: SubIndex, tokens: readonly string[], known: (token: string) => boolean, typing: string | null, translate: (token: string) => readonly Related[]): Group[] {
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
  for (const term of pairs(tokens, sub.lang)) {
    if (sub.postings.has(term)) groups.push({ alts: [{ term, weight: PAIR_WEIGHT }], mass: 0 });
  }
  for (const phrase of expansions(tokens, sub.lang)) {
    const extra: Group[] = [];
    for (const token of phrase) {
      if (isQueryStopword(token) || seen.has(token)) continue;
      const term = stem(token, sub.lang);
      if (sub.postings.has(term)) extra.push({ alts: [{ term, weight: SYNONYM_WEIGHT }], mass: 0 });
    }
    for (const term of pairs(phrase, sub.lang)) {
      if (sub.postings.has(term)) extra.push({ alts: [{ term, weight: PAIR_WEIGHT * SYNONYM_WEIGHT }], mass: 0 });
    }
    groups.push(...extra);
  }
  return groups;
}

/** Each matching page's score and coverage (the share of the query's word mass it matches). */
function scoreSub(sub: SubIndex, groups: Group[]): Map<number, { raw: number; cover: number }> {
  const total = new Map<number, number>();
  const matched = new Map<number, number>();
  const mass = groups.reduce((m, g) => m + g.mass, 0);
  for (const { alts, mass: groupMass } of groups) {
    const best = new Map<number, number>();
    for (const { term, weight, via } of alts) {
      const posting = (via?.sub ?? sub).postings.get(term);
      if (!posting) continue;
      const w = weight * posting.idf;
      for (let i = 0; i < posting.docs.length; i++) {
        const id = via ? via.to[posting.docs[i]] : posting.docs[i];
        if (id < 0) continue;
        const s = w * posting.weights[i];
        if (s > (best.get(id) ?? 0)) best.set(id, s);
      }
    }
    for (const [id, s] of best) {
      total.set(id, (total.get(id) ?? 0) + s);
      matched.set(id, (matched.get(id) ?? 0) + groupMass);
    }
  }
  // Coverage: a page that answers only part of the query ranks below one that answers all of it.
  const out = new Map<number, { raw: number; cover: number }>();
  for (const [id, s] of total) {
    const cover = mass > 0 ? matched.get(id)! / mass : 0;
    out.set(id, { raw: mass > 0 ? s * (COVERAGE_FLOOR + (1 - COVERAGE_FLOOR) * cover) : s, cover });
  }
  return out;
}

/** Up to two sentences of the page sharing the most (rare) query terms, verbatim, most relevant first. */
function cite(sub: SubIndex, doc: Doc, groups: Group[]): string[] {
  const weighted = groups.map(({ alts }) => alts.map((a) => [a.term, a.weight * idf(sub, a.term)] as const));
  const ranked = doc.sentences
    .map((s, i) => {
      let score = 0;
      for (const alts of weighted) {
        let best = 0;
        for (const [term, w] of alts) if (w > best && s.terms.has(term)) best = w;
        score += best;
      }
      return { text: s.text, i, score };
    })
    .filter((s) => s.score > 0)
    .sort((a, b) => b.score - a.score || a.i - b.i);
  const picked = [...new Set(ranked.slice(0, 2).map((s) => s.text))];
  return picked.length > 0 ? picked : doc.sentences.slice(0, 1).map((s) => s.text);
}

/** The query's language when none is asked: each word votes by how much more often the pages of one language use it
 * (English words also occur in Portuguese pages, as code names, but far less often). Stop words vote too. */
function guessLang(subs: Record<Lang, SubIndex>, tokens: readonly string[]): Lang | null {
  let vote = 0; // > 0: pt
  for (const token of new Set(tokens)) {
    // A word no page writes is a typo: it belongs to the language of the words it is a misspelling of ("scops" is
    // "scopes", which the English pages use far more often than the Portuguese ones quote it).
    const typo = !isStopword(token, 'pt') && !isStopword(token, 'en') && !subs.pt.vocab.words.has(token) && !subs.en.vocab.words.has(token);
    const uses = (l: Lang) => (isStopword(token, l) ? 20 : typo ? nearest(subs[l].vocab, token).uses : (subs[l].vocab.words.get(token)?.count ?? 0));
    const pt = uses('pt');
    const en = uses('en');
    vote += Math.log((pt + 1) / (en + 1));
  }
  if (Math.abs(vote) < 1) return null;
  return vote > 0 ? 'pt' : 'en';
}

/** The language of the question's grammar: its function words that only one language uses ("de", "pra", "o que"
 * against "the", "how", "my"), when they all agree. Technical words are borrowed across languages ("rate limit",
 * "invite" in a Portuguese question); function words are not, so they tell the reader's language. */
function grammarLang(tokens: readonly string[]): Lang | null {
  let pt = 0;
  let en = 0;
  for (const token of tokens) {
    const inPt = isStopword(token, 'pt');
    const inEn = isStopword(token, 'en');
    if (inPt && !inEn) pt++;
    else if (inEn && !inPt) en++;
  }
  if (pt > 0 && en === 0) return 'pt';
  if (en > 0 && pt === 0) return 'en';
  return null;
}

/** A query word's alternatives in the other language, reaching this language's pages through their translations at a
 * discount, and what the word weighs there (none when the other language does not know the word either). */
function bridged(word: string, otherGroups: readonly Group[], other: SubIndex, toHere: Int32Array): { alts: Alt[]; mass: number } {
  const there = otherGroups.find((g) => g.word === word);
  const alts = (there?.alts ?? []).filter((a) => !a.via).map((a) => ({ term: a.term, weight: a.weight * BRIDGE_WEIGHT, via: { sub: other, to: toHere } }));
  return { alts, mass: there?.mass ?? 0 };
}

/** Every word the pages use (any field, any language) and every pair of words they write side by side. */
function surfaceWords(pages: readonly Page[]): { surface: Set<string>; adjacent: Set<string> } {
  const surface = new Set<string>();
  const adjacent = new Set<string>();
  for (const page of pages) {
    for (const text of [page.title, page.keywords, page.description, ...page.blocks]) {
      const tokens = tokenize(text);
      tokens.forEach((t, i) => {
        surface.add(t);
        if (i > 0) adjacent.add(`${tokens[i - 1]} ${t}`);
      });
    }
  }
  return { surface, adjacent };
}

export function buildAskIndex(pages: readonly Page[]): AskIndex {
  // Built twice: the first index finds which page answers each FAQ question, the second holds those questions.
  const plain = { pt: buildSub('pt', pages), en: buildSub('en', pages) };
  const subs = { pt: buildSub('pt', pages, askedQuestions(plain.pt)), en: buildSub('en', pages, askedQuestions(plain.en)) } as Record<Lang, SubIndex>;
  // translations[l][id]: the document of the other sub-index translating document `id` of sub-index `l`.
  const translations = { pt: new Int32Array(subs.pt.docs.length).fill(-1), en: new Int32Array(subs.en.docs.length).fill(-1) };
  const docId = (page: Page) => subs[page.lang].docs.findIndex((d) => d.page === page);
  const pairs = pairTranslations(pages);
  for (const [a, b] of pairs) {
    const [pa, pb] = [pages[a], pages[b]];
    translations[pa.lang][docId(pa)] = docId(pb);
    translations[pb.lang][docId(pb)] = docId(pa);
  }
  const lexicon = bilingualLexicon(pages, pairs);
  // A word the other language's pages use more than this one's is a word of that language here: it also stands for its
  // translation ("invite" in a Portuguese question for "convite", which the Portuguese pages only quote in code names).
  const translate = (l: Lang) => (token: string): readonly Related[] => {
    const other = otherLang(l);
    const uses = (x: Lang) => subs[x].vocab.words.get(token)?.count ?? 0;
    return uses(other) > uses(l) ? (lexicon[other].get(stem(token, other)) ?? []) : [];
  };
  const { surface, adjacent } = surfaceWords(pages);
  const siteNames = new Set(pages.flatMap((p) => tokenize(p.siteName)).filter((t) => !isQueryStopword(t)));
  const isPair = (a: string, b: string) => adjacent.has(`${a} ${b}`);
  const isWord = (w: string) => surface.has(w);
  return {
    size: pages.length,
    pages,
    search(query) {
      const tokens = splitJoin(tokenize(query.text), isWord, isPair, isQueryStopword);
      const aboutSite = tokens.some((t) => siteNames.has(t)) && tokens.every((t) => siteNames.has(t) || isQueryStopword(t));
      // The last word may still be being typed, unless the text ends with a space or punctuation.
      const typing = /[\p{L}\p{N}]$/u.test(query.text) ? (tokens.at(-1) ?? null) : null;
      const stated = query.lang ?? null;
      const grammar = stated ? null : grammarLang(tokens);
      const lang = stated ?? grammar ?? guessLang(subs, tokens);
      const site = !query.site || query.site === 'all' ? null : query.site.toLowerCase().replace(/^www\./, '');
      const scored: Array<{ doc: Doc; sub: SubIndex; groups: Group[]; raw: number; cover: number }> = [];
      const matchable = new Set<string>();
      const content = new Set<string>();
      const groupsOf = { pt: queryGroups(subs.pt, tokens, isWord, typing, translate('pt')), en: queryGroups(subs.en, tokens, isWord, typing, translate('en')) };
      for (const l of LANGS) {
        const sub = subs[l];
        const other = otherLang(l);
        const groups = groupsOf[l].map((g) => {
          if (g.word === undefined) return g;
          // A word with no match here counts through the other language's pages; so does a word borrowed from the other
          // language ("trash", "storage" in a Portuguese question), which this one's pages only quote in code names,
          // beside its own matches: the Portuguese page that answers says "lixeira".
          if (g.alts.length === 0) {
            const there = bridged(g.word, groupsOf[other], subs[other], translations[other]);
            return there.alts.length ? { ...g, ...there } : g;
          }
          const uses = (x: Lang) => subs[x].vocab.words.get(g.word!)?.count ?? 0;
          if (uses(other) < BORROWED_RATIO * Math.max(1, uses(l))) return g;
          return { ...g, alts: [...g.alts, ...bridged(g.word, groupsOf[other], subs[other], translations[other]).alts] };
        });
        for (const g of groups) {
          if (g.word === undefined) continue;
          content.add(g.word);
          if (g.alts.length) matchable.add(g.word);
        }
        // A guessed language is only a hint: its pages get an edge, and a clearly better page of the other still wins.
        const factor = stated || !lang || lang === l ? 1 : grammar ? OTHER_GRAMMAR_FACTOR : OTHER_LANG_FACTOR;
        const combined = groups.filter((g) => g.word !== undefined).length >= 2;
        for (const [id, { raw, cover }] of scoreSub(sub, groups)) {
          const doc = sub.docs[id];
          if (site && doc.page.site !== site) continue;
          const overview = doc.page.type !== 'WebPage' ? 1 : aboutSite ? 1 / OVERVIEW_FACTOR : combined ? OVERVIEW_FACTOR : 1;
          scored.push({ doc, sub, groups, raw: raw * factor * overview, cover });
        }
      }
      const unknown = [...content].filter((w) => !matchable.has(w));
      const words = { content: [...content], unknown };
      // No answer: a short question (up to three topic words) names a feature, and when half of its words are words no
      // page uses in any form (not as typed, not as a typo, not as a completion, in neither language), the site does not
      // cover it ("pricing plans", "modo escuro"): whatever matches its other half answers a different question. A
      // longer question describes a situation in everyday words the pages need not use ("coworker quit yesterday,
      // remove him from the organization"), so it is left unanswered only when three quarters of its words are unknown.
      const share = unknown.length / content.size;
      if (unknown.length > 0 && share >= (content.size <= SHORT_QUESTION ? 0.5 : 0.75)) {
        return { hits: [], lang, words };
      }
      const top = Math.max(0, ...scored.map((s) => s.raw));
      const seen = new Set<string>();
      // A stated language orders the list, as the public-search page promises: its pages first, then relevant others.
      const unstated = (s: { doc: Doc }) => (stated && s.doc.page.lang !== stated ? 1 : 0);
      const hits = scored
        .filter((s) => s.raw >= top * RELATIVE_CUTOFF)
        .map((s) => ({ ...s, score: Math.round((100 * s.raw) / (s.raw + SCALE_K)) }))
        .filter((s) => s.score >= MIN_SCORE)
        .sort((a, b) => unstated(a) - unstated(b) || b.score - a.score || (a.doc.page.url < b.doc.page.url ? -1 : a.doc.page.url > b.doc.page.url ? 1 : 0))
        .filter((s) => !seen.has(s.doc.page.key) && seen.add(s.doc.page.key))
        .slice(0, query.maxResults ?? DEFAULT_MAX_RESULTS)
        .map((s) => ({ page: s.doc.page, score: s.score, coverage: s.cover, citations: cite(s.sub, s.doc, s.groups) }));
      return { hits, lang, words };
    },
  };
}
