// Relevance metrics for /ask over fixtures/site/queries.json: recall@k and nDCG@k, shared by the test and the benchmark.
// The first listed URL of a query has grade 2 (the one that should rank first), the others grade 1.
import { readFile } from 'node:fs/promises';

export interface RelevanceQuery {
  id: string;
  lang: string;
  kind: string;
  text: string;
  relevant: string[];
}

export interface QueryScore { id: string; text: string; recall: number; ndcg: number; top: string[] }
export interface RelevanceReport { recall: number; ndcg: number; queries: QueryScore[] }

export async function loadQueries(file: string): Promise<RelevanceQuery[]> {
  const json = JSON.parse(await readFile(file, 'utf8')) as { queries: RelevanceQuery[] };
  return json.queries;
}

function grade(q: RelevanceQuery, url: string): number {
  const i = q.relevant.indexOf(url);
  return i < 0 ? 0 : i === 0 ? 2 : 1;
}

/** Scores one ranked URL list against one query. */
export function scoreQuery(q: RelevanceQuery, ranked: readonly string[], k = 5): QueryScore {
  const top = ranked.slice(0, k);
  const found = q.relevant.filter((u) => top.includes(u)).length;
  const dcg = top.reduce((sum, url, i) => sum + (2 ** grade(q, url) - 1) / Math.log2(i + 2), 0);
  const ideal = q.relevant
    .map((u) => grade(q, u))
    .sort((a, b) => b - a)
    .slice(0, k)
    .reduce((sum, g, i) => sum + (2 ** g - 1) / Math.log2(i + 2), 0);
  return { id: q.id, text: q.text, recall: found / q.relevant.length, ndcg: ideal > 0 ? dcg / ideal : 0, top };
}

/** Mean recall@k and nDCG@k; `rank` answers one query with ranked URLs (in process or over HTTP). */
export async function evaluate(queries: readonly RelevanceQuery[], rank: (q: RelevanceQuery) => Promise<string[]> | string[], k = 5): Promise<RelevanceReport> {
  const scores: QueryScore[] = [];
  for (const q of queries) scores.push(scoreQuery(q, await rank(q), k));
  const mean = (f: (s: QueryScore) => number) => scores.reduce((a, s) => a + f(s), 0) / Math.max(1, scores.length);
  return { recall: mean((s) => s.recall), ndcg: mean((s) => s.ndcg), queries: scores };
}
