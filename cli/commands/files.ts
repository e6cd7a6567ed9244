// ls, info, trash, restore, rm: the catalogue as a table for people, as JSON with --json.
import { defineCommand } from '../command.ts';
import { describeError, CliError, usageError } from '../errors.ts';
import { t } from '../i18n.ts';
import { callBinding, callBindingForEach, execute, executionError, type BatchOutcome } from '../service.ts';
import type { Api } from '../http.ts';
import { formatBytes, shortDate, table } from '../format.ts';
import type { CommandContext } from '../context.ts';
import { LIST_ITEMS_JS, listItems, resolveFileIds, type FileState } from '../resolve.ts';

interface FileRecord {
  fileId: string;
  name: string;
  mediaType: string;
  size: number;
  state: string;
  createdAt: string;
  updatedAt: string;
  trashedAt: string | null;
  restorableUntil: string | null;
  sha256: string | null;
}

function fileTable(files: FileRecord[], trashed: boolean): string {
  const headers = trashed ? ['ID', 'SIZE', 'TRASHED', 'RESTORABLE UNTIL', 'NAME'] : ['ID', 'SIZE', 'UPDATED', 'TYPE', 'NAME'];
  const rows = files.map((f) =>
    trashed
      ? [f.fileId, formatBytes(f.size), shortDate(f.trashedAt), shortDate(f.restorableUntil), f.name]
      : [f.fileId, formatBytes(f.size), shortDate(f.updatedAt), f.mediaType.split(';')[0], f.name],
  );
  return table(headers, rows, [false, true]);
}

export const lsCommand = defineCommand({
  name: 'ls',
  args: '',
  summary: ["List the organization's files", 'Listar os arquivos da organização'],
  details: ['Example: siglata ls --prefix reports/ --json', 'Exemplo: siglata ls --prefix relatorios/ --json'],
  options: {
    trashed: {
      type: 'boolean',
      help: ['List the trash instead (with the end of each restore window)', 'Listar a lixeira (com o fim de cada prazo de restauração)'],
    },
    prefix: {
      type: 'string',
      placeholder: 'PREFIX',
      help: ['Only names starting with PREFIX (e.g. reports/)', 'Só nomes que começam com PREFIXO (ex.: relatorios/)'],
    },
    limit: {
      type: 'string',
      placeholder: 'N',
      help: [
        'At most N files (default: all); how many more there are is said on stderr',
        'No máximo N arquivos (padrão: todos); quantos faltam é dito em stderr',
      ],
    },
  },
  positionals: { min: 0, max: 0, name: '' },
  async run(ctx, values) {
    const limit = values.limit === undefined ? Number.POSITIVE_INFINITY : Number(values.limit);
    if (values.limit !== undefined && (!Number.isInteger(limit) || limit < 1)) throw usageError('--limit: a whole number, 1 or more');
    const api = await ctx.api();
    const state: FileState = values.trashed ? 'trashed' : 'active';
    const prefix = values.prefix === undefined ? null : String(values.prefix);
    const files: FileRecord[] = [];
    let cursor: string | null = null;
    // A page is at most 1000 rows: without --limit the pages are followed to the end, never cut short silently.
    do {
      const query = new URLSearchParams({ state, limit: String(Math.min(PAGE, limit - files.length)) });
      if (prefix) query.set('prefix', prefix);
      if (cursor) query.set('cursor', cursor);
      const page = (await api.json<{ nextCursor?: string | null }>(`/app/v1/files?${query}`)).body;
      files.push(...listItems<FileRecord>(page));
      cursor = page?.nextCursor ?? null;
    } while (cursor && files.length < limit);
    const remaining = cursor ? await countFrom(api, state, prefix, cursor) : 0;
    if (ctx.json) ctx.printJson({ files, more: remaining > 0, remaining });
    else {
      ctx.io.out(`${files.length ? fileTable(files, Boolean(values.trashed)) : t('noFiles')}\n`);
      if (remaining > 0) ctx.io.err(`${t('lsMore', { shown: files.length, remaining })}\n`);
    }
    return 0;
  },
});

/** The rows of a listing: the most one request returns. */
const PAGE = 1000;

/** How many files follow `cursor`, counted in one execution that walks the remaining pages and returns a number. */
async function countFrom(api: Api, state: FileState, prefix: string | null, cursor: string): Promise<number> {
  const content = await execute(
    api,
    `let cursor = ${JSON.stringify(cursor)};
let count = 0;
do {
  const page = await files_list({ state: ${JSON.stringify(state)}, prefix: ${JSON.stringify(prefix)}, limit: ${PAGE}, cursor });
  count += ${LIST_ITEMS_JS}.length;
  cursor = page.nextCursor;
} while (cursor);
return count;`,
  );
  if (!content.ok) throw executionError(content);
  return Number(content.result) || 0;
}

