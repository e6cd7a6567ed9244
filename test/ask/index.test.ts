// The /ask index in process: language preference, site filter, dedup, floor, typos, tie order and score range.
import t from 'tap';
import { buildAskIndex } from '../../server/ask/index.ts';
import { pageFromJson } from '../../server/ask/corpus.ts';
import { corpusIndex } from './server.ts';

const index = await corpusIndex();
const urls = (text: string, extra: object = {}) => index.search({ text, ...extra }).hits.map((h) => h.page.url);

t.test('accept-language puts that language first without hiding the other', async (t) => {
  const pt = index.search({ text: 'upload_begin quota_exceeded', lang: 'pt', maxResults: 20 }).hits;
  const en = index.search({ text: 'upload_begin quota_exceeded', lang: 'en', maxResults: 20 }).hits;
  t.equal(pt[0].page.inLanguage, 'pt-BR');
  t.equal(en[0].page.inLanguage, 'en-US');
  t.ok(
    pt.some((h) => h.page.inLanguage === 'en-US'),
    'English pages still listed',
  );
  t.ok(
    en.some((h) => h.page.inLanguage === 'pt-BR'),
    'Portuguese pages still listed',
  );
});

t.test('without accept-language the query language is guessed', async (t) => {
  t.equal(index.search({ text: 'como restaurar um arquivo' }).lang, 'pt');
  t.equal(index.search({ text: 'how do I restore a file' }).lang, 'en');
  t.match(urls('como restaurar um arquivo')[0], /\/pt\//);
  t.match(urls('how do I restore a file')[0], /\/en\//);
});

t.test('site filter: siglata.com and www.siglata.com name the same public site', async (t) => {
  const all = urls('perguntas frequentes', { maxResults: 20 });
  t.same(urls('perguntas frequentes', { site: 'siglata.com', maxResults: 20 }), all);
  t.same(urls('perguntas frequentes', { site: 'www.siglata.com', maxResults: 20 }), all);
  t.ok(all.some((u) => u.startsWith('https://www.')));
  t.same(urls('perguntas frequentes', { site: 'example.com' }), []);
});

t.test('nonsense and stop-word-only queries give nothing; scores are integers in 0..100', async (t) => {
  for (const text of ['zzqxv kjhgf', 'the of and', 'o de que', '???', 'asdf qwer']) t.same(urls(text), [], text);
  for (const h of index.search({ text: 'rate limit', maxResults: 20 }).hits) t.ok(Number.isInteger(h.score) && h.score >= 15 && h.score <= 100);
});

t.test('typos fall back to the nearest vocabulary words', async (t) => {
  t.equal(urls('lixera')[0], 'https://siglata.com/docs/pt/lixeira');
  t.equal(urls('downlaod files', { lang: 'en' })[0], 'https://siglata.com/docs/en/downloads');
  t.equal(urls('invitaton expired')[0].includes('invit') || urls('invitaton expired')[0].includes('convite'), true);
});

t.test('duplicates by canonical URL appear once; equal scores are ordered by URL', async (t) => {
  const page = (url: string, topic = 'trash') =>
    pageFromJson(
      {
        jsonld: { '@context': 'https://schema.org', '@type': 'Article', url, headline: topic, description: `About the ${topic}.`, inLanguage: 'en-US' },
        body: [`Files stay in the ${topic} for 30 days.`],
      },
      url,
    );
  // Other topics beside, so that "trash" is a rare (meaningful) word in this small corpus.
  const others = ['quota', 'roles', 'tokens', 'scopes', 'uploads', 'sessions'].map((topic) => page(`https://siglata.com/${topic}`, topic));
  const small = buildAskIndex([page('https://siglata.com/b'), page('https://www.siglata.com/b/'), page('https://siglata.com/a'), ...others]);
  const hits = small.search({ text: 'trash' }).hits;
  t.same(
    hits.map((h) => h.page.url),
    ['https://siglata.com/a', 'https://siglata.com/b'],
  );
  t.equal(hits[0].score, hits[1].score);
  t.same(hits[0].citations, ['Files stay in the trash for 30 days.']);
});

t.test('maxResults bounds the hits; the default is 9', async (t) => {
  t.equal(index.search({ text: 'arquivos organização', maxResults: 2 }).hits.length, 2);
  t.ok(index.search({ text: 'arquivos organização' }).hits.length <= 9);
});
