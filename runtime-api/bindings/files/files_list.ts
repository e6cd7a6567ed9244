// files_list: a page of the organization's files in one state, ordered by name then id (byte-wise, stable), with an
// optional name prefix; pass `nextCursor` back as `cursor` for the next page.
import * as v from 'valibot';
import { defineBinding } from '../../define.ts';
import { badCursor, decodeCursor, encodeCursor, listInputEntries, listOutput } from '../../list-page.ts';
import { listFiles, type FileState } from '../../store/files.ts';
import { FileRecord, toFileRecord } from './schemas.ts';

interface Cursor {
  s: FileState;
  p: string | null;
  n: string;
  i: string;
}

function afterCursor(raw: string, state: FileState, prefix: string | null): { name: string; id: string } {
  const c = decodeCursor(raw) as Partial<Cursor> | null;
  if (!c || typeof c.n !== 'string' || typeof c.i !== 'string') throw badCursor('files_list');
  if (c.s !== state || (c.p ?? null) !== prefix) throw badCursor('files_list', 'filters');
  return { name: c.n, id: c.i };
}

export const files_list = defineBinding({
  name: 'files_list',
  summary: "List the organization's files (active or trashed), a page at a time, ordered by name.",
  pt: {
    summary: 'Lista os arquivos da organização (ativos ou na lixeira), uma página por vez, em ordem de nome.',
    aliases: ['listar arquivos', 'procurar arquivos', 'pasta', 'diretório', 'conteúdo da pasta', 'todos os arquivos', 'conteúdo da lixeira'],
  },
  description:
    'Pages are keyset-paginated and stable: pass `nextCursor` back as `cursor` (with the same `state` and `prefix`) until it is null. ' +
    '`prefix` matches the start of the path, so `reports/` lists a folder. Active files have one file per path; the trash may hold several ' +
    'versions of one path, told apart by `fileId` and `trashedAt`.',
  aliases: ['find files', 'browse', 'ls', 'folder', 'directory', 'contents', 'all files', 'trash contents'],
  examples: [
    'const { items } = await files_list({ state: "active", limit: 10 });\nreturn items.map((f) => `${f.path} (${f.size} bytes)`);',
    'let page = await files_list({ prefix: "reports/" });\nlet count = page.items.length;\nwhile (page.nextCursor) {\n  page = await files_list({ prefix: "reports/", cursor: page.nextCursor });\n  count += page.items.length;\n}\nreturn count;',
  ],
  input: v.strictObject({
    state: v.pipe(v.optional(v.picklist(['active', 'trashed']), 'active'), v.description('Which files: `active` (default) or `trashed`.')),
    ...listInputEntries(),
    prefix: v.pipe(
      v.optional(v.nullable(v.pipe(v.string(), v.maxLength(1024)))),
      v.description('Only names starting with this string (case-sensitive), e.g. `reports/`.'),
    ),
  }),
  output: listOutput(FileRecord, 'files'),
  scope: 'files:read',
  writes: false,
  async handler(input, { sql, caller, config }) {
    const orgId = caller.membership!.orgId;
    const prefix = input.prefix ? input.prefix.normalize('NFC') : null;
    const after = input.cursor ? afterCursor(input.cursor, input.state, prefix) : null;
    const rows = await listFiles(sql, orgId, { state: input.state, prefix, after, limit: input.limit });
    const page = rows.slice(0, input.limit);
    const last = page[page.length - 1];
    return {
      items: page.map((r) => toFileRecord(r, config)),
      nextCursor: rows.length > input.limit && last ? encodeCursor({ s: input.state, p: prefix, n: last.name, i: last.id }) : null,
    };
  },
});
