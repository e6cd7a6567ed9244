// The development set (fixtures/site/dev-queries.json): it is broad enough to measure what the issue names, and it is a
// regression floor for both halves, with the stock library (MiniSearch, fuzzy+prefix and default) measured on the same
// pages and queries beside ours.
import t, { type Test } from 'tap';
import { fileURLToPath } from 'node:url';
import { evaluate, loadQueries, type RelevanceQuery } from '../../server/ask/relevance.ts';
import { compare } from '../../bench/ask.ts';
import { corpusIndex } from './server.ts';

const index = await corpusIndex();
const dev = await loadQueries(fileURLToPath(new URL('../../fixtures/site/dev-queries.json', import.meta.url)));

t.test('the dev set holds at least 100 queries of every kind the issue names, each pointing at real pages', async (t) => {
  t.ok(dev.length >= 100, `${dev.length} queries`);
  const kinds = (k: string) => dev.filter((q) => q.kind === k).length;
  t.ok(kinds('paraphrase') + kinds('vague') >= dev.length / 2 - 10, 'about half paraphrases and vague');
  t.ok(kinds('unanswerable') >= 15, 'at least 15 unanswerable');
  for (const k of ['typo', 'short-typo', 'prefix', 'split-join', 'no-accents', 'mixed', 'multi']) t.ok(kinds(k) >= 5, k);
  const known = new Set(index.pages.map((p) => p.url));
  for (const q of dev) for (const u of q.relevant) t.ok(known.has(u), `${q.id}: ${u}`);
  t.same(new Set(dev.map((q) => q.split)), new Set(['tune', 'check']));
  t.equal(new Set(dev.map((q) => q.id)).size, dev.length, 'ids are unique');
});

const half = (split: string): RelevanceQuery[] => dev.filter((q) => q.split === split);

// What each half reaches today: a change that loses ground on either half fails here. The check half's mixed
// Portuguese/English questions have their own floor: the bilingual lexicon (lexicon.ts) took them from 0.56 to 0.69.
// The pages' keywords (everyday words and questions) took paraphrases from 0.69 to 0.93 (tune) and 0.66 to 0.81
// (check); one mixed question of the tune half ("refresh token parou de funcionar") now gets first the MCP access page,
// which says refresh tokens stop working when access is revoked, before the OAuth page it was written for (1.00 to 0.91).
// No floor on unanswerable questions answered empty: a question gets none only when no page knows any of its words
// (no-answer.ts), and an answerable question is never left empty.
const FLOORS = {
  tune: { ndcg: 0.94, recall: 0.95, mixed: 0.9 },
  check: { ndcg: 0.88, recall: 0.95, mixed: 0.83 },
} as const;

for (const split of ['tune', 'check'] as const) {
  t.test(`${split} half: regression floor`, async (t) => {
    const [[, ours]] = await compare(index, half(split));
    const floor = FLOORS[split];
    t.comment(`nDCG@5 ${ours.ndcg.toFixed(3)}, recall@5 ${ours.recall.toFixed(3)}, unanswerable empty ${ours.unansweredRight}/${ours.unanswerable}`);
    t.ok(ours.ndcg >= floor.ndcg, `nDCG@5 ${ours.ndcg}`);
    t.ok(ours.recall >= floor.recall, `recall@5 ${ours.recall}`);
    t.equal(ours.lostAnswers, 0, 'no answerable question left empty');
    t.equal(ours.langViolations, 0, 'same language first whenever one is stated');
    const mixed = ours.byKind.find((k) => k.kind === 'mixed')!;
    t.ok(mixed.ndcg >= floor.mixed, `mixed nDCG@5 ${mixed.ndcg.toFixed(3)}`);
  });
}

t.test('ours is ahead of MiniSearch on the whole dev set, and not behind on the partial-word kinds', async (t) => {
  const reports = await compare(index, dev);
  const [, ours] = reports[0];
  for (const [name, peer] of reports.slice(1)) {
    t.ok(ours.ndcg > peer.ndcg, `nDCG@5 ${ours.ndcg.toFixed(3)} > ${name} ${peer.ndcg.toFixed(3)}`);
    t.ok(ours.lostAnswers <= peer.lostAnswers, `answers lost ${ours.lostAnswers} vs ${name} ${peer.lostAnswers}`);
    t.ok(ours.unansweredRight >= peer.unansweredRight, `unanswerable empty ${ours.unansweredRight} vs ${name} ${peer.unansweredRight}`);
    t.ok(ours.langViolations < peer.langViolations || peer.langViolations === 0, `language violations ${ours.langViolations} vs ${peer.langViolations}`);
    for (const kind of ['prefix', 'split-join', 'typo', 'mixed', 'multi', 'paraphrase']) {
      const a = ours.byKind.find((k) => k.kind === kind)!;
      const b = peer.byKind.find((k) => k.kind === kind)!;
      t.ok(a.ndcg >= b.ndcg, `${kind}: ${a.ndcg.toFixed(3)} ≥ ${name} ${b.ndcg.toFixed(3)}`);
    }
  }
});

