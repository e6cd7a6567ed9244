// The one list convention every list binding follows: input `limit` and `cursor`, output `{ items, nextCursor }`,
// `nextCursor` null on the last page and otherwise passed back unchanged as `cursor`. Scripts, the CLI and the console
// walk any list the same way, so an example written for one list works for all of them.
import * as v from 'valibot';
import { ServiceError, l10n } from './errors.ts';

/** The convention in one sentence, for the execute tool's text and the typings' preamble. */
export const LIST_CONVENTION =
  'Every list binding (files_list, members_list, api_keys_list, ...) answers one page `{ items, nextCursor }` and takes `limit` and `cursor`: pass `nextCursor` back as `cursor` until it is null.';

export const LIST_DEFAULT_LIMIT = 100;
export const LIST_MAX_LIMIT = 1000;

const CursorSchema = v.pipe(v.string(), v.maxLength(2048));

/** `limit` and `cursor`, the inputs of every list binding (plus its own filters). */
export function listInputEntries(limits: { default?: number; max?: number } = {}) {
  const max = limits.max ?? LIST_MAX_LIMIT;
  const def = limits.default ?? LIST_DEFAULT_LIMIT;
  return {
    limit: v.pipe(v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(max)), def), v.description(`Page size, 1 to ${max} (default ${def}).`)),
    cursor: v.pipe(v.optional(v.nullable(CursorSchema)), v.description('`nextCursor` of the previous page, unchanged; omit or null for the first page.')),
  };
}

/** The output of every list binding: one page of `item`. */
export function listOutput<T extends v.GenericSchema>(item: T, what: string) {
  return v.object({
    items: v.pipe(v.array(item), v.description(`This page of ${what}.`)),
    nextCursor: v.pipe(v.nullable(v.string()), v.description('Pass as `cursor` for the next page; null on the last page.')),
  });
}

export interface Page<T> {
  items: T[];
  nextCursor: string | null;
}

/** A cursor that does not belong to this listing: the same refusal, whichever list it was passed to. */
export function badCursor(binding: string, why?: 'filters'): ServiceError {
  return new ServiceError('invalid_input', {
    resolution:
      why === 'filters'
        ? l10n(
            `\`cursor\`: it belongs to a ${binding} listing with other filters; pass the same filters as the first page.`,
            `\`cursor\`: ele pertence a uma listagem de ${binding} com outros filtros; passe os mesmos filtros da primeira página.`,
          )
        : l10n(
            `\`cursor\`: not a cursor returned by ${binding}; pass \`nextCursor\` unchanged, or omit it to start from the first page.`,
            `\`cursor\`: não é um cursor devolvido por ${binding}; passe \`nextCursor\` sem alterações, ou omita-o para começar da primeira página.`,
          ),
  });
}

export function encodeCursor(value: unknown): string {
  return Buffer.from(JSON.stringify(value)).toString('base64url');
}

/** The JSON a cursor carries, or null when it is not one of ours. */
export function decodeCursor(raw: string): unknown {
  try {
    return JSON.parse(Buffer.from(raw, 'base64url').toString('utf8'));
  } catch {
    return null;
  }
}

type SortKey = readonly [string, string];
const compareKeys = (a: SortKey, b: SortKey) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0);

/**
 * A keyset page of a list the binding read whole (lists bounded by an organization's size: members, invitations,
 * keys, grants). Rows are ordered by `key` (a time stamp and an id, so the order is total and stable) and the cursor
 * holds the last key given, so a row added or removed between pages never shifts another one out of the walk.
 */
export function pageOf<R, T>(
  binding: string,
  rows: readonly R[],
  input: { limit: number; cursor?: string | null },
  order: { key: (row: R) => SortKey; newestFirst?: boolean },
  view: (row: R) => T,
): Page<T> {
  const sign = order.newestFirst ? -1 : 1;
  const keyed = rows.map((row) => ({ row, key: order.key(row) })).sort((a, b) => sign * compareKeys(a.key, b.key));
  let start = 0;
  if (input.cursor) {
    const c = decodeCursor(input.cursor) as { b?: unknown; k?: unknown } | null;
    const k = c?.k;
    if (!c || c.b !== binding || !Array.isArray(k) || k.length !== 2 || typeof k[0] !== 'string' || typeof k[1] !== 'string') throw badCursor(binding);
    const after = k as unknown as SortKey;
    start = keyed.findIndex((e) => sign * compareKeys(e.key, after) > 0);
    if (start < 0) start = keyed.length;
  }
  const page = keyed.slice(start, start + input.limit);
  const more = start + input.limit < keyed.length;
  return {
    items: page.map((e) => view(e.row)),
    nextCursor: more ? encodeCursor({ b: binding, k: page[page.length - 1].key }) : null,
  };
}

/** The key of rows ordered by creation time then id. */
export const byCreation = (row: { createdAt: Date; id: string }): SortKey => [row.createdAt.toISOString(), row.id];
