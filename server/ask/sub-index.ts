// One language's share of the /ask index: its pages' terms (stems and adjacent-word pairs) with field-weighted BM25
// weights computed once, their sentences for citations, the surface vocabulary and the terms the pages use together.
import type { Page } from './corpus.ts';
import { analyze, isStopword, sentences, stem, tokenize, type Lang } from './text.ts';
import { QUERY_FILLERS } from './stopwords.ts';
import { buildVocabulary, type Vocabulary } from './vocabulary.ts';
import { relatedTerms, type Related } from './related.ts';

// Each field is scored on its own and the scores are added, so a word in the title counts on top of the same word in
// the body instead of drowning in it (a long page repeats its topic words; the title names the topic once). Code in
// the body (`files_list`, `upload_begin`) is a field of its own, weighed low: Portuguese pages quote the same English
// identifiers as the English ones, and those must not make them answer English questions.
const FIELDS = 6;
const ASKED = 5;
/** The keywords field, indexed phrase by phrase (keywordTerms). */
const KEYWORDS = 1;
// The title weighs twice the body, not three times: at three, one title word shared with the question ("sandbox" in
// "Execute tool") beat the page whose body answers it ("sandbx secutiry" → security). Body length is normalized only
// half-way (b 0.5): the pages that answer the most questions are the long ones, and full normalization buried them.
// The sixth field holds the FAQ questions the page answers (asked.ts), weighed as body text. The keywords (the everyday
// words and questions a page declares it answers, most of them words its text does not use) weigh 1.5 with b 0.3,
// chosen on the dev set's tune half over 0.5-3 and b 0-0.6: it is flat from 1.25 to 1.5 (nDCG@5 0.945 and 0.942, one
// query apart) and lower below 1 or from 1.75 on; at 1.25 a question phrase of the keywords ("who can") no longer
// lifts its page into the top three, so 1.5.
const WEIGHTS = [2, 1.5, 1.5, 1, 0.3, 1];
const B = [0.3, 0.3, 0.5, 0.5, 0.75, 0.5];
const K1 = 1.2;

export interface Sentence {
  text: string;
  terms: ReadonlySet<string>;
}
export interface Doc {
  page: Page;
  sentences: Sentence[];
}
/** A term's documents with their field-weighted BM25 term weight (query-independent, so computed once) and its idf. */
export interface Posting {
  idf: number;
  docs: number[];
  weights: number[];
}
export interface SubIndex {
  lang: Lang;
  docs: Doc[];
  postings: Map<string, Posting>;
  /** Folded surface words with their term and how often they occur: typos, completions and the language guess. */
  vocab: Vocabulary;
  /** Terms the pages' sentences use together, for questions worded unlike the page that answers them. */
  related: Map<string, Related[]>;
}

/** A word's key in a language: its stem, or the word itself for a stop word (kept only inside pairs). */
export function key(token: string, lang: Lang): string {
  return isStopword(token, lang) ? token : stem(token, lang);
}

/** A one-letter function word ("o", "a", "e", "i") is an article, a conjunction or a pronoun by turns: too ambiguous to
 * anchor a question phrase ("o que" is every "what" of a Portuguese question, not "o que fazer"). */
export function isPhraseWord(token: string): boolean {
  return token.length > 1;
}

/** Index terms of a text: stems of the non-stop words, then the pairs of adjacent words that hold at least one.
 * `questions`: also the pairs of two stop words. A page's keywords name the questions it answers, some in function
 * words alone ("who can do what", "quem pode fazer o quê", "what to do"); elsewhere such pairs are everywhere and say
 * nothing. */
export function docTerms(text: string, lang: Lang, questions = false): string[] {
  const tokens = tokenize(text);
  const terms = analyze(text, lang);
  for (let i = 1; i < tokens.length; i++) {
    const [a, b] = [tokens[i - 1], tokens[i]];
    if (!isStopword(a, lang) || !isStopword(b, lang) || (questions && isPhraseWord(a) && isPhraseWord(b))) terms.push(`${key(a, lang)} ${key(b, lang)}`);
  }
  return terms;
}

/** The phrases of a keywords field (comma-separated, as a page declares them). */
export function keywordPhrases(keywords: string): string[] {
  return keywords
    .split(/[,;\n]/)
    .map((k) => k.trim())
    .filter(Boolean);
}

