// Relevance metrics for /ask over a query set (fixtures/site/queries.json, fixtures/site/dev-queries.json): recall@k,
// nDCG@k, unanswerable questions answered empty, and same-language-first violations, overall and per query kind.
// Shared by the tests and the benchmark. The first listed URL of a query has grade 2, the others grade 1.
import { readFile } from 'node:fs/promises';

export interface RelevanceQuery {
  id: string;
  lang: string;
  kind: string;
  text: string;
  /** Relevant pages, best first; empty: the site cannot answer, and only an empty answer is right. */
  relevant: string[];
  /** Sent as prefer.accept-language when present. */
  acceptLanguage?: string;
  /** `tune` or `check` (dev set): the half tuned on and the half held out. */
  split?: string;
}

/** One ranked answer: its URLs and each one's page language (`pt-BR`/`en-US`). */
export interface Ranked {
  urls: string[];
  langs: string[];
}

export interface QueryScore {
  id: string;
  kind: string;
  text: string;
  recall: number;
  ndcg: number;
  top: string[];
  /** The answer was empty. */
  empty: boolean;
  /** A page in another language ranked above one in the stated language. */
  langViolation: boolean;
}
export interface KindReport {
  kind: string;
  /** Answerable queries, on which recall and nDCG are averaged. */
  answerable: number;
  recall: number;
  ndcg: number;
  unanswerable: number;
  /** Unanswerable queries answered with no results. */
  unansweredRight: number;
  /** Answerable queries answered with no results. */
  lostAnswers: number;
  /** Queries with a stated language, and how many of them put another language first. */
  stated: number;
  langViolations: number;
}
export interface RelevanceReport extends KindReport {
  queries: QueryScore[];
  byKind: KindReport[];
}

export async function loadQueries(file: string): Promise<RelevanceQuery[]> {
  const json = JSON.parse(await readFile(file, 'utf8')) as { queries: RelevanceQuery[] };
  return json.queries;
}

function grade(q: RelevanceQuery, url: string): number {
  const i = q.relevant.indexOf(url);
  return i < 0 ? 0 : i === 0 ? 2 : 1;
}

/** Whether a page of another language comes before a page of the stated one. */
export function violatesLanguageOrder(stated: string | undefined, langs: readonly string[]): boolean {
  if (!stated) return false;
  const base = stated.slice(0, 2);
  const lastSame = langs.findLastIndex((l) => l.startsWith(base));
  const firstOther = langs.findIndex((l) => !l.startsWith(base));
  return firstOther >= 0 && firstOther < lastSame;
}

/** Scores one ranked answer against one query. */
export function scoreQuery(q: RelevanceQuery, ranked: Ranked | readonly string[], k = 5): QueryScore {
  const { urls, langs } = Array.isArray(ranked) ? { urls: ranked as string[], langs: [] as string[] } : (ranked as Ranked);
  const top = urls.slice(0, k);
  const found = q.relevant.filter((u) => top.includes(u)).length;
  const dcg = top.reduce((sum, url, i) => sum + (2 ** grade(q, url) - 1) / Math.log2(i + 2), 0);
  const ideal = q.relevant
    .map((u) => grade(q, u))
    .sort((a, b) => b - a)
    .slice(0, k)
    .reduce((sum, g, i) => sum + (2 ** g - 1) / Math.log2(i + 2), 0);
  return {
    id: q.id,
    kind: q.kind,
    text: q.text,
    recall: q.relevant.length ? found / q.relevant.length : 0,
    ndcg: ideal > 0 ? dcg / ideal : 0,
    top,
    empty: urls.length === 0,
    langViolation: violatesLanguageOrder(q.acceptLanguage, langs),
  };
}

function summarize(kind: string, queries: readonly RelevanceQuery[], scores: readonly QueryScore[]): KindReport {
  const answerable = scores.filter((_, i) => queries[i].relevant.length > 0);
  const unanswerable = scores.filter((_, i) => queries[i].relevant.length === 0);
  const mean = (f: (s: QueryScore) => number) => answerable.reduce((a, s) => a + f(s), 0) / Math.max(1, answerable.length);
  return {
    kind,
    answerable: answerable.length,
    recall: mean((s) => s.recall),
    ndcg: mean((s) => s.ndcg),
    unanswerable: unanswerable.length,
    unansweredRight: unanswerable.filter((s) => s.empty).length,
    lostAnswers: answerable.filter((s) => s.empty).length,
    stated: queries.filter((q) => q.acceptLanguage).length,
    langViolations: scores.filter((s) => s.langViolation).length,
  };
}

/** Metrics overall and per kind; `rank` answers one query (in process or over HTTP). */
export async function evaluate(
  queries: readonly RelevanceQuery[],
  rank: (q: RelevanceQuery) => Promise<Ranked | string[]> | Ranked | string[],
  k = 5,
): Promise<RelevanceReport> {
  const scores: QueryScore[] = [];
  for (const q of queries) scores.push(scoreQuery(q, await rank(q), k));
  const kinds = [...new Set(queries.map((q) => q.kind))];
  const byKind = kinds.map((kind) => {
    const idx = queries.map((q, i) => (q.kind === kind ? i : -1)).filter((i) => i >= 0);
    return summarize(
      kind,
      idx.map((i) => queries[i]),
      idx.map((i) => scores[i]),
    );
  });
  return { ...summarize('all', queries, scores), queries: scores, byKind };
}
