// Pages are paired with their translations from the corpus itself (no page links them), and a word only the other
// language uses reaches the translation of the pages that use it: mixed Portuguese/English questions.
import t from 'tap';
import { pairTranslations } from '../../server/ask/translations.ts';
import type { Lang } from '../../server/ask/text.ts';
import { corpusIndex } from './server.ts';

const index = await corpusIndex();
const path = (u: string) => u.replace(/^https:\/\/(www\.)?siglata\.com/, '');

t.test('every English page is paired with its Portuguese translation', async (t) => {
  const pairs = pairTranslations(index.pages).map(([a, b]) => [path(index.pages[a].url), path(index.pages[b].url)]);
  t.equal(pairs.length, index.pages.filter((p) => p.lang === 'en').length);
  const expected: Record<string, string> = {
    '/docs/en/trash': '/docs/pt/lixeira',
    '/docs/en/spreadsheets': '/docs/pt/planilhas',
    '/docs/en/sign-in': '/docs/pt/entrar',
    '/docs/en/rate-limits': '/docs/pt/limites-de-requisicoes',
    '/docs/en/limits': '/docs/pt/limites',
    '/en/faq': '/pt/perguntas-frequentes',
    '/docs/en/bindings': '/docs/pt/funcoes',
    '/en/': '/pt/',
    '/docs/en/troubleshooting': '/docs/pt/solucao-de-problemas',
  };
  const map = Object.fromEntries(pairs);
  for (const [en, pt] of Object.entries(expected)) t.equal(map[en], pt, en);
  t.equal(new Set(pairs.map(([, pt]) => pt)).size, pairs.length, 'each Portuguese page once');
});

t.test('a word of the other language finds the translation in the stated language', async (t) => {
  const cases: Array<[string, Lang, string]> = [
    ['how to use planilhas', 'en', '/docs/en/spreadsheets'],
    ['lixeira restore', 'en', '/docs/en/trash'],
    ['convites expire', 'en', '/docs/en/invitations'],
    ['restaurar do trash', 'pt', '/docs/pt/lixeira'],
    ['spreadsheet com csv', 'pt', '/docs/pt/planilhas'],
    ['sessao cookie', 'en', '/docs/en/sessions'],
  ];
  for (const [text, lang, url] of cases) t.equal(path(index.search({ text, lang, maxResults: 5 }).hits[0]?.page.url ?? ''), url, `${lang}: ${text}`);
});
