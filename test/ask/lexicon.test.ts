// The bilingual lexicon is mined from the pages and their translations (aligned block by block), not written by hand:
// a word of the other language in a question stands for the word the pages of the question's language use.
import t from 'tap';
import { bilingualLexicon } from '../../server/ask/lexicon.ts';
import { pageFromJson } from '../../server/ask/corpus.ts';
import { pairTranslations } from '../../server/ask/translations.ts';
import { stem } from '../../server/ask/text.ts';
import { corpusIndex } from './server.ts';

const index = await corpusIndex();
const path = (u: string) => u.replace(/^https:\/\/(www\.)?siglata\.com/, '');

t.test('the site translates its own words, both ways', async (t) => {
  const lexicon = bilingualLexicon(index.pages, pairTranslations(index.pages));
  const first = (lang: 'en' | 'pt', word: string) => lexicon[lang].get(stem(word, lang))?.[0]?.term;
  const pairs: Array<[string, string]> = [
    ['invite', 'convite'],
    ['trash', 'lixeira'],
    ['quota', 'cota'],
    ['scopes', 'escopos'],
    ['session', 'sessão'],
    ['request', 'requisição'],
    ['server', 'servidor'],
  ];
  for (const [en, pt] of pairs) {
    t.equal(first('en', en), stem(pt.normalize('NFKD').replace(/\p{M}/gu, ''), 'pt'), `${en} → ${pt}`);
    t.equal(first('pt', pt.normalize('NFKD').replace(/\p{M}/gu, '')), stem(en, 'en'), `${pt} → ${en}`);
  }
});

t.test('only aligned prose counts: code names and numbers are not translations, one shared block is chance', async (t) => {
  const page = (lang: 'en' | 'pt', url: string, blocks: string[]) =>
    pageFromJson(
      {
        jsonld: {
          '@context': 'https://schema.org',
          '@type': 'TechArticle',
          url,
          name: lang === 'en' ? 'Trash' : 'Lixeira',
          description: lang === 'en' ? 'Deleted files.' : 'Arquivos excluídos.',
          inLanguage: lang === 'en' ? 'en-US' : 'pt-BR',
        },
        body: blocks,
      },
      `${lang}.json`,
    );
  const pages = [
    page('en', 'https://siglata.com/docs/en/trash', ['The trash keeps `files_trash` for 30 days.', 'Restore from the trash.', 'A janitor purges.']),
    page('pt', 'https://siglata.com/docs/pt/lixeira', ['A lixeira guarda `files_trash` por 30 dias.', 'Restaure da lixeira.', 'Um zelador apaga.']),
  ];
  const lexicon = bilingualLexicon(pages, [[0, 1]]);
  t.same(
    lexicon.en.get(stem('trash', 'en'))?.map((r) => r.term),
    [stem('lixeira', 'pt')],
  );
  t.notOk(lexicon.en.has('30') || lexicon.pt.has('30'), 'numbers');
  t.notOk(
    [...lexicon.en.values()].flat().some((r) => r.term === stem('files', 'pt')),
    'code names',
  );
  t.notOk(lexicon.en.has(stem('janitor', 'en')), 'a word seen in one block only');
});

t.test("an English word in a Portuguese question meets the Portuguese page's own word", async (t) => {
  // The Portuguese pages quote "invite" only in code names (`member_invite`); the invitations page says "convite".
  const top = (text: string) => index.search({ text, lang: 'pt', maxResults: 5 }).hits.map((h) => path(h.page.url));
  t.ok(top('mandar invite pra um colega').slice(0, 2).includes('/docs/pt/convites'), top('mandar invite pra um colega').join(' '));
});
