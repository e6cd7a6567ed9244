// The search tool: its listing and its call (the search itself is search.ts).
import * as v from 'valibot';
import { BINDINGS, type Caller } from '../../runtime-api/index.ts';
import type { CallToolResult, Tool } from './protocol.ts';
import { searchBindings, searchText, type SearchDetail } from './search.ts';
import { toolError } from './tool-error.ts';

const SearchArgs = v.strictObject({
  query: v.pipe(v.string(), v.maxLength(500)),
  limit: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(50)), 10),
  detail: v.optional(v.picklist(['names', 'summary', 'full']), 'summary'),
});

export const searchListing: Tool = {
  name: 'search',
  title: 'Find bindings and their TypeScript signatures',
  description: `Searches the bindings available to \`execute\` scripts and returns their TypeScript declarations (generated from the same schemas the sandbox enforces) with scopes and examples. An empty query lists every binding. detail: "names", "summary" (declarations, the default) or "full" (with examples).`,
  inputSchema: {
    type: 'object',
    properties: {
      query: { type: 'string', maxLength: 500 },
      limit: { type: 'integer', minimum: 1, maximum: 50, default: 10 },
      detail: { type: 'string', enum: ['names', 'summary', 'full'], default: 'summary' },
    },
    required: ['query'],
    additionalProperties: false,
  },
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
};

export function callSearch(caller: Caller, args: unknown): CallToolResult {
  const parsed = v.safeParse(SearchArgs, args);
  if (!parsed.success) return toolError('search needs {"query": string, "limit"?: 1..50, "detail"?: "names"|"summary"|"full"}.');
  const found = searchBindings(BINDINGS, parsed.output.query, parsed.output.limit, parsed.output.detail as SearchDetail, caller.scopes);
  return { content: [{ type: 'text', text: searchText(found.results, found.total) }], structuredContent: { ...found } } satisfies CallToolResult;
}
