// Scores one language's pages against the query's groups (field-weighted BM25, see sub-index.ts, times the share of the
// query the page covers) and picks a page's citations.
import type { Doc, SubIndex } from './sub-index.ts';
import { idf } from './sub-index.ts';
import type { Group } from './query-groups.ts';

/** Share of a page's score kept however little of the query it covers. */
const COVERAGE_FLOOR = 0.5;

/** Each matching page's score and coverage (the share of the query's word mass it matches). */
export function scoreSub(sub: SubIndex, groups: Group[]): Map<number, { raw: number; cover: number }> {
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
export function cite(sub: SubIndex, doc: Doc, groups: Group[]): string[] {
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
