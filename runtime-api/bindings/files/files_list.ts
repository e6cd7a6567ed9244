// files_list: a page of the organization's files in one state, ordered by name then id (byte-wise, stable), with an
// optional name prefix; pass `nextCursor` back as `cursor` for the next page.
import * as v from 'valibot';
import { defineBinding } from '../../define.ts';
import { ServiceError, l10n } from '../../errors.ts';
import { listFiles, type FileState } from '../../store/files.ts';
import { FileRecord, toFileRecord } from './schemas.ts';

interface Cursor { s: FileState; p: string | null; n: string; i: string }

function encodeCursor(c: Cursor): string {
  return Buffer.from(JSON.stringify(c)).toString('base64url');
}

function decodeCursor(raw: string, state: FileState, prefix: string | null): { name: string; id: string } {
  let c: Partial<Cursor> | null = null;
  try { c = JSON.parse(Buffer.from(raw, 'base64url').toString('utf8')); } catch { /* below */ }
  if (!c || typeof c.n !== 'string' || typeof c.i !== 'string') {
    throw new ServiceError('invalid_input', {
      resolution: l10n('`cursor`: not a cursor returned by files_list; omit it to start from the first page.',
        '`cursor`: não é um cursor devolvido por files_list; omita-o para começar da primeira página.'),
    });
  }
  if (c.s !== state || (c.p ?? null) !== prefix) {
    throw new ServiceError('invalid_input', {
      resolution: l10n('`cursor`: it belongs to a listing with another `state` or `prefix`; pass the same filters as the first page.',
        '`cursor`: ele pertence a uma listagem com outro `state` ou `prefix`; passe os mesmos filtros da primeira página.'),
    });
  }
  return { name: c.n, id: c.i };
}

export const files_list = defineBinding({
  name: 'files_list',
  summary: 'List the organization\'s files (active or trashed), a page at a time, ordered by name.',
  description: 'Pages are keyset-paginated and stable: pass `nextCursor` back as `cursor` (with the same `state` and `prefix`) until it is null. '
    + '`prefix` matches the start of the name, so `reports/` lists a folder-like group.',
  aliases: ['find files', 'browse', 'ls', 'folder', 'directory', 'contents', 'all files', 'trash contents'],
  examples: [
    'const { files } = await files_list({ state: "active", limit: 10 });\nreturn files.map((f) => `${f.name} (${f.byteLength} bytes)`);',
    'let page = await files_list({ prefix: "reports/" });\nlet count = page.files.length;\nwhile (page.nextCursor) {\n  page = await files_list({ prefix: "reports/", cursor: page.nextCursor });\n  count += page.files.length;\n}\nreturn count;',
  ],
  input: v.strictObject({
    state: v.pipe(v.optional(v.picklist(['active', 'trashed']), 'active'), v.description('Which files: `active` (default) or `trashed`.')),
    limit: v.pipe(v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(1000)), 100), v.description('Page size, 1 to 1000 (default 100).')),
    cursor: v.pipe(v.optional(v.nullable(v.string())), v.description('`nextCursor` of the previous page; omit or null for the first page.')),
    prefix: v.pipe(v.optional(v.nullable(v.pipe(v.string(), v.maxLength(1024)))), v.description('Only names starting with this string (case-sensitive), e.g. `reports/`.')),
  }),
  output: v.object({
    files: v.pipe(v.array(FileRecord), v.description('This page of files.')),
    nextCursor: v.pipe(v.nullable(v.string()), v.description('Pass as `cursor` for the next page; null on the last page.')),
  }),
  scope: 'files:read',
  writes: false,
  async handler(input, { sql, caller, config }) {
    const orgId = caller.membership!.orgId;
    const prefix = input.prefix ? input.prefix.normalize('NFC') : null;
    const after = input.cursor ? decodeCursor(input.cursor, input.state, prefix) : null;
    const rows = await listFiles(sql, orgId, { state: input.state, prefix, after, limit: input.limit });
    const page = rows.slice(0, input.limit);
    const last = page[page.length - 1];
    return {
      files: page.map((r) => toFileRecord(r, config)),
      nextCursor: rows.length > input.limit && last ? encodeCursor({ s: input.state, p: prefix, n: last.name, i: last.id }) : null,
    };
  },
});
