// The no-answer decision for /ask: whether a question asks about something no page covers, so that the right answer is
// none (`results: []`) rather than the pages that share its other words.
import { CIRCUMSTANCE_WORDS } from './stopwords.ts';

/** Topic words up to which a question names a feature rather than describes a situation. */
const SHORT_QUESTION = 3;

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

/** Whether the site has no answer. A question of function words only has no topic. Otherwise a word no page uses in
 * any form (not as typed, not as a typo, not as a completion, through no synonym or translation), unless it is a
 * circumstance, is a topic the site does not know. A short question (up to three topic words) names a
 * feature, and when half of its words are unknown the site does not cover it ("pricing plans", "modo escuro"):
 * whatever matches its other half answers a different question. A longer question describes a
 * situation in everyday words the pages need not use ("coworker quit yesterday, remove him from the organization"), so
 * it is left unanswered only when three quarters of its words are unknown. */
export function noAnswer(words: QueryWords): boolean {
  // Function words alone ("who can", "o que fazer") say what kind of answer is wanted, not about what.
  if (words.content.length === 0) return true;
  // An unknown circumstance leaves both counts; a known one ("every", "never") stays a word of the question.
  const aside = words.unknown.filter(isCircumstance);
  const topics = words.content.filter((w) => !aside.includes(w));
  const unknown = words.unknown.filter((w) => !aside.includes(w));
  if (unknown.length === 0) return false;
  return unknown.length / topics.length >= (topics.length <= SHORT_QUESTION ? 0.5 : 0.75);
}