export const infoCommand = defineCommand({
  name: 'info',
  args: '<fileId | path>',
  summary: ["Show one file's record", 'Mostrar o registro de um arquivo'],
  details: ['Example: siglata info reports/2026/q3.xlsx', 'Exemplo: siglata info relatorios/2026/t3.xlsx'],
  options: {},
  positionals: { min: 1, max: 1, name: 'fileId | path' },
  async run(ctx, _values, [arg]) {
    const api = await ctx.api();
    const [fileId] = await resolveFileIds(api, [arg]);
    const file = await callBinding<FileRecord>(api, 'files_get', { fileId });
    if (ctx.json) {
      ctx.printJson(file);
      return 0;
    }
    const rows: [string, string][] = [
      ['id', file.fileId],
      ['name', file.name],
      ['type', file.mediaType],
      ['size', `${formatBytes(file.size)} (${file.size} bytes)`],
      ['state', file.state],
      ['created', shortDate(file.createdAt)],
      ['updated', shortDate(file.updatedAt)],
    ];
    if (file.trashedAt) rows.push(['trashed', shortDate(file.trashedAt)], ['restorable until', shortDate(file.restorableUntil)]);
    if (file.sha256) rows.push(['sha256', file.sha256]);
    ctx.io.out(`${rows.map(([k, v]) => `${k.padEnd(17)}${v.replace(/[\u0000-\u001f\u007f-\u009f]/g, '?')}`).join('\n')}\n`);
    return 0;
  },
});

/** An outcome as the batch script reports it; anything else the server sends is reported, never trusted. */
function isOutcome(o: unknown): o is BatchOutcome<any> {
  return !!o && typeof o === 'object' && typeof (o as BatchOutcome<any>).id === 'string' && typeof (o as BatchOutcome<any>).ok === 'boolean';
}

/** trash, restore and rm share this: one execution for all ids (paths resolved first), each reported on its own line. */
function batchCommand(
  name: string,
  binding: string,
  state: FileState,
  fields: readonly string[],
  summary: readonly [string, string],
  verb: (r: any) => string,
) {
  return defineCommand({
    name,
    args: '<fileId | path...>',
    summary,
    options: {},
    positionals: { min: 1, name: 'fileId | path' },
    async run(ctx: CommandContext, _values, args) {
      const api = await ctx.api();
      const ids = await resolveFileIds(api, args, state);
      const result: unknown = await callBindingForEach(api, binding, 'fileId', ids, fields);
      const outcomes = Array.isArray(result) ? result.filter(isOutcome) : [];
      if (ctx.json) ctx.printJson(outcomes);
      let failures = 0;
      for (const o of outcomes) {
        if (o.ok) {
          if (!ctx.json) ctx.io.out(`${o.id}  ${verb(o.value ?? {})}\n`);
          continue;
        }
        failures++;
        const e = o.error ?? { code: 'error', message: 'failed' };
        ctx.io.err(`${o.id}: ${describeError(new CliError(String(e.code), String(e.message), { resolution: e.resolution }))}\n`);
      }
      // Ids the answer did not account for (a cut or reshaped result): their state is unknown, say so.
      const reported = new Set(outcomes.map((o) => o.id));
      const unknown = ids.filter((id) => !reported.has(id));
      for (const id of unknown)
        ctx.io.err(
          `${id}: ${describeError(new CliError('unknown_outcome', "the server's answer did not report this file", { resolution: `siglata info ${id}` }))}\n`,
        );
      return failures || unknown.length ? 1 : 0;
    },
  });
}

export const trashCommand = batchCommand(
  'trash',
  'files_trash',
  'active',
  ['fileId', 'name', 'state', 'restorableUntil'],
  ['Move files to the trash (restorable for 30 days)', 'Mover arquivos para a lixeira (restauráveis por 30 dias)'],
  (f) => `trashed, restorable until ${shortDate(f.restorableUntil)}`,
);
export const restoreCommand = batchCommand(
  'restore',
  'files_restore',
  'trashed',
  ['fileId', 'name', 'state'],
  ['Restore files from the trash', 'Restaurar arquivos da lixeira'],
  (f) => `restored as ${f.name}`,
);
export const rmCommand = batchCommand(
  'rm',
  'files_delete',
  'trashed',
  ['fileId', 'deleted', 'size'],
  ['Delete trashed files permanently', 'Apagar definitivamente arquivos da lixeira'],
  (r) => `deleted, ${formatBytes(r.size)} freed`,
);
