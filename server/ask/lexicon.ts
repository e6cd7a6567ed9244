// A bilingual lexicon mined from the site itself: every page exists in both languages with the same fields and the same
// blocks in the same order, so the terms a block and its translation use together, block after block, translate each
// other ("invite" ↔ "convite", "trash" ↔ "lixeira"). A borrowed English word in a Portuguese question ("mandar invite")
// then meets the Portuguese page's own word, not only the pages that quote it in a code name.
import type { Page } from './corpus.ts';
import { analyze, type Lang } from './text.ts';
import type { Related } from './related.ts';

/** Aligned units seen together at least this often. */
const MIN_TOGETHER = 2;
/** Dice coefficient of a term and its translation (1: always together). */
const MIN_DICE = 0.5;
const PER_TERM = 2;

/** A unit's prose terms: code spans and numbers are written alike in both languages and say nothing of translation. */
function prose(text: string, lang: Lang): Set<string> {
  return new Set(analyze(text.replace(/`[^`]*`/g, ' '), lang).filter((t) => !/\p{N}/u.test(t)));
}

/** The aligned units of a page: its title, description, keywords and each body block. */
function units(page: Page): string[] {
  return [page.title, page.description, page.keywords, ...page.blocks];
}

export type Lexicon = Record<Lang, Map<string, Related[]>>;

/** For each language, its terms' translations into the other one (strongest first), from the pages paired as
 * translations (`pairs`: indices into `pages`) whose units align one to one. */
export function bilingualLexicon(pages: readonly Page[], pairs: ReadonlyArray<readonly [number, number]>): Lexicon {
  // Terms are numbered per language so that a pair is one number (en id × 2^16 + pt id) instead of a joined string.
  const ids = { en: new Map<string, number>(), pt: new Map<string, number>() };
  const names = { en: [] as string[], pt: [] as string[] };
  const id = (lang: Lang, term: string) => {
    let n = ids[lang].get(term);
    if (n === undefined) {
      ids[lang].set(term, (n = names[lang].length));
      names[lang].push(term);
    }
    return n;
  };
  const count = { en: [] as number[], pt: [] as number[] };
  const together = new Map<number, number>();
  for (const [a, b] of pairs) {
    const [en, pt] = pages[a].lang === 'en' ? [pages[a], pages[b]] : [pages[b], pages[a]];
    const [eu, pu] = [units(en), units(pt)];
    if (eu.length !== pu.length) continue;
    eu.forEach((text, i) => {
      const e = [...prose(text, 'en')].map((t) => id('en', t));
      const p = [...prose(pu[i], 'pt')].map((t) => id('pt', t));
      for (const x of e) count.en[x] = (count.en[x] ?? 0) + 1;
      for (const y of p) count.pt[y] = (count.pt[y] ?? 0) + 1;
      for (const x of e) for (const y of p) together.set(x * 65536 + y, (together.get(x * 65536 + y) ?? 0) + 1);
    });
  }
  const out: Lexicon = { pt: new Map(), en: new Map() };
  const add = (lang: Lang, from: string, to: string, strength: number) => {
    let list = out[lang].get(from);
    if (!list) out[lang].set(from, (list = []));
    list.push({ term: to, strength });
  };
  for (const [key, n] of together) {
    if (n < MIN_TOGETHER) continue;
    const [x, y] = [Math.floor(key / 65536), key % 65536];
    const dice = (2 * n) / (count.en[x] + count.pt[y]);
    if (dice < MIN_DICE) continue;
    add('en', names.en[x], names.pt[y], dice);
    add('pt', names.pt[y], names.en[x], dice);
  }
  for (const lang of ['pt', 'en'] as const) {
    for (const [term, list] of out[lang]) {
      list.sort((x, y) => y.strength - x.strength || (x.term < y.term ? -1 : 1));
      out[lang].set(term, list.slice(0, PER_TERM));
    }
  }
  return out;
}
