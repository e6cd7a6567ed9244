// The peer for the /ask relevance figures: MiniSearch over the same pages and fields, once with its default settings
// and once with fuzzy and prefix search, as a stock library would be dropped in.
import MiniSearch from 'minisearch';
import type { Page } from '../../server/ask/corpus.ts';
import type { Ranked } from '../../server/ask/relevance.ts';

export type PeerRanker = (text: string, k: number) => Ranked;

export function miniSearchRankers(pages: readonly Page[]): Record<'MiniSearch default' | 'MiniSearch fuzzy+prefix', PeerRanker> {
  const ms = new MiniSearch({ fields: ['title', 'keywords', 'description', 'body'], storeFields: ['url', 'lang'] });
  ms.addAll(
    pages.map((p, id) => ({ id, title: p.title, keywords: p.keywords, description: p.description, body: p.blocks.join('\n'), url: p.url, lang: p.inLanguage })),
  );
  const rank =
    (options: object) =>
    (text: string, k: number): Ranked => {
      const hits = ms.search(text, options).slice(0, k);
      return { urls: hits.map((h) => h.url as string), langs: hits.map((h) => h.lang as string) };
    };
  return { 'MiniSearch default': rank({}), 'MiniSearch fuzzy+prefix': rank({ fuzzy: 0.2, prefix: true }) };
}
