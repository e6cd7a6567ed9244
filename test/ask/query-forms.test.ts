// Query words the pages do not hold as typed: the last word still being typed (prefix), short typos that stay precise,
// and words split or joined differently from the pages. Each class on several cases, in both languages.
import t from 'tap';
import { corpusIndex } from './server.ts';
import type { Lang } from '../../server/ask/text.ts';
import { buildAskIndex } from '../../server/ask/index.ts';
import { pageFromJson } from '../../server/ask/corpus.ts';

const index = await corpusIndex();
const top = (text: string, lang: Lang | null = null) =>
  index.search({ text, lang, maxResults: 5 }).hits.map((h) => h.page.url.replace(/^https:\/\/(www\.)?siglata\.com/, ''));

t.test('the last word is completed while it is typed', async (t) => {
  const cases: Array<[string, Lang | null, string]> = [
    ['planil', 'pt', '/docs/pt/planilhas'],
    ['downl', 'en', '/docs/en/downloads'],
    ['spreadsh', null, '/docs/en/spreadsheets'],
    ['how do i upl', 'en', '/docs/en/uploads'],
    ['lixe', null, '/docs/pt/lixeira'],
    ['troublesh', 'en', '/docs/en/troubleshooting'],
    ['versionam', 'pt', '/docs/pt/versionamento'],
    ['rate lim', 'en', '/docs/en/rate-limits'],
  ];
  for (const [text, lang, url] of cases) t.equal(top(text, lang)[0], url, text);
});

t.test('only the last word is a prefix, and not once the user typed past it', async (t) => {
  // "planil" as a finished word (followed by a space or a question mark) is not completed.
  t.same(top('planil '), [], 'a trailing space ends the word');
  t.same(top('planil?'), [], 'punctuation ends the word');
  t.same(
    top('planil files', 'en').filter((u) => u.includes('planilhas')),
    [],
    'an earlier word is not completed',
  );
});

t.test('short typos: a dropped or swapped letter finds the word', async (t) => {
  const cases: Array<[string, Lang | null, string]> = [
    ['qota', 'en', '/docs/en/storage-quota'],
    ['rols', 'en', '/docs/en/roles'],
    ['tash', 'en', '/docs/en/trash'],
    ['scops', 'en', '/docs/en/scopes'],
    ['erors', 'en', '/docs/en/errors'],
    ['cot cheia', 'pt', '/docs/pt/cota-de-armazenamento'],
    ['rloes', 'en', '/docs/en/roles'],
  ];
  for (const [text, lang, url] of cases) t.equal(top(text, lang)[0], url, text);
});

t.test('of two words equally near a typo, the one the pages use more counts more', async (t) => {
  const page = (slug: string, body: string) =>
    pageFromJson(
      {
        jsonld: {
          '@context': 'https://schema.org',
          '@type': 'TechArticle',
          url: `https://siglata.com/docs/en/${slug}`,
          headline: slug,
          description: `About ${slug}.`,
          inLanguage: 'en-US',
        },
        body: [body],
      },
      `${slug}.json`,
    );
  // "scops" is one edit from "scopes" and from "stops"; the pages write "scopes" four times as often.
  const small = buildAskIndex([
    page('first', 'Scopes limit a token. Ask for the scopes you need; other scopes are refused, and scopes never grow.'),
    page('second', 'Revoking access stops every agent.'),
    ...Array.from({ length: 30 }, (_, i) => page(`other-${i}`, 'Nothing about either here.')),
  ]);
  const hits = small.search({ text: 'scops', lang: 'en' }).hits;
  t.equal(hits[0]?.page.url, 'https://siglata.com/docs/en/first');
  const stops = hits.find((h) => h.page.url.endsWith('/second'));
  t.ok(!stops || stops.score < hits[0].score / 2, `stops: ${stops?.score}, scopes: ${hits[0]?.score}`);
});

t.test('English contractions typed without their apostrophe are function words, not topics the pages lack', async (t) => {
  for (const [text, url] of [
    ['i cant log in', '/docs/en/sign-in'],
    ['why doesnt my upload finish', '/docs/en/uploads'],
    ['i didnt get the invitation', '/docs/en/invitations'],
  ]) {
    const found = index.search({ text, lang: 'en', maxResults: 5 });
    t.same(found.words.unknown, [], `${text}: no unknown word`);
    t.ok(
      found.hits.some((h) => h.page.url.endsWith(url)),
      text,
    );
  }
});

t.test('short typos stay precise: other short words find nothing', async (t) => {
  for (const text of ['qwer', 'asdf qwer', 'dark', 'xlsq', 'zzz']) t.same(top(text), [], text);
});

t.test('words split or joined unlike the pages meet the pages', async (t) => {
  const cases: Array<[string, Lang | null, string]> = [
    ['down load a file', 'en', '/docs/en/downloads'],
    ['magiclink', 'en', '/docs/en/sign-in'],
    ['ratelimit', 'en', '/docs/en/rate-limits'],
    ['spread sheet', 'en', '/docs/en/spreadsheets'],
    ['up load a big file', 'en', '/docs/en/uploads'],
    ['linkmagico', 'pt', '/docs/pt/entrar'],
    ['e mail de convite', 'pt', '/docs/pt/convites'],
    ['work space', 'en', '/en/'],
  ];
  for (const [text, lang, url] of cases) t.equal(top(text, lang)[0], url, text);
});

t.test('words the pages write apart are not joined', async (t) => {
  // "sign in" is written apart on the pages: it must keep finding the sign-in page, not be read as "signin".
  t.equal(top('sign in', 'en')[0], '/docs/en/sign-in');
  t.equal(top('rate limit', 'en')[0], '/docs/en/rate-limits');
});

t.test('two function words side by side are a phrase, not the halves of one word', async (t) => {
  // "a gente" (we) is not "agente" (agent), though the pages use "agente" and never write "a gente".
  const words = (text: string) => index.search({ text, lang: 'pt' }).words.content;
  t.notOk(words('quanto a gente pode guardar de arquivos').includes('agente'), 'a gente stays apart');
  // A function word beside a content word still joins when the pages write the joined word.
  t.ok(words('down load de arquivo').includes('download'));
  t.ok(words('e mail de convite').includes('email'));
});

t.test('a past form the pages never write is the verb they write, not an unknown word', async (t) => {
  for (const text of ['the script ran for too long', 'the sign-in link you sent never arrived']) {
    t.same(index.search({ text }).words.unknown, [], text);
  }
});

t.test('a word of the same root under another derivational ending meets the page ("lixo" → lixeira)', async (t) => {
  const cases: Array<[string, Lang | null, string]> = [
    ['lixo', 'pt', '/docs/pt/lixeira'],
    ['lixo', null, '/docs/pt/lixeira'],
    ['recuperar do lixo', 'pt', '/docs/pt/lixeira'],
    ['onde fica o lixo', 'pt', '/docs/pt/lixeira'],
    ['planilheiro', 'pt', '/docs/pt/planilhas'],
  ];
  for (const [text, lang, url] of cases) t.ok(top(text, lang).slice(0, 3).includes(url), `${text}: ${top(text, lang).join(' ')}`);
  // The root stays long enough that unrelated words do not meet: these remain unknown to every page.
  for (const [text, word] of [
    ['dark mode', 'dark'],
    ['modo escuro', 'escuro'],
    ['pricing plans', 'pricing'],
    ['suporte por telefone', 'telefone'],
  ])
    t.ok(index.search({ text }).words.unknown.includes(word), `${text}: ${word} unknown`);
});
