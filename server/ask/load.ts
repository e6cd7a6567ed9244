// Start-up for /ask: load fixtures/site and build the index. Failure is logged and yields null, so the service still
// starts and /ask answers 503 (corpus unavailable) instead of taking the whole server down.
import { fileURLToPath } from 'node:url';
import type { Logger } from '../logger.ts';
import { loadCorpus } from './corpus.ts';
import { buildAskIndex, type AskIndex } from './index.ts';

export const DEFAULT_CORPUS_DIR = fileURLToPath(new URL('../../fixtures/site', import.meta.url));

export async function loadAskIndex(dir: string = DEFAULT_CORPUS_DIR, logger?: Logger): Promise<AskIndex | null> {
  try {
    const started = performance.now();
    const pages = await loadCorpus(dir);
    if (pages.length === 0) {
      logger?.warn('ask corpus is empty; /ask answers 503', { dir });
      return null;
    }
    const index = buildAskIndex(pages);
    logger?.info('ask index built', { pages: pages.length, ms: Math.round(performance.now() - started) });
    return index;
  } catch (err) {
    logger?.error('ask corpus failed to load; /ask answers 503', { dir, err });
    return null;
  }
}
