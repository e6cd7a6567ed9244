// What each console page's address may carry besides `lang` (documented in OpenAPI; the pages read them leniently:
// a value they cannot use is ignored, never an error page).
import * as v from 'valibot';
import type { ConsolePageName } from '../../pages/console/layout.ts';

const text = (description: string) => v.pipe(v.optional(v.string()), v.description(description));

const base = {
  lang: text('`en-US` or `pt-BR` (else Accept-Language).'),
  done: text('The form just done (its notice is shown).'),
};

export const ActivityQuery = v.object({
  ...base,
  person: text('Only executions acting as this user id.'),
  key: text('Only executions with this API key id.'),
  app: text('Only executions by this OAuth client id.'),
  outcome: text('`succeeded` or `failed`.'),
  source: text('`mcp`, `rest` or `cli`.'),
  from: text('First day (YYYY-MM-DD, in `tz`).'),
  to: text('Last day, inclusive (YYYY-MM-DD, in `tz`).'),
  tz: text('IANA time zone of the dates (the console fills it in; default UTC).'),
  cursor: text('Page of executions (from the page\'s "Older" link).'),
  changes: text('Page of MCP access changes.'),
});

export const FilesQuery = v.object({
  ...base,
  path: text('The folder shown, e.g. `reports/2026/` (default: the top).'),
  q: text('Search file names (case-insensitive) in the folder and below.'),
  sort: text('`name`, `size`, `createdAt`, `updatedAt` or `modifiedAt`.'),
  order: text('`asc` or `desc`.'),
  cursor: text('Page of files (from the page\'s "Next" link).'),
  folders: text('Page of folders.'),
});

export const FileQuery = v.object({ ...base, fileId: text('The file shown (`fil_…`).') });

export const TrashQuery = v.object({ ...base, cursor: text('Page of the trash.') });

export const PAGE_QUERIES: Record<ConsolePageName, v.ObjectSchema<v.ObjectEntries, undefined>> = {
  home: v.object(base),
  members: v.object(base),
  agents: v.object(base),
  activity: ActivityQuery,
  files: FilesQuery,
  file: FileQuery,
  trash: TrashQuery,
};
