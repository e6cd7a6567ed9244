// Loads the public site corpus for /ask: one JSON file per page under <dir>/pages/, holding the page's schema.org
// JSON-LD (`jsonld`) and its visible text (`body`, paragraphs). Pages with the same canonical URL are merged (first wins).
import { readdir, readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import * as v from 'valibot';
import { langOf, type Lang } from './text.ts';

const SITE_HOSTS = ['siglata.com', 'www.siglata.com'];

export interface Page {
  /** Canonical URL as the page declares it (absolute https). */
  url: string;
  /** Dedup key: host without `www.`, path without trailing slash, no query or fragment. */
  key: string;
  /** The file it came from, relative to the corpus directory. */
  file: string;
  type: string;
  /** Display name: `name`, else `headline`. */
  name: string;
  /** Everything title-like (name, headline, alternativeHeadline): the most weighted field. */
  title: string;
  description: string;
  keywords: string;
  inLanguage: string;
  lang: Lang;
  /** Host without `www.` (the NLWeb `site`). */
  site: string;
  /** The name of the website the page is part of (schema.org isPartOf), "" when it declares none. */
  siteName: string;
  /** Visible text blocks (body paragraphs, FAQ questions and answers, HowTo steps), verbatim. */
  blocks: string[];
  /** The questions a FAQ page asks (schema.org mainEntity), with their answers; also among `blocks`. */
  questions: Array<{ question: string; answer: string }>;
}

const Text = v.pipe(v.string(), v.trim(), v.minLength(1));
const Named = v.looseObject({ name: v.optional(v.string()), text: v.optional(v.string()) });
const PageFile = v.strictObject({
  jsonld: v.looseObject({
    '@context': v.literal('https://schema.org'),
    '@type': v.string(),
    url: v.pipe(
      v.string(),
      v.url(),
      v.check((u) => isSiteUrl(u), 'url must be https on siglata.com or www.siglata.com'),
    ),
    name: v.optional(Text),
    headline: v.optional(Text),
    alternativeHeadline: v.optional(Text),
    description: Text,
    inLanguage: v.picklist(['pt-BR', 'en-US']),
    keywords: v.optional(v.union([v.string(), v.array(v.string())])),
    mainEntity: v.optional(v.array(v.looseObject({ name: Text, acceptedAnswer: v.looseObject({ text: Text }) }))),
    step: v.optional(v.array(Named)),
    isPartOf: v.optional(v.looseObject({ name: v.optional(v.string()) })),
  }),
  body: v.array(Text),
});

function isSiteUrl(u: string): boolean {
  try {
    const url = new URL(u);
    return url.protocol === 'https:' && SITE_HOSTS.includes(url.hostname);
  } catch {
    return false;
  }
}

export function canonicalKey(u: string): string {
  const url = new URL(u);
  const path = url.pathname.replace(/\/+$/, '') || '/';
  return `${url.hostname.toLowerCase().replace(/^www\./, '')}${path}`;
}

export function pageFromJson(json: unknown, file: string): Page {
  const parsed = v.safeParse(PageFile, json);
  if (!parsed.success) {
    const issue = parsed.issues[0];
    throw new Error(`${file}: ${v.getDotPath(issue) ?? '(root)'}: ${issue.message}`);
  }
  const { jsonld, body } = parsed.output;
  const name = jsonld.name ?? jsonld.headline;
  if (!name) throw new Error(`${file}: jsonld needs a name or headline`);
  const blocks = [...body];
  const questions = (jsonld.mainEntity ?? []).map((q) => ({ question: q.name, answer: q.acceptedAnswer.text as string }));
  for (const q of questions) blocks.push(q.question, q.answer);
  for (const s of jsonld.step ?? []) {
    if (s.text) blocks.push(s.text);
  }
  const keywords = Array.isArray(jsonld.keywords) ? jsonld.keywords.join(', ') : (jsonld.keywords ?? '');
  const title = [...new Set([jsonld.name, jsonld.headline, jsonld.alternativeHeadline].filter(Boolean))].join(' \n ');
  return {
    url: jsonld.url,
    key: canonicalKey(jsonld.url),
    file,
    type: jsonld['@type'],
    name,
    title,
    description: jsonld.description,
    keywords,
    inLanguage: jsonld.inLanguage,
    lang: langOf(jsonld.inLanguage)!,
    site: new URL(jsonld.url).hostname.replace(/^www\./, ''),
    siteName: jsonld.isPartOf?.name?.trim() ?? '',
    blocks,
    questions,
  };
}

async function listJson(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries
    .filter((e) => e.isFile() && e.name.endsWith('.json'))
    .map((e) => join(e.parentPath, e.name))
    .sort();
}

/** Every page under `<dir>/pages` (sorted by file name, duplicates by canonical URL dropped). A missing directory is an
 * empty corpus (the route answers 503); a malformed page throws, naming the file. */
export async function loadCorpus(dir: string): Promise<Page[]> {
  let files: string[];
  try {
    files = await listJson(join(dir, 'pages'));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw err;
  }
  const seen = new Set<string>();
  const pages: Page[] = [];
  for (const path of files) {
    const file = relative(dir, path);
    let json: unknown;
    try {
      json = JSON.parse(await readFile(path, 'utf8'));
    } catch (err) {
      throw new Error(`${file}: ${(err as Error).message}`);
    }
    const page = pageFromJson(json, file);
    if (seen.has(page.key)) continue;
    seen.add(page.key);
    pages.push(page);
  }
  return pages;
}
