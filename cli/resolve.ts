// Files addressed by id or by path: `fil_…` is an id; anything else is a catalogue name, looked up exactly (names
// are not unique, so a path matching several files is an error listing their ids). Every path of one command is
// resolved in a single execution, so addressing by path costs one request however many are given.
import { CliError } from './errors.ts';
import { lang } from './i18n.ts';
import { execute, executionError } from './service.ts';
import type { Api } from './http.ts';

const FILE_ID = /^fil_[a-z2-7]{26}$/;

/**
 * The items of one page of a list binding (every list answers `{ items, nextCursor }`). The single place in the CLI
 * that knows the page's shape, with LIST_ITEMS_JS for scripts and callList for whole lists.
 */
export function listItems<T>(page: unknown): T[] {
  const items = ((page ?? {}) as { items?: unknown }).items;
  return Array.isArray(items) ? (items as T[]) : [];
}
/** The same adapter inside a script (`page` in scope). */
export const LIST_ITEMS_JS = '(page.items ?? [])';

export type FileState = 'active' | 'trashed';

/** Ids for `args` (ids pass through untouched); throws not_found / ambiguous_path naming the path. */
export async function resolveFileIds(api: Api, args: readonly string[], state: FileState = 'active'): Promise<string[]> {
  const paths = [...new Set(args.filter((a) => !FILE_ID.test(a)))];
  if (!paths.length) return [...args];
  const script = `const out = {};
for (const path of ${JSON.stringify(paths)}) {
  const ids = [];
  let cursor = null;
  do {
    const page = await files_list({ state: ${JSON.stringify(state)}, prefix: path, limit: 1000, ...(cursor ? { cursor } : {}) });
    for (const f of ${LIST_ITEMS_JS}) if (f.name === path) ids.push(f.fileId);
    cursor = page.nextCursor;
  } while (cursor && ids.length < 5);
  out[path] = ids;
}
return out;`;
  const content = await execute(api, script);
  if (!content.ok) throw executionError(content);
  const found = (content.result ?? {}) as Record<string, string[]>;
  const pt = lang() === 'pt-BR';
  return args.map((arg) => {
    if (FILE_ID.test(arg)) return arg;
    const ids = Array.isArray(found[arg]) ? found[arg] : [];
    if (ids.length === 1) return ids[0];
    if (!ids.length) {
      throw new CliError(
        'not_found',
        pt
          ? `nenhum arquivo ${state === 'trashed' ? 'na lixeira ' : ''}se chama "${arg}"`
          : `no ${state === 'trashed' ? 'trashed ' : ''}file is named "${arg}"`,
        {
          resolution: pt
            ? 'Confira o nome com `siglata ls` (ou `ls --trashed`); nomes diferenciam maiúsculas.'
            : 'Check the name with `siglata ls` (or `ls --trashed`); names are case-sensitive.',
        },
      );
    }
    throw new CliError(
      'ambiguous_path',
      pt
        ? `"${arg}" nomeia ${ids.length >= 5 ? '5 ou mais' : ids.length} arquivos: ${ids.join(', ')}`
        : `"${arg}" names ${ids.length >= 5 ? '5 or more' : ids.length} files: ${ids.join(', ')}`,
      {
        resolution: pt
          ? 'Nomes não são únicos: use o id (fil_…) do arquivo desejado, ou renomeie os outros.'
          : 'Names are not unique: pass the id (fil_…) of the one you mean, or rename the others.',
        exitCode: 1,
      },
    );
  });
}
