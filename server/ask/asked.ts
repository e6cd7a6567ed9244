// Questions as anchor text: a FAQ page asks, in the words people use, questions whose full answer lives on another page
// ("Can I get back a file I deleted?" is the trash page's subject). Each question is credited to the page that
// answers it, the content page sharing the most (rare) terms with the question and its short answer, as a field of
// that page, so a question worded like the FAQ's reaches the page that explains. Derived from the pages; no table.
import type { Page } from './corpus.ts';
import { analyze } from './text.ts';
import type { SubIndex } from './sub-index.ts';

/** Pages that gather questions or introduce the site answer no question in full themselves (schema.org types). */
const GATHERING = new Set(['FAQPage', 'WebPage']);

/** For each page of the sub-index's language, the FAQ questions it answers. */
export function askedQuestions(sub: SubIndex): Map<Page, string[]> {
  const out = new Map<Page, string[]>();
  for (const doc of sub.docs) {
    for (const { question, answer } of doc.page.questions) {
      const scores = new Map<number, number>();
      for (const term of new Set(analyze(`${question}\n${answer}`, sub.lang))) {
        const posting = sub.postings.get(term);
        if (!posting) continue;
        for (let i = 0; i < posting.docs.length; i++) {
          const id = posting.docs[i];
          scores.set(id, (scores.get(id) ?? 0) + posting.idf * posting.weights[i]);
        }
      }
      let best = -1;
      let top = 0;
      for (const [id, score] of scores) {
        const page = sub.docs[id].page;
        if (page === doc.page || GATHERING.has(page.type)) continue;
        if (score > top || (score === top && best >= 0 && page.url < sub.docs[best].page.url)) {
          top = score;
          best = id;
        }
      }
      if (best < 0) continue;
      const target = sub.docs[best].page;
      out.set(target, [...(out.get(target) ?? []), question]);
    }
  }
  return out;
}
