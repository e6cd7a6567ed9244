// Related terms come from the pages' own sentences (co-occurrence), not from a table: a question worded unlike the page
// that answers it reaches the page through a term the pages use together with one of its words.
import t from 'tap';
import { relatedTerms } from '../../server/ask/related.ts';
import { corpusIndex } from './server.ts';

t.test('terms used together in several sentences are related; chance companions are not', async (t) => {
  const s = (...terms: string[]) => new Set(terms);
  const related = relatedTerms([
    s('deprec', 'sunset', 'header'),
    s('deprec', 'sunset', 'endpoint'),
    s('deprec', 'sunset'),
    s('header', 'rate'),
    s('rate', 'limit'),
    s('rate', 'limit', 'header'),
    s('file', 'trash'),
    s('file', 'upload'),
    s('file', 'quota'),
    s('quota', 'file'),
    s('deprec sunset', 'deprec', 'sunset'),
  ]);
  t.same(
    related.get('deprec')?.map((r) => r.term),
    ['sunset'],
    'deprecation and sunset go together',
  );
  t.same(
    related.get('sunset')?.map((r) => r.term),
    ['deprec'],
  );
  t.notOk(
    related.get('file')?.some((r) => r.term === 'trash'),
    'one shared sentence is chance',
  );
  t.notOk(
    [...related.values()].flat().some((r) => r.term.includes(' ')),
    'word pairs are not related terms',
  );
});

t.test('a paraphrase reaches the page through a related term', async (t) => {
  const index = await corpusIndex();
  // "deixar de existir" (stop existing) is never written; "aviso" and "endpoint" meet "descontinuação"/"Sunset" through
  // the sentences of the versioning page.
  const hits = index.search({ text: 'aviso antes de um endpoint deixar de existir', lang: 'pt', maxResults: 5 }).hits;
  t.equal(hits[0]?.page.url, 'https://siglata.com/docs/pt/versionamento');
});
