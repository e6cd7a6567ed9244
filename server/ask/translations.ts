// The site is written twice, once per language, but its pages do not link their translations. A page and its
// translation quote the same code names, paths, numbers and product names, while two pages of one language on different
// topics share few of them: pages are paired by the overlap of those language-neutral tokens, mutual best matches only.
import type { Page } from './corpus.ts';
import { isStopword, otherLang, tokenize, type Lang } from './text.ts';

/** Tokens a page shares with its translation: code spans, numbers, and the words its language does not own. */
function neutralTokens(page: Page, other: Lang, otherWords: ReadonlySet<string>): Set<string> {
  const text = [page.title, page.keywords, page.description, ...page.blocks].join('\n');
  const out = new Set<string>();
  for (const m of text.matchAll(/`([^`]*)`/g)) for (const t of tokenize(m[1])) out.add(t);
  for (const t of tokenize(text)) if (/\p{N}/u.test(t) || (otherWords.has(t) && !isStopword(t, other))) out.add(t);
  return out;
}

/** Pairs of page indices [a, b] that translate each other (each page in at most one pair). */
export function pairTranslations(pages: readonly Page[]): Array<[number, number]> {
  const words = { pt: new Set<string>(), en: new Set<string>() };
  for (const p of pages) for (const t of tokenize([p.title, p.description, ...p.blocks].join('\n'))) words[p.lang].add(t);
  const sets = pages.map((p) => neutralTokens(p, otherLang(p.lang), words[otherLang(p.lang)]));
  const similarity = (a: number, b: number) => {
    let shared = 0;
    for (const t of sets[a]) if (sets[b].has(t)) shared++;
    return shared / Math.max(1, sets[a].size + sets[b].size - shared);
  };
  const best = (a: number) => {
    let top = -1;
    let score = 0;
    pages.forEach((p, b) => {
      if (p.lang === pages[a].lang) return;
      const s = similarity(a, b);
      if (s > score) {
        score = s;
        top = b;
      }
    });
    return top;
  };
  const pairs: Array<[number, number]> = [];
  pages.forEach((p, a) => {
    if (p.lang !== 'en') return;
    const b = best(a);
    if (b >= 0 && best(b) === a) pairs.push([a, b]);
  });
  return pairs;
}