/** A keyword phrase of function words alone names a kind of question ("who can do what", "o que fazer"); one with a
 * topic word is a question about that topic, whose frame ("where do", "can I") is every question's and says nothing. */
function isQuestionFrame(phrase: string, lang: Lang): boolean {
  return tokenize(phrase).every((t) => isStopword(t, lang) || QUERY_FILLERS.has(t));
}

/** Index terms of a keywords field, phrase by phrase: no pair spans two phrases, and the pairs of two function words
 * are kept only from question frames. */
export function keywordTerms(keywords: string, lang: Lang): string[] {
  return keywordPhrases(keywords).flatMap((phrase) => docTerms(phrase, lang, isQuestionFrame(phrase, lang)));
}

/** `asked`: questions other pages ask that a page answers (an extra field of the page; never cited). */
export function buildSub(lang: Lang, pages: readonly Page[], asked: ReadonlyMap<Page, readonly string[]> = new Map()): SubIndex {
  const docs: Doc[] = [];
  const rows: Array<{ tf: Map<string, number[]>; lens: number[] }> = [];
  const words = new Map<string, { term: string; count: number }>();
  const totals = new Array<number>(FIELDS).fill(0);
  for (const page of pages.filter((p) => p.lang === lang)) {
    const tf = new Map<string, number[]>();
    const body = page.blocks.join('\n');
    const code = [...body.matchAll(/`([^`]*)`/g)].map((m) => m[1]).join('\n');
    const fields = [page.title, page.keywords, page.description, body.replace(/`[^`]*`/g, ' '), code, (asked.get(page) ?? []).join('\n')];
    const lens = fields.map((text, f) => {
      let words_ = 0;
      for (const term of f === KEYWORDS ? keywordTerms(text, lang) : docTerms(text, lang)) {
        let row = tf.get(term);
        if (!row) tf.set(term, (row = new Array<number>(FIELDS).fill(0)));
        row[f]++;
        if (!term.includes(' ')) words_++;
      }
      // The questions a page answers are copies of the FAQ page's words: counted there, not again (word counts, idf).
      for (const token of f === ASKED ? [] : tokenize(text)) {
        if (token.length < 3 || /\p{N}/u.test(token) || isStopword(token, lang)) continue;
        const w = words.get(token);
        if (w) w.count++;
        else words.set(token, { term: stem(token, lang), count: 1 });
      }
      return words_;
    });
    lens.forEach((n, f) => (totals[f] += n));
    const sentenceList = page.blocks.flatMap((block) => sentences(block)).map((text) => ({ text, terms: new Set(docTerms(text, lang)) }));
    docs.push({ page, sentences: sentenceList });
    rows.push({ tf, lens });
  }
  const avg = totals.map((t) => Math.max(1, t / Math.max(1, docs.length)));
  const postings = new Map<string, Posting>();
  const own = new Map<string, number>(); // term → pages writing it (the asked field left out)
  rows.forEach(({ tf, lens }, id) => {
    for (const [term, counts] of tf) {
      let weight = 0;
      for (let f = 0; f < FIELDS; f++) {
        if (counts[f]) weight += (WEIGHTS[f] * counts[f] * (K1 + 1)) / (counts[f] + K1 * (1 - B[f] + (B[f] * lens[f]) / avg[f]));
      }
      let posting = postings.get(term);
      if (!posting) postings.set(term, (posting = { idf: 0, docs: [], weights: [] }));
      posting.docs.push(id);
      posting.weights.push(weight);
      if (counts.some((c, f) => c > 0 && f < ASKED)) own.set(term, (own.get(term) ?? 0) + 1);
    }
  });
  // A term's idf counts the pages that write it; a question credited to the page that answers it is no more writing.
  for (const [term, posting] of postings) posting.idf = idfOf(docs.length, own.get(term) ?? posting.docs.length);
  const related = relatedTerms(docs.flatMap((d) => d.sentences.map((s) => s.terms)));
  return { lang, docs, postings, vocab: buildVocabulary(words), related };
}

export function idfOf(n: number, df: number): number {
  return Math.log(1 + (n - df + 0.5) / (df + 0.5));
}

export function idf(sub: SubIndex, term: string): number {
  return sub.postings.get(term)?.idf ?? idfOf(sub.docs.length, 0);
}
