// A stated language (prefer.accept-language) orders the answer as the public-search page says: every page in that
// language first, then the other language's relevant pages. Checked in process on the dev set and on cases where
// Portuguese pages share English words and code names, and over HTTP.
import t, { type Test } from 'tap';
import { fileURLToPath } from 'node:url';
import { loadQueries, violatesLanguageOrder } from '../../server/ask/relevance.ts';
import type { Lang } from '../../server/ask/text.ts';
import { ask, corpusIndex, startAskServer } from './server.ts';

const index = await corpusIndex();
const langs = (text: string, lang: Lang) => index.search({ text, lang, maxResults: 20 }).hits.map((h) => h.page.inLanguage);
const fixture = (name: string) => fileURLToPath(new URL(`../../fixtures/site/${name}`, import.meta.url));
const texts = [...(await loadQueries(fixture('dev-queries.json'))), ...(await loadQueries(fixture('queries.json')))].map((q) => q.text);

t.test('every query of the dev set and of queries.json, in each stated language, lists that language first', async (t) => {
  let mixed = 0;
  for (const text of texts) {
    for (const [lang, tag] of [
      ['en', 'en-US'],
      ['pt', 'pt-BR'],
    ] as const) {
      const order = langs(text, lang);
      if (new Set(order).size > 1) mixed++;
      if (violatesLanguageOrder(tag, order)) t.fail(`${tag} "${text}": ${order.join(' ')}`);
    }
  }
  t.ok(mixed > 50, `${mixed} answers hold both languages, so the order was tested`);
});

t.test('English identifiers in Portuguese pages do not put them above English pages', async (t) => {
  for (const text of ['login', 'upload_begin quota_exceeded', 'files_restore', 'maxScopes', 'MCP_ACCESS_REVOKED', 'spreadsheet_read xlsx']) {
    const order = langs(text, 'en');
    t.equal(order[0], 'en-US', text);
    t.notOk(violatesLanguageOrder('en-US', order), `${text}: ${order.join(' ')}`);
  }
  // Without a stated language, code names alone are English: the English page leads.
  t.match(index.search({ text: 'upload_begin part_mismatch' }).hits[0].page.url, /\/en\//);
});

t.test('the other language still follows when it is relevant', async (t) => {
  const order = langs('login', 'en');
  t.ok(order.includes('pt-BR'), 'pt/entrar is listed after the English pages');
  const pt = index.search({ text: 'login magic link', lang: 'pt', maxResults: 20 }).hits.map((h) => h.page.url);
  t.equal(pt[0], 'https://siglata.com/docs/pt/entrar', 'the Portuguese page first even for English words');
  t.ok(pt.includes('https://siglata.com/docs/en/sign-in'), 'then the English page that answers');
});

t.test('over HTTP, accept-language orders the results and is echoed in _meta', async (t) => {
  const srv = await startAskServer();
  t.teardown(() => srv.close());
  for (const [tag, text] of [
    ['en-US', 'login'],
    ['pt-BR', 'magic link expired'],
    ['en', 'lixeira restaurar'],
    ['pt', 'rate limit headers'],
  ]) {
    const res = await ask(srv.url, { query: { text, max_results: 20 }, prefer: { streaming: false, 'accept-language': tag } });
    t.equal(res.status, 200);
    const order = res.json.results.map((r: { inLanguage: string }) => r.inLanguage);
    t.ok(order.length > 0, `${tag} "${text}" answers`);
    t.notOk(violatesLanguageOrder(tag, order), `${tag} "${text}": ${order.join(' ')}`);
    t.equal(res.json._meta['accept-language'], tag.length === 2 ? (tag === 'pt' ? 'pt-BR' : 'en-US') : tag);
  }
});

t.test("without accept-language, a question in one language's grammar answers first in that language, borrowed words aside", async (t) => {
  const hits = (text: string) => index.search({ text, maxResults: 20 }).hits;
  const cases: Array<[string, string, string]> = [
    ['deu erro de rate limit', 'pt-BR', 'https://siglata.com/docs/pt/limites-de-requisicoes'],
    ['mandar invite pra um colega', 'pt-BR', 'https://siglata.com/docs/pt/convites'],
    ['erro de quota no upload', 'pt-BR', 'https://siglata.com/docs/pt/cota-de-armazenamento'],
    ['o que e rate limit', 'pt-BR', 'https://siglata.com/docs/pt/limites-de-requisicoes'],
    ['como configurar o rate limit', 'pt-BR', 'https://siglata.com/docs/pt/limites-de-requisicoes'],
    ['how to use planilhas', 'en-US', 'https://siglata.com/docs/en/spreadsheets'],
    ['what is the lixeira', 'en-US', 'https://siglata.com/docs/en/trash'],
  ];
  for (const [text, tag, page] of cases) {
    const found = hits(text);
    t.equal(found[0]?.page.inLanguage, tag, `"${text}" first: ${found[0]?.page.url}`);
    t.ok(
      found.slice(0, 5).some((h) => h.page.url === page),
      `"${text}" finds ${page}`,
    );
    // Not stated, so the list stays in score order (conformance case 15).
    t.ok(
      found.every((h, i) => i === 0 || found[i - 1].score >= h.score),
      `"${text}" in score order`,
    );
  }
});

/** Without a stated language, each question's answer leads with the given page, written in the language it is taken for. */
function leadsWith(t: Test, cases: ReadonlyArray<readonly [string, string]>): void {
  for (const [text, page] of cases) {
    const found = index.search({ text, maxResults: 5 });
    t.equal(found.lang, page.includes('/en/') ? 'en' : 'pt', `"${text}" is taken for ${found.lang}`);
    t.equal(found.hits[0]?.page.url, page, `"${text}" first: ${found.hits.map((h) => h.page.url).join(' ')}`);
  }
}

t.test('without accept-language, a misspelt word counts for the language of the words it misspells', async (t) => {
  // "scops", "uplods", "bindngs" and "lmits" are written by no page; Portuguese stemming still turns some of them into
  // the stem of an English identifier a Portuguese page quotes (`maxScopes`), which used to put that page first.
  leadsWith(t, [
    ['scops', 'https://siglata.com/docs/en/scopes'],
    ['uplods', 'https://siglata.com/docs/en/uploads'],
    ['bindngs', 'https://siglata.com/docs/en/bindings'],
    ['lmits', 'https://siglata.com/docs/en/rate-limits'],
    ['lixiera', 'https://siglata.com/docs/pt/lixeira'],
    ['plainlhas', 'https://siglata.com/docs/pt/planilhas'],
  ]);
});

t.test('an English word borrowed into a Portuguese question also counts for the Portuguese page that translates it', async (t) => {
  // The Portuguese pages quote "trash" and "storage" only inside code names (`files_trash`), and say "lixeira" and
  // "armazenamento": the word counts for them through the English pages they translate, as a word they lack would.
  leadsWith(t, [
    ['onde fica o trash', 'https://siglata.com/docs/pt/lixeira'],
    ['quanto storage eu tenho', 'https://siglata.com/docs/pt/cota-de-armazenamento'],
    ['storage cheio o que fazer', 'https://siglata.com/docs/pt/cota-de-armazenamento'],
    ['restaurar arquivo do trash', 'https://siglata.com/docs/pt/lixeira'],
  ]);
});
