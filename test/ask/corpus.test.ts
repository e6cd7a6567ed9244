// The public corpus in fixtures/site: size, language balance, well-formed JSON-LD, canonical URLs, and the facts the
// pages state (they must match the spec and design.md section 5).
import t from 'tap';
import { mkdtemp, mkdir, writeFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { canonicalKey, loadCorpus } from '../../server/ask/corpus.ts';
import { DEFAULT_CORPUS_DIR } from '../../server/ask/load.ts';
import { keywordPhrases } from '../../server/ask/sub-index.ts';
import { grammarLang } from '../../server/ask/query-language.ts';
import { analyze, tokenize } from '../../server/ask/text.ts';

const pages = await loadCorpus(DEFAULT_CORPUS_DIR);

t.test('at least 60 pages, half pt-BR and half en-US, one per canonical URL', async (t) => {
  t.ok(pages.length >= 60, `${pages.length} pages`);
  const pt = pages.filter((p) => p.inLanguage === 'pt-BR').length;
  t.equal(pt * 2, pages.length, 'half of them in pt-BR');
  t.equal(new Set(pages.map((p) => p.key)).size, pages.length);
  const types = new Set(pages.map((p) => p.type));
  for (const type of ['WebPage', 'TechArticle', 'FAQPage', 'HowTo', 'Article']) t.ok(types.has(type), type);
  for (const p of pages) {
    t.match(p.url, /^https:\/\/(www\.)?siglata\.com\//, p.file);
    t.ok(p.blocks.length > 0 && p.description.length > 20, p.file);
  }
});

t.test('stated facts match the spec and design', async (t) => {
  const all = pages.map((p) => [p.title, p.description, ...p.blocks].join('\n')).join('\n');
  // No other figure for the same limits anywhere (a quick guard against a page drifting from the spec).
  for (const wrong of [
    /\b5 MiB\b/,
    /\b16 MiB\b/,
    /\b(5|20|100) GiB\b/,
    /\b(7|14|60|90) (days|dias) (in|na) (the )?(trash|lixeira)/i,
    /\b(15|30|60) minut(es|os) .*magic/i,
  ]) {
    t.notMatch(all, wrong);
  }
  for (const right of [
    '8,388,608',
    '8.388.608',
    '10 GiB',
    '30 days',
    '30 dias',
    '120 requests',
    '120 requisições',
    '48 hours',
    '48 horas',
    '10 minutes',
    '10 minutos',
    '7 days',
    '7 dias',
    '1 hour',
    '1 hora',
    'files:read',
    'files:write',
    'org:read',
    'org:admin',
    'offline_access',
    '/oauth/authorize',
    '/oauth/token',
    'RateLimit-Policy',
    '120;w=60',
  ]) {
    t.ok(all.includes(right), right);
  }
  for (const code of [
    'invalid_input',
    'part_mismatch',
    'upload_incomplete',
    'SESSION_EXPIRED',
    'INSUFFICIENT_SCOPE',
    'MCP_ACCESS_REVOKED',
    'ORGANIZATION_MEMBERSHIP_REQUIRED',
    'ORGANIZATION_ADMIN_REQUIRED',
    'ORIGIN_NOT_ALLOWED',
    'not_found',
    'INVITATION_NOT_FOUND',
    'quota_exceeded',
    'conflict',
    'upload_expired',
    'restore_expired',
    'storage_failure',
    'database_failure',
  ]) {
    t.ok(
      pages.some((p) => p.url.endsWith('/en/errors') && p.blocks.join(' ').includes(`\`${code}\``)),
      `en errors page lists ${code}`,
    );
    t.ok(
      pages.some((p) => p.url.endsWith('/pt/erros') && p.blocks.join(' ').includes(`\`${code}\``)),
      `pt errors page lists ${code}`,
    );
  }
});

t.test('every page declares, in its own language, the everyday words and questions it answers that its text does not use', async (t) => {
  for (const p of pages) {
    const phrases = keywordPhrases(p.keywords);
    t.ok(phrases.length >= 8, `${p.file}: ${phrases.length} keyword phrases`);
    // The keywords are for the words people type that the page does not: some of their words are in no field of it.
    const text = new Set(analyze([p.title, p.description, ...p.blocks].join('\n'), p.lang));
    const fresh = new Set(phrases.flatMap((k) => analyze(k, p.lang)).filter((term) => !text.has(term)));
    t.ok(fresh.size >= 3, `${p.file}: ${[...fresh].join(', ')}`);
    // Written in the page's language: no phrase of several words has the other language's function words ("where do
    // deleted files go" on a Portuguese page), and some phrase has its own.
    const worded = phrases.filter((k) => k.includes(' ')).map((k) => [k, grammarLang(tokenize(k))] as const);
    t.same(
      worded.filter(([, lang]) => lang !== null && lang !== p.lang).map(([k]) => k),
      [],
      `${p.file}: no phrase in the other language`,
    );
    t.ok(
      worded.some(([, lang]) => lang === p.lang),
      `${p.file}: a phrase in ${p.inLanguage}`,
    );
  }
});

t.test('canonical keys ignore www., trailing slashes, queries and fragments', async (t) => {
  t.equal(canonicalKey('https://www.siglata.com/en/'), canonicalKey('https://siglata.com/en'));
  t.equal(canonicalKey('https://siglata.com/docs/en/trash?x=1#top'), 'siglata.com/docs/en/trash');
});

t.test('loader: duplicates by canonical URL are dropped, a malformed page names its file, a missing dir is empty', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'ask-corpus-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  t.same(await loadCorpus(join(dir, 'nothing-here')), []);
  await mkdir(join(dir, 'pages'), { recursive: true });
  const page = (url: string, name: string) =>
    JSON.stringify({
      jsonld: { '@context': 'https://schema.org', '@type': 'WebPage', url, name, description: 'A page about the trash.', inLanguage: 'en-US' },
      body: ['Files stay in the trash for 30 days.'],
    });
  await writeFile(join(dir, 'pages', 'a.json'), page('https://siglata.com/x', 'First'));
  await writeFile(join(dir, 'pages', 'b.json'), page('https://www.siglata.com/x/', 'Second'));
  const loaded = await loadCorpus(dir);
  t.equal(loaded.length, 1);
  t.equal(loaded[0].name, 'First');
  await writeFile(join(dir, 'pages', 'c.json'), page('https://example.com/x', 'Foreign'));
  await t.rejects(loadCorpus(dir), /c\.json: .*url/);
});
