// The /ask search: BM25 over one sub-index per page language (sub-index.ts), with query words matched as typed, as
// typos, as completions of the last word, split or joined, through related terms, through the pages' translations and
// the lexicon mined from them; a stated language orders the answer, and a question about what no page knows gets none.
// Pure and deterministic.
import type { Page } from './corpus.ts';
import { analyze, isQueryStopword, LANGS, otherLang, stem, tokenize, type Lang } from './text.ts';
import { pairTranslations } from './translations.ts';
import { splitJoin } from './vocabulary.ts';
import { buildSub, type Doc, type SubIndex } from './sub-index.ts';
import { bilingualLexicon } from './lexicon.ts';
import { askedQuestions } from './asked.ts';
import type { Related } from './related.ts';
import { bridged, queryGroups, type Group } from './query-groups.ts';
import { cite, scoreSub } from './scoring.ts';
import { grammarLang, guessLang } from './query-language.ts';
import { knownShare, noAnswer, type QueryWords } from './no-answer.ts';
import { DOCUMENTATION_WORDS } from './stopwords.ts';

/** Raw score → 0..100 by saturation s/(s+K): absolute, so the top hit of a weak query stays low. */
const SCALE_K = 8;
/** Scaled scores under this are noise (a single rare word in one body paragraph, a far typo): left out, unless nothing
 * else matches, since a weak answer still shows the page and an empty one hides it. */
export const MIN_SCORE = 15;
/** When no page reaches MIN_SCORE, the pages shown are those within this share of the best one. */
const WEAK_SHARE = 0.5;
/** Hits far below the best one answer another question. */
const RELATIVE_CUTOFF = 0.15;
/** Without a stated language, pages of the other language than the guessed one rank as if this much weaker. */
const OTHER_LANG_FACTOR = 0.6;
/** When the question's function words are all of one language, the other language's pages rank as if this much weaker:
 * the reader's language is known (though not stated, so the list stays in score order, as without accept-language). */
const OTHER_GRAMMAR_FACTOR = 0.3;
export const DEFAULT_MAX_RESULTS = 9;
/** A word the other language's pages use this many times more often than this language's is borrowed from it. */
const BORROWED_RATIO = 3;
/** The site's overview page (schema.org WebPage, the home page) names every topic in a line each: it answers a question
 * about the product itself, rarely one combining topics, which the page treating them answers ("team got too big for
 * the storage" ranked the home page, which says "every team" and "10 GiB of storage", above the quota page). From two
 * topic words on it ranks as if this much weaker; for a question naming only the site ("o que é a siglata", the
 * WebSite every page declares itself part of), which every page mentions, as if this much stronger. */
const OVERVIEW_FACTOR = 0.5;
/** A question whose topic words are exactly a page's short name (the last segment of its URL: "limits", "lixeira",
 * "storage quota") asks for that page by name: it ranks as if this much stronger, above the pages that only share a
 * word of it ("rate limits"). */
const NAMED_FACTOR = 1.5;

/** The stems of a text's topic words as one comparable key (order and repeats ignored). */
const stemKey = (text: string, lang: Lang) => [...new Set(analyze(text, lang))].sort().join(' ');

/** The stems of a page's short name: its URL's last segment, words split at hyphens. The home page has none: its last
 * segment is only its language ("/en/"). */
function nameKey(page: Page): string {
  const slug = new URL(page.url).pathname.replace(/\/+$/, '').split('/').at(-1) ?? '';
  return slug && slug !== page.lang ? stemKey(slug.replaceAll('-', ' '), page.lang) : '';
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
  words: QueryWords;
}

export interface AskIndex {
  readonly size: number;
  readonly pages: readonly Page[];
  search(query: AskQuery): AskOutcome;
}