t.test('the regression floor queries.json keeps its figures', async (t) => {
  const floor = await loadQueries(fileURLToPath(new URL('../../fixtures/site/queries.json', import.meta.url)));
  const report = await evaluate(floor, (q) => index.search({ text: q.text, maxResults: 5 }).hits.map((h) => h.page.url));
  t.ok(report.recall >= 0.98 && report.ndcg >= 0.975, `recall@5 ${report.recall.toFixed(3)}, nDCG@5 ${report.ndcg.toFixed(3)}`);
  t.equal(report.lostAnswers, 0, 'no answerable question left empty');
});

/** A held-out set's floors: relevance, no answerable question lost, language order, ahead of the peers. */
async function keepsFigures(t: Test, held: RelevanceQuery[], floor: { ndcg: number; recall: number }): Promise<void> {
  const [[, ours], ...peers] = await compare(index, held);
  t.comment(`nDCG@5 ${ours.ndcg.toFixed(3)}, recall@5 ${ours.recall.toFixed(3)}, unanswerable empty ${ours.unansweredRight}/${ours.unanswerable}`);
  t.ok(ours.ndcg >= floor.ndcg && ours.recall >= floor.recall, `nDCG@5 ${ours.ndcg}, recall@5 ${ours.recall}`);
  t.equal(ours.lostAnswers, 0, 'no answerable question left empty');
  t.equal(ours.langViolations, 0, 'same language first whenever one is stated');
  for (const [name, peer] of peers) t.ok(ours.ndcg > peer.ndcg, `nDCG@5 ${ours.ndcg.toFixed(3)} > ${name} ${peer.ndcg.toFixed(3)}`);
}

t.test('the held-out set (never tuned on) is well formed and keeps its figures', async (t) => {
  const held = await loadQueries(fileURLToPath(new URL('../../fixtures/site/holdout-queries.json', import.meta.url)));
  const known = new Set(index.pages.map((p) => p.url));
  for (const q of held) for (const u of q.relevant) t.ok(known.has(u), `${q.id}: ${u}`);
  t.same(new Set(held.map((q) => q.split)), new Set(['holdout']));
  const floor = await loadQueries(fileURLToPath(new URL('../../fixtures/site/queries.json', import.meta.url)));
  const seen = new Set([...dev, ...floor].map((q) => q.text.toLowerCase()));
  t.same(
    held.filter((q) => seen.has(q.text.toLowerCase())).map((q) => q.text),
    [],
    'no query of the dev set or queries.json',
  );
  await keepsFigures(t, held, { ndcg: 0.93, recall: 0.93 });
});

t.test('the second held-out set (another hand, pages only) is well formed and keeps its figures', async (t) => {
  const held = await loadQueries(fileURLToPath(new URL('../../fixtures/site/holdout2-queries.json', import.meta.url)));
  const known = new Set(index.pages.map((p) => p.url));
  for (const q of held) for (const u of q.relevant) t.ok(known.has(u), `${q.id}: ${u}`);
  t.ok(held.length >= 60 && held.filter((q) => q.relevant.length === 0).length >= 10, 'at least 60 queries, 10 of them unanswerable');
  // As first evaluated (the about field): 0.796 / 0.852, 3 of 10, one answer lost.
  await keepsFigures(t, held, { ndcg: 0.855, recall: 0.91 });
});

t.test('the third held-out set (an outsider, pages only, evaluated once as written) is well formed and keeps its figures', async (t) => {
  const held = await loadQueries(fileURLToPath(new URL('../../fixtures/site/holdout3-queries.json', import.meta.url)));
  const known = new Set(index.pages.map((p) => p.url));
  for (const q of held) for (const u of q.relevant) t.ok(known.has(u), `${q.id}: ${u}`);
  t.same(new Set(held.map((q) => q.split)), new Set(['holdout']));
  t.equal(new Set(held.map((q) => q.id)).size, held.length, 'ids are unique');
  t.ok(held.length >= 60, `${held.length} queries`);
  t.ok(held.filter((q) => q.kind === 'paraphrase').length * 4 >= held.length, 'a quarter of them everyday paraphrases');
  t.ok(held.filter((q) => q.relevant.length === 0).length >= 10, 'at least 10 unanswerable');
  // As written (the about field): recall@5 0.859, nDCG@5 0.854, none lost.
  await keepsFigures(t, held, { ndcg: 0.85, recall: 0.855 });
});
