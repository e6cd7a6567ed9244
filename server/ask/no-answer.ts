// The no-answer decision for /ask: whether a question asks about something no page covers, so that the right answer is
// none (`results: []`) rather than the pages that share its other words. An empty answer to a question the site does
// answer is the worst answer there is, and a question worded in everyday words may share only one word with the page
// that answers it: so only the strongest evidence empties the answer, and a weaker match is shown with a score that
// says how much of the question it leaves unmatched.
import { CIRCUMSTANCE_WORDS } from './stopwords.ts';

/** The query's topic words, and those no page of either language knows in any form (not even as a typo or prefix). */
export interface QueryWords {
  content: string[];
  unknown: string[];
}

/** A word that tells how or when rather than what: an adverb of manner ("accidentally", "acidentalmente") or of time
 * ("yesterday", "de repente"), or a number ("stuck at 99"). Unknown to the pages, it is no sign of a missing topic. */
export function isCircumstance(word: string): boolean {
  return CIRCUMSTANCE_WORDS.has(word) || /^\p{N}+$/u.test(word) || /^\p{L}{4,}ly$/u.test(word) || /^\p{L}{4,}mente$/u.test(word);
}

/** Whether the site has no answer: the question has no topic word (function words alone, "who can", "o que fazer", say
 * what kind of answer is wanted, not about what), or none of its topic words is known to any page in any form (as
 * typed, as a typo, a completion, a derivation, through a synonym, a keyword or a translation). One known word is
 * enough to answer: whatever shares it is shown, with the score `knownShare` allows. */
export function noAnswer(words: QueryWords): boolean {
  return words.content.every((w) => words.unknown.includes(w));
}

/** The share of the question's topic words some page knows (an unknown circumstance is no topic word): a hit's score is
 * scaled by it, so an answer to half a question never looks like an answer to all of it. */
export function knownShare(words: QueryWords): number {
  const topics = words.content.filter((w) => !(words.unknown.includes(w) && isCircumstance(w)));
  if (topics.length === 0) return 0;
  return topics.filter((w) => !words.unknown.includes(w)).length / topics.length;
}
