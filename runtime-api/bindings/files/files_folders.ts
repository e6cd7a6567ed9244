// files_folders: the folders right under a folder (names are paths; a folder is every name sharing a prefix up to a
// `/`), each with how many files it holds at any depth, their bytes and their latest change. The console's browser
// lists these beside files_list({ prefix, recursive: false }).
import * as v from 'valibot';
import { defineBinding } from '../../define.ts';
import { badCursor, decodeCursor, encodeCursor, listInputEntries, listOutput } from '../../list-page.ts';
import { listFolders, type FileState } from '../../store/files.ts';

export const files_folders = defineBinding({
  name: 'files_folders',
  summary: 'List the folders right under a folder (by name), with how many files each holds, their size and latest change.',
  description:
    "Folders are not stored: a folder exists while some file name starts with its path. `prefix` is the folder to look in: `` for the top, else a path ending in `/` (e.g. `reports/`). Each item gives the subfolder's `path` (ending in `/`, usable as `prefix`), its `name`, and `files`, `size` and `updatedAt` counting every file under it at any depth.",
  pt: {
    summary: 'Lista as pastas logo abaixo de uma pasta (por nome), com quantos arquivos cada uma contém, o tamanho e a última mudança.',
    aliases: ['pastas', 'diretórios', 'subpastas', 'árvore'],
  },
  aliases: ['folders', 'directories', 'subfolders', 'tree', 'ls -d'],
  examples: ['const { items } = await files_folders({ prefix: "" });\nreturn items.map((f) => `${f.path}: ${f.files} files`);'],
  input: v.strictObject({
    prefix: v.pipe(
      v.optional(
        v.pipe(
          v.string(),
          v.maxLength(1024),
          v.check((p) => p === '' || p.endsWith('/'), 'a folder path ends with `/` (or is empty for the top)'),
        ),
        '',
      ),
      v.description('The folder to look in: `` (default) for the top, else a path ending in `/`.'),
    ),
    state: v.pipe(v.optional(v.picklist(['active', 'trashed']), 'active'), v.description('Folders of `active` (default) or `trashed` files.')),
    ...listInputEntries(),
  }),
  output: listOutput(
    v.object({
      path: v.pipe(v.string(), v.description('The folder, ending in `/` (pass it as `prefix`).')),
      name: v.pipe(v.string(), v.description('Its last segment.')),
      files: v.pipe(v.number(), v.description('Files under it, at any depth.')),
      size: v.pipe(v.number(), v.description('Their bytes.')),
      updatedAt: v.pipe(v.string(), v.description('The latest change of any of them, content or not (ISO 8601).')),
      modifiedAt: v.pipe(v.string(), v.description('The latest `modifiedAt` (content change) of any of them (ISO 8601).')),
    }),
    'folders',
  ),
  scope: 'files:read',
  writes: false,
  async handler(input, { sql, caller }) {
    const prefix = input.prefix.normalize('NFC');
    const state = input.state as FileState;
    let after: string | null = null;
    if (input.cursor) {
      const c = decodeCursor(input.cursor) as { p?: unknown; s?: unknown; a?: unknown } | null;
      if (!c || typeof c.a !== 'string') throw badCursor('files_folders');
      if (c.p !== prefix || c.s !== state) throw badCursor('files_folders', 'filters');
      after = c.a;
    }
    const rows = await listFolders(sql, caller.membership!.orgId, { state, prefix, after, limit: input.limit });
    const page = rows.slice(0, input.limit);
    const last = page[page.length - 1];
    return {
      items: page.map((r) => ({
        path: `${prefix}${r.name}/`,
        name: r.name,
        files: r.files,
        size: Number(r.bytes),
        updatedAt: r.updatedAt.toISOString(),
        modifiedAt: r.modifiedAt.toISOString(),
      })),
      nextCursor: rows.length > input.limit && last ? encodeCursor({ p: prefix, s: state, a: last.name }) : null,
    };
  },
});
