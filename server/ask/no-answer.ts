// The no-answer decision for /ask: whether a question asks about something no page covers, so that the right answer is
// none (`results: []`) rather than the pages that share its other words.

/** Topic words up to which a question names a feature rather than describes a situation. */
const SHORT_QUESTION = 3;

/** The query's topic words, and those no page of either language knows in any form (not even as a typo or prefix). */
export interface QueryWords { content: string[]; unknown: string[] }

/** A short question (up to three topic words) names a feature, and when half of its words are words no page uses in any
 * form (not as typed, not as a typo, not as a completion, in neither language), the site does not cover it ("pricing
 * plans", "modo escuro"): whatever matches its other half answers a different question. A longer question describes a
 * situation in everyday words the pages need not use ("coworker quit yesterday, remove him from the organization"), so
 * it is left unanswered only when three quarters of its words are unknown. */
export function noAnswer(_tokens: readonly string[], words: QueryWords): boolean {
  const { content, unknown } = words;
  if (unknown.length === 0) return false;
  return unknown.length / content.length >= (content.length <= SHORT_QUESTION ? 0.5 : 0.75);
}
