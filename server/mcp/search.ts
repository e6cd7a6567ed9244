// The MCP `search` tool: a deterministic search over the binding registry (exact name first, then words matched in
// name, aliases, summary and description), in en-US and pt-BR alike: each binding declares its summary and the words
// people say for it in both languages, and a query's words are stemmed the way /ask stems them ("arquivos" meets
// "arquivo", "uploads" meets "upload"). It answers with TypeScript declarations generated from the same schemas the
// bridge enforces, and says of each binding the caller cannot call why, in the words the call itself would be refused with.
import { tokenScopeOf, refusalOf, type Binding, type Caller, type RefusalReason, bindingDeclaration } from '../../runtime-api/index.ts';
import { isQueryStopword, stem, tokenize, type Lang } from '../ask/text.ts';

export type SearchDetail = 'names' | 'summary' | 'full';

export interface SearchHit {
  name: string;
  /** In the caller's language. */
  summary: string;
  requiredScope: string | null;
  writes: boolean;
  /** False when this caller would be refused: `refusal` says why. */
  callable: boolean;
  refusal?: { reason: RefusalReason; code: string; message: string };
  declaration?: string;
  description?: string;
  examples?: string[];
}

/** The first reason `caller` would be refused `b` (null caller: unknown, everything is shown as callable). */
export function refusalFor(b: Binding, caller: Caller | null): { reason: RefusalReason; code: string; message: string } | null {
  const refusal = caller ? refusalOf(b, caller) : null;
  return refusal ? { reason: refusal.reason, code: refusal.error.code, message: refusal.error.resolutionFor(caller!.locale) ?? refusal.error.message } : null;
}

interface Fields {
  alias: Set<string>;
  summary: Set<string>;
  description: Set<string>;
  /**
   * Each alias as its sequence of terms, for whole-phrase matches ("move to folder", "mandar para a lixeira"): without
   * the words that name no topic, so "add a user" holds "add user", unless the alias is made of them ("who am i").
   */
  phrases: { terms: string[]; topical: boolean }[];
}

interface Indexed {
  b: Binding;
  name: Set<string>;
  fields: Record<Lang, Fields>;
}

interface Index {
  bindings: Indexed[];
  /** How many bindings each term names (name, words, summary), per language: a term most bindings share tells little. */
  spread: Record<Lang, Map<string, number>>;
}

const terms = (text: string, lang: Lang) => tokenize(text).map((t) => stem(t, lang));
const isTopical = (token: string) => token.length > 1 && !isQueryStopword(token);

function fieldsOf(lang: Lang, summary: string, description: string, aliases: readonly string[]): Fields {
  return {
    alias: new Set(aliases.flatMap((a) => terms(a, lang))),
    summary: new Set(terms(summary, lang)),
    description: new Set(terms(description, lang)),
    phrases: aliases.map((a) => {
      const topical = tokenize(a).filter(isTopical);
      return topical.length ? { terms: topical.map((t) => stem(t, lang)), topical: true } : { terms: terms(a, lang), topical: false };
    }),
  };
}

const indexes = new WeakMap<readonly Binding[], Index>();

function indexOf(bindings: readonly Binding[]): Index {
  let index = indexes.get(bindings);
  if (!index) {
    const indexed: Indexed[] = bindings.map((b) => ({
      b,
      name: new Set(terms(b.name.replace(/_/g, ' '), 'en')),
      fields: {
        en: fieldsOf('en', b.summary, b.description ?? '', b.aliases ?? []),
        pt: fieldsOf('pt', b.pt?.summary ?? '', '', b.pt?.aliases ?? []),
      },
    }));
    const spread = { en: new Map<string, number>(), pt: new Map<string, number>() };
    for (const x of indexed) {
      for (const lang of ['en', 'pt'] as const) {
        const f = x.fields[lang];
        for (const term of new Set([...(lang === 'en' ? x.name : []), ...f.alias, ...f.summary])) spread[lang].set(term, (spread[lang].get(term) ?? 0) + 1);
      }
    }
    index = { bindings: indexed, spread };
    indexes.set(bindings, index);
  }
  return index;
}

/** `phrase` occurs in `query`, word for word. */
function contains(query: string[], phrase: string[]): boolean {
  if (!phrase.length || phrase.length > query.length) return false;
  return query.some((_, i) => phrase.every((p, j) => query[i + j] === p));
}

function score(x: Indexed, index: Index, query: string, tokens: string[], topical: string[]): number {
  const name = x.b.name;
  if (name === query.trim().toLowerCase()) return 1000;
  let total = 0;
  for (const lang of ['en', 'pt'] as const) {
    const all = tokens.map((t) => stem(t, lang));
    const topicalTerms = tokens.filter(isTopical).map((t) => stem(t, lang));
    // A whole alias phrase in the query is the strongest sign of intent after the name itself.
    total += x.fields[lang].phrases.reduce((n, p) => n + (contains(p.topical ? topicalTerms : all, p.terms) ? 8 * p.terms.length : 0), 0);
  }
  for (const token of topical) {
    let best = 0;
    for (const lang of ['en', 'pt'] as const) {
      const f = x.fields[lang];
      const term = stem(token, lang);
      let s = 0;
      if (lang === 'en' && x.name.has(term)) s += 10;
      else if (lang === 'en' && name.includes(token)) s += 6;
      if (f.alias.has(term)) s += 4;
      if (f.summary.has(term)) s += 3;
      if (f.description.has(term)) s += 1;
      best = Math.max(best, s * Math.log(1 + index.bindings.length / (1 + (index.spread[lang].get(term) ?? 0))));
    }
    total += best;
  }
  return total;
}

/**
 * `names`: name, summary, scope; `summary`: plus the TypeScript declaration; `full`: plus the description and the
 * examples. With a caller, each hit says whether that caller can call it, and if not, why.
 */
export function searchBindings(
  bindings: readonly Binding[],
  query: string,
  limit: number,
  detail: SearchDetail,
  caller: Caller | null = null,
): { results: SearchHit[]; total: number } {
  const tokens = tokenize(query);
  // Words that name no topic ("how", "a", "o", "de") score nothing, unless the query has no other word ("who am i").
  const topical = tokens.filter(isTopical);
  const index = indexOf(bindings);
  const ranked =
    tokens.length === 0
      ? index.bindings.map((x) => ({ b: x.b, s: 1 }))
      : index.bindings.map((x) => ({ b: x.b, s: score(x, index, query, tokens, topical.length ? topical : tokens) })).filter((r) => r.s > 0);
  ranked.sort((x, y) => y.s - x.s || x.b.name.localeCompare(y.b.name));
  const pt = caller?.locale === 'pt-BR';
  const results = ranked.slice(0, limit).map(({ b }) => {
    const refusal = refusalFor(b, caller);
    return {
      name: b.name,
      summary: pt && b.pt ? b.pt.summary : b.summary,
      requiredScope: tokenScopeOf(b),
      writes: b.writes,
      callable: !refusal,
      ...(refusal ? { refusal } : {}),
      ...(detail !== 'names' ? { declaration: bindingDeclaration(b) } : {}),
      ...(detail === 'full' && b.description ? { description: b.description } : {}),
      ...(detail === 'full' && b.examples?.length ? { examples: [...b.examples] } : {}),
    };
  });
  return { results, total: ranked.length };
}
