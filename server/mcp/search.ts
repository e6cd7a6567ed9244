// The MCP `search` tool: a deterministic search over the binding registry (exact name first, then word matches in
// name, summary and description), answering with TypeScript declarations generated from the same schemas the
// bridge enforces, so what a model reads is what the sandbox runs.
import { tokenScopeOf, type Binding, bindingDeclaration } from '../../runtime-api/index.ts';

export type SearchDetail = 'names' | 'summary' | 'full';

export interface SearchHit {
  name: string;
  summary: string;
  requiredScope: string | null;
  writes: boolean;
  /** False when the caller's scopes (or a session-only rule) do not allow calling it. */
  callable: boolean;
  declaration?: string;
  description?: string;
  examples?: string[];
}

/** Whether a caller holding `scopes` may call `b` (null scopes: unknown caller, everything is shown as callable). */
export function canCall(b: Binding, scopes: readonly string[] | null): boolean {
  if (!scopes) return true;
  if (b.sessionOnly) return false;
  const scope = tokenScopeOf(b);
  return scope === null || scopes.includes(scope);
}

function words(text: string): string[] {
  return text
    .toLowerCase()
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .split(/[^a-z0-9]+/)
    .filter((w) => w.length > 1);
}

function score(b: Binding, query: string, terms: string[]): number {
  const name = b.name.toLowerCase();
  if (name === query.trim().toLowerCase()) return 1000;
  const nameWords = new Set(words(b.name.replace(/_/g, ' ')));
  const summary = new Set(words(b.summary));
  const description = new Set(words(b.description ?? ''));
  const aliasWords = new Set(words((b.aliases ?? []).join(' ')));
  const q = ` ${words(query).join(' ')} `;
  // A whole alias phrase in the query ("move to folder") is the strongest sign of intent after the name itself.
  let s = (b.aliases ?? []).reduce((n, a) => n + (q.includes(` ${words(a).join(' ')} `) ? 8 * words(a).length : 0), 0);
  for (const term of terms) {
    if (nameWords.has(term)) s += 10;
    else if (name.includes(term)) s += 6;
    if (aliasWords.has(term)) s += 4;
    if (summary.has(term)) s += 3;
    if (description.has(term)) s += 1;
    // plural/singular forgiveness: "files" ~ "file", "uploads" ~ "upload"
    const stem = term.replace(/s$/, '');
    if (stem !== term && (nameWords.has(stem) || summary.has(stem))) s += 2;
  }
  return s;
}

/**
 * `names`: name, summary, scope; `summary`: plus the TypeScript declaration; `full`: plus the description and the
 * examples. With `scopes`, each hit says whether the caller can call it.
 */
export function searchBindings(
  bindings: readonly Binding[],
  query: string,
  limit: number,
  detail: SearchDetail,
  scopes: readonly string[] | null = null,
): { results: SearchHit[]; total: number } {
  const terms = words(query);
  const ranked = terms.length === 0 ? bindings.map((b) => ({ b, s: 1 })) : bindings.map((b) => ({ b, s: score(b, query, terms) })).filter((r) => r.s > 0);
  ranked.sort((x, y) => y.s - x.s || x.b.name.localeCompare(y.b.name));
  const results = ranked.slice(0, limit).map(({ b }) => ({
    name: b.name,
    summary: b.summary,
    requiredScope: tokenScopeOf(b),
    writes: b.writes,
    callable: canCall(b, scopes),
    ...(detail !== 'names' ? { declaration: bindingDeclaration(b) } : {}),
    ...(detail === 'full' && b.description ? { description: b.description } : {}),
    ...(detail === 'full' && b.examples?.length ? { examples: [...b.examples] } : {}),
  }));
  return { results, total: ranked.length };
}

/** The text block of a search answer: the declarations themselves (or names), ready to paste into a script. */
export function searchText(hits: readonly SearchHit[], total: number): string {
  if (!hits.length) return 'No binding matches. Call search with an empty query to list every binding.';
  const body = hits
    .map((h) => {
      const head = h.declaration ?? `${h.name}: ${h.summary}`;
      const mark = h.callable ? '' : `\n// Not callable with your grant: needs ${h.requiredScope ? `the scope ${h.requiredScope}` : 'a signed-in session'}.`;
      const more = [h.description ? `/* ${h.description.replace(/\*\//g, '* /')} */` : '', ...(h.examples ?? []).map((e, i) => `// Example ${i + 1}:\n${e}`)]
        .filter(Boolean)
        .join('\n');
      return `${head}${mark}${more ? `\n${more}` : ''}`;
    })
    .join('\n\n');
  return `${body}\n\n// ${hits.length} of ${total} matching bindings.`;
}