/** A question's words without those naming the documentation ("docs", "guia"), unless nothing else is left. */
function withoutDocsWords(tokens: string[]): string[] {
  const rest = tokens.filter((t) => !DOCUMENTATION_WORDS.has(t));
  return rest.some((t) => !isQueryStopword(t)) ? rest : tokens;
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
  const translate =
    (l: Lang) =>
    (token: string): readonly Related[] => {
      const other = otherLang(l);
      const uses = (x: Lang) => subs[x].vocab.words.get(token)?.count ?? 0;
      return uses(other) > uses(l) ? (lexicon[other].get(stem(token, other)) ?? []) : [];
    };
  const { surface, adjacent } = surfaceWords(pages);
  const siteNames = new Set(pages.flatMap((p) => tokenize(p.siteName)).filter((t) => !isQueryStopword(t)));
  const isPair = (a: string, b: string) => adjacent.has(`${a} ${b}`);
  const isWord = (w: string) => surface.has(w);
  const names = new Map(pages.map((p) => [p, nameKey(p)]));
  return {
    size: pages.length,
    pages,
    search(query) {
      const joined = splitJoin(tokenize(query.text), isWord, isPair, isQueryStopword);
      const tokens = withoutDocsWords(joined);
      const aboutSite = tokens.some((t) => siteNames.has(t)) && tokens.every((t) => siteNames.has(t) || isQueryStopword(t));
      // The last word may still be being typed, unless the text ends with a space or punctuation.
      // (Not a word naming the docs, left out: "docs about spreadsh" still completes "spreadsh".)
      const typing = /[\p{L}\p{N}]$/u.test(query.text) && tokens.at(-1) === joined.at(-1) ? (tokens.at(-1) ?? null) : null;
      const stated = query.lang ?? null;
      // Every word tells the language, "guide" and "guia" too.
      const grammar = stated ? null : grammarLang(joined);
      const lang = stated ?? grammar ?? guessLang(subs, joined);
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
          // A word a synonym phrase stands for is known to the pages in their own wording ("api key" → access token).
          for (const w of g.stands ?? []) matchable.add(w);
          if (g.word === undefined) continue;
          content.add(g.word);
          if (g.alts.length) matchable.add(g.word);
        }
        // A guessed language is only a hint: its pages get an edge, and a clearly better page of the other still wins.
        const factor = stated || !lang || lang === l ? 1 : grammar ? OTHER_GRAMMAR_FACTOR : OTHER_LANG_FACTOR;
        const combined = groups.filter((g) => g.word !== undefined).length >= 2;
        // Only in the question's language, once known: a typo can spell the other language's name ("acess", stem of "acesso").
        const asked = lang === l ? stemKey(tokens.filter((t) => !isQueryStopword(t)).join(' '), l) : '';
        for (const [id, { raw, cover }] of scoreSub(sub, groups)) {
          const doc = sub.docs[id];
          if (site && doc.page.site !== site) continue;
          const overview = doc.page.type !== 'WebPage' ? 1 : aboutSite ? 1 / OVERVIEW_FACTOR : combined ? OVERVIEW_FACTOR : 1;
          const named = asked !== '' && names.get(doc.page) === asked ? NAMED_FACTOR : 1;
          scored.push({ doc, sub, groups, raw: raw * factor * overview * named, cover });
        }
      }
      const unknown = [...content].filter((w) => !matchable.has(w));
      const words = { content: [...content], unknown };
      if (noAnswer(words)) {
        return { hits: [], lang, words };
      }
      const top = Math.max(0, ...scored.map((s) => s.raw));
      const seen = new Set<string>();
      // A stated language orders the list, as the public-search page promises: its pages first, then relevant others.
      const unstated = (s: { doc: Doc }) => (stated && s.doc.page.lang !== stated ? 1 : 0);
      // The score says how much of the question the page answers: its match, times the share of the question's topic
      // words any page knows (the same for every page: it reorders nothing but near ties, broken by URL as any tie).
      const share = knownShare(words);
      const ranked = scored
        .filter((s) => s.raw >= top * RELATIVE_CUTOFF)
        .map((s) => {
          const strength = (100 * s.raw) / (s.raw + SCALE_K);
          return { ...s, strength, score: Math.max(1, Math.round(strength * share)) };
        })
        .sort((a, b) => unstated(a) - unstated(b) || b.score - a.score || (a.doc.page.url < b.doc.page.url ? -1 : a.doc.page.url > b.doc.page.url ? 1 : 0))
        .filter((s) => !seen.has(s.doc.page.key) && seen.add(s.doc.page.key));
      const best = Math.max(0, ...ranked.map((s) => s.strength));
      const floor = best >= MIN_SCORE ? MIN_SCORE : best * WEAK_SHARE;
      const hits = ranked
        .filter((s) => Math.round(s.strength) >= floor)
        .slice(0, query.maxResults ?? DEFAULT_MAX_RESULTS)
        .map((s) => ({ page: s.doc.page, score: s.score, coverage: s.cover, citations: cite(s.sub, s.doc, s.groups) }));
      return { hits, lang, words };
    },
  };
}
