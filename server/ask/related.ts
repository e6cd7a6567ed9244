// Related terms derived from the pages themselves: two terms are related when the pages' sentences use them together
// far more often than chance (normalized PMI over sentences). A question worded differently from the page that
// answers it ("take away access" vs "remove member") still shares a related term with it. No hand-made table.
export interface Related {
  term: string;
  strength: number;
}

const MIN_TOGETHER = 2;
const MIN_NPMI = 0.5;
const PER_TERM = 3;

/** For every term, its most strongly co-occurring terms (pairs of words excluded), strongest first. */
export function relatedTerms(sentences: ReadonlyArray<ReadonlySet<string>>): Map<string, Related[]> {
  const single = new Map<string, number>();
  const together = new Map<string, Map<string, number>>();
  for (const set of sentences) {
    const terms = [...set].filter((t) => !t.includes(' '));
    for (const a of terms) {
      single.set(a, (single.get(a) ?? 0) + 1);
      let row = together.get(a);
      if (!row) together.set(a, (row = new Map()));
      for (const b of terms) if (b !== a) row.set(b, (row.get(b) ?? 0) + 1);
    }
  }
  const n = sentences.length;
  const out = new Map<string, Related[]>();
  for (const [a, row] of together) {
    const list: Related[] = [];
    for (const [b, ab] of row) {
      if (ab < MIN_TOGETHER) continue;
      const pab = ab / n;
      const npmi = Math.log(pab / ((single.get(a)! / n) * (single.get(b)! / n))) / -Math.log(pab);
      if (npmi >= MIN_NPMI) list.push({ term: b, strength: npmi });
    }
    list.sort((x, y) => y.strength - x.strength || (x.term < y.term ? -1 : 1));
    if (list.length) out.set(a, list.slice(0, PER_TERM));
  }
  return out;
}
