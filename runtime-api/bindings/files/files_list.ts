// files_list: a page of the organization's files in one state, with an optional name prefix (a folder), a name
// search and an order (name by default, byte-wise; or size, creation or last change); pass `nextCursor` back as
// `cursor` for the next page. Every order is total (ties broken by id), so pages are stable.
import * as v from 'valibot';
import { defineBinding } from '../../define.ts';
import { badCursor, decodeCursor, encodeCursor, listInputEntries, listOutput } from '../../list-page.ts';
import { listFiles, type FileRow, type FileSort, type FileState } from '../../store/files.ts';
import { FileRecord, toFileRecord } from './schemas.ts';

interface Cursor {
  s: FileState;
  p: string | null;
  q?: string | null;
  r?: boolean;
  o?: FileSort;
  d?: 'asc' | 'desc';
  /** The last row's sort value (name, size, or ISO instant) and id. */
  v?: string | number;
  n?: string;
  i: string;
}

interface Filters {
  state: FileState;
  prefix: string | null;
  search: string | null;
  recursive: boolean;
  sort: FileSort;
  order: 'asc' | 'desc';
}

function afterCursor(raw: string, f: Filters): { value: string | number; id: string } {
  const c = decodeCursor(raw) as Partial<Cursor> | null;
  const value = c?.v ?? c?.n;
  if (!c || (typeof value !== 'string' && typeof value !== 'number') || typeof c.i !== 'string') throw badCursor('files_list');
  if (
    c.s !== f.state ||
    (c.p ?? null) !== f.prefix ||
    (c.q ?? null) !== f.search ||
    (c.r ?? true) !== f.recursive ||
    (c.o ?? 'name') !== f.sort ||
    (c.d ?? 'asc') !== f.order
  ) {
    throw badCursor('files_list', 'filters');
  }
  return { value, id: c.i };
}

function sortValue(row: FileRow, sort: FileSort): string | number {
  if (sort === 'size') return row.byteLength;
  if (sort === 'createdAt') return row.createdAt.toISOString();
  if (sort === 'updatedAt') return row.updatedAt.toISOString();
  if (sort === 'modifiedAt') return row.modifiedAt.toISOString();
  return row.name;
}

export const files_list = defineBinding({
  name: 'files_list',
  summary: "List the organization's files (active or trashed), a page at a time: by folder, by a name search, in the order asked.",
  pt: {
    summary: 'Lista os arquivos da organização (ativos ou na lixeira), uma página por vez: por pasta, por busca no nome, na ordem pedida.',
    aliases: [
      'listar arquivos',
      'procurar arquivos',
      'buscar arquivos',
      'pasta',
      'diretório',
      'conteúdo da pasta',
      'todos os arquivos',
      'conteúdo da lixeira',
      'maiores arquivos',
      'arquivos recentes',
    ],
  },
  description:
    'Pages are keyset-paginated and stable: pass `nextCursor` back as `cursor` (with the same filters) until it is null. ' +
    '`prefix` matches the start of the path, so `reports/` lists a folder; with `recursive: false` only the files right in that folder (files_folders lists its subfolders). ' +
    '`search` keeps paths containing the text, whatever the case. `sort` is `name` (default, byte-wise), `size`, `createdAt`, `updatedAt` or `modifiedAt`; `order` is `asc` (default) or `desc`. ' +
    'Active files have one file per path; the trash may hold several versions of one path, told apart by `fileId` and `trashedAt`.',
  aliases: ['find files', 'browse', 'ls', 'folder', 'directory', 'contents', 'all files', 'trash contents', 'search files', 'largest files', 'newest files'],
  examples: [
    'const { items } = await files_list({ state: "active", limit: 10 });\nreturn items.map((f) => `${f.path} (${f.size} bytes)`);',
    'let page = await files_list({ prefix: "reports/" });\nlet count = page.items.length;\nwhile (page.nextCursor) {\n  page = await files_list({ prefix: "reports/", cursor: page.nextCursor });\n  count += page.items.length;\n}\nreturn count;',
    'const { items } = await files_list({ search: "invoice", sort: "size", order: "desc", limit: 5 });\nreturn items.map((f) => f.path);',
  ],
  input: v.strictObject({
    state: v.pipe(v.optional(v.picklist(['active', 'trashed']), 'active'), v.description('Which files: `active` (default) or `trashed`.')),
    ...listInputEntries(),
    prefix: v.pipe(
      v.optional(v.nullable(v.pipe(v.string(), v.maxLength(1024)))),
      v.description('Only names starting with this string (case-sensitive), e.g. `reports/`.'),
    ),
    search: v.pipe(
      v.optional(v.nullable(v.pipe(v.string(), v.maxLength(255)))),
      v.description('Only names containing this text, ignoring case (the whole name, folders included).'),
    ),
    recursive: v.pipe(
      v.optional(v.boolean(), true),
      v.description('false: only files right in the folder `prefix`, not in its subfolders (default true: everything under it).'),
    ),
    sort: v.pipe(
      v.optional(v.picklist(['name', 'size', 'createdAt', 'updatedAt']), 'name'),
      v.description('The order: `name` (default), `size`, `createdAt` or `updatedAt`.'),
    ),
    order: v.pipe(v.optional(v.picklist(['asc', 'desc']), 'asc'), v.description('`asc` (default) or `desc`.')),
  }),
  output: listOutput(FileRecord, 'files'),
  scope: 'files:read',
  writes: false,
  async handler(input, { sql, caller, config }) {
    const orgId = caller.membership!.orgId;
    const f: Filters = {
      state: input.state,
      prefix: input.prefix ? input.prefix.normalize('NFC') : null,
      search: input.search ? input.search.normalize('NFC') : null,
      recursive: input.recursive,
      sort: input.sort,
      order: input.order,
    };
    const after = input.cursor ? afterCursor(input.cursor, f) : null;
    const rows = await listFiles(sql, orgId, { ...f, after, limit: input.limit });
    const page = rows.slice(0, input.limit);
    const last = page[page.length - 1];
    const cursor: Cursor | null = last
      ? {
          s: f.state,
          p: f.prefix,
          ...(f.search ? { q: f.search } : {}),
          ...(f.recursive ? {} : { r: false }),
          ...(f.sort !== 'name' ? { o: f.sort } : {}),
          ...(f.order !== 'asc' ? { d: f.order } : {}),
          v: sortValue(last, f.sort),
          i: last.id,
        }
      : null;
    return {
      items: page.map((r) => toFileRecord(r, config)),
      nextCursor: rows.length > input.limit && cursor ? encodeCursor(cursor) : null,
    };
  },
});
