// The no-answer decision for /ask: whether a question asks about something no page covers, so that the right answer is
// none (`results: []`) rather than the pages that share its other words.
import { FRAME_WORDS, TIME_WORDS } from './stopwords.ts';

/** Topic words up to which a question names a feature rather than describes a situation. */
const SHORT_QUESTION = 3;

/** The query's topic words, and those no page of either language knows in any form (not even as a typo or prefix). */
export interface QueryWords { content: string[]; unknown: string[] }

/** An adverb of manner ("accidentally", "acidentalmente") or of time ("yesterday", "de repente") tells how or when the
 * asker's situation came about, not what it is about: unknown to the pages, it is no sign of a missing topic. */
export function isCircumstance(word: string): boolean {
  return TIME_WORDS.has(word) || /^\p{L}{4,}ly$/u.test(word) || /^\p{L}{4,}mente$/u.test(word);
}

/** A question that is a sentence ("how do I", "meu agente perdeu") tells a situation; one that is not names a thing. */
export function isSentence(tokens: readonly string[]): boolean {
  return tokens.some((t) => FRAME_WORDS.has(t));
}

/** Whether the site has no answer. A question of function words only has no topic. A word no page uses in any form
 * (not as typed, not as a typo, not as a completion, in neither language, nor a circumstance) is a topic the site does
 * not know:
 * - a short question (up to three topic words) that is not a sentence names a feature, and a feature named with a word
 *   the pages never use is one they do not cover ("two factor authentication", "histórico de versões de um arquivo"):
 *   its other words ("authentication", "arquivo") are what it is built from, not what it asks;
 * - a short sentence misses its topic when half of its words are unknown ("quanto custa o plano");
 * - a longer question describes a situation in everyday words the pages need not use ("coworker quit yesterday, remove
 *   him from the organization"), so it is left unanswered only when three quarters of its words are unknown. */
export function noAnswer(tokens: readonly string[], words: QueryWords): boolean {
  // Function words alone ("who can", "o que fazer") say what kind of answer is wanted, not about what.
  if (words.content.length === 0) return true;
  const content = words.content.filter((w) => !(isCircumstance(w) && words.unknown.includes(w)));
  const unknown = words.unknown.filter((w) => !isCircumstance(w));
  if (unknown.length === 0) return false;
  if (content.length > SHORT_QUESTION) return unknown.length / content.length >= 0.75;
  return !isSentence(tokens) || unknown.length / content.length >= 0.5;
}
