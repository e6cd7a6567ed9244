// The search tool: its listing, its call and the text of its answer (the search itself is search.ts). Its input
// schema is generated from the valibot schema the call validates with, as the execute tool's is.
import * as v from 'valibot';
import { BINDINGS, jsonSchemaOf, type Caller, type Locale } from '../../runtime-api/index.ts';
import type { CallToolResult, Tool } from './protocol.ts';
import { SEARCH_TEXT } from './messages.ts';
import { searchBindings, type SearchDetail, type SearchHit } from './search.ts';
import { toolError } from './tool-error.ts';

const SearchArgs = v.strictObject({
  query: v.pipe(v.string(), v.maxLength(500), v.description('Words in English or Portuguese (e.g. "delete a file", "apagar planilha"), or a binding name.')),
  limit: v.pipe(v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(50)), 10), v.description('At most this many bindings (default 10).')),
  detail: v.pipe(
    v.optional(v.picklist(['names', 'summary', 'full']), 'summary'),
    v.description('"names", "summary" (declarations, the default) or "full" (with description and examples).'),
  ),
});

export const searchListing: Tool = {
  name: 'search',
  title: 'Find bindings and their TypeScript signatures',
  description: `Searches the bindings available to \`execute\` scripts and returns their TypeScript declarations (generated from the same schemas the sandbox enforces) with scopes and examples. Ask in English or Portuguese ("list spreadsheets", "listar planilhas"). An empty query lists every binding. detail: "names", "summary" (declarations, the default) or "full" (with examples). A binding you cannot call says why (a signed-in session only, a missing scope, your role).`,
  inputSchema: jsonSchemaOf(SearchArgs, 'input') as Tool['inputSchema'],
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
};

/** The text block of a search answer: the declarations themselves (or names), ready to paste into a script. */
export function searchText(hits: readonly SearchHit[], total: number, locale: Locale): string {
  if (!hits.length) return SEARCH_TEXT.noMatch[locale];
  const body = hits
    .map((h) => {
      const head = h.declaration ?? `${h.name}: ${h.summary}`;
      const mark = h.refusal ? `\n// ${SEARCH_TEXT.notCallable(h.refusal.message)[locale]}` : '';
      const more = [
        h.description ? `/* ${h.description.replace(/\*\//g, '* /')} */` : '',
        ...(h.examples ?? []).map((e, i) => `// ${SEARCH_TEXT.example(i + 1)[locale]}\n${e}`),
      ]
        .filter(Boolean)
        .join('\n');
      return `${head}${mark}${more ? `\n${more}` : ''}`;
    })
    .join('\n\n');
  return `${body}\n\n// ${SEARCH_TEXT.count(hits.length, total)[locale]}`;
}

export function callSearch(caller: Caller, args: unknown): CallToolResult {
  const parsed = v.safeParse(SearchArgs, args);
  if (!parsed.success) return toolError(SEARCH_TEXT.usage[caller.locale]);
  const found = searchBindings(BINDINGS, parsed.output.query, parsed.output.limit, parsed.output.detail as SearchDetail, caller);
  return { content: [{ type: 'text', text: searchText(found.results, found.total, caller.locale) }], structuredContent: { ...found } } satisfies CallToolResult;
}
