// The remote side of cp / sync: `remote:PATH` read as rclone reads a path (a folder, or one file when a file has
// exactly that name), and every active file under it listed in as few requests as the engine's result cap allows:
// one execution walks the pages of files_list and returns only what a copy compares (a few dozen bytes per file), so
// 3,000 files cost one request, not three pages.
import type { Api } from '../http.ts';
import { appExecute, executionError } from '../service.ts';
import { CliError } from '../errors.ts';
import { t } from '../i18n.ts';

export const REMOTE = 'remote:';

export interface RemoteFile {
  fileId: string;
  name: string;
  size: number;
  crc32: string | null;
  /** Epoch milliseconds, or null from a server that keeps no modification time. */
  mtimeMs: number | null;
  executable: boolean;
}

/** `remote:PATH` without the scheme, its slashes trimmed and in NFC (the form the service keeps names in). */
export function remotePath(spec: string): string {
  return spec
    .slice(REMOTE.length)
    .normalize('NFC')
    .replace(/^\/+|\/+$/g, '');
}

/** The name prefix of the folder `path` ('' for the whole catalogue). */
export const folderOf = (path: string) => (path ? `${path}/` : '');

/** Rows per answer: kept under the engine's 1 MB result cap with room for 255-character names. */
const RESULT_BUDGET = 700_000;
/** Pages per execution, well inside the engine's binding-call cap and wall time. */
const PAGES_PER_EXECUTION = 8;

type Row = [fileId: string, name: string, size: number, crc32: string | null, modified: string | null, executable: boolean];

const LIST_SCRIPT = (prefix: string, cursor: string | null, exact: string | null) => `const rows = [];
let cursor = ${JSON.stringify(cursor)};
let budget = ${RESULT_BUDGET};
let pages = 0;
let exact = null;
const exactName = ${JSON.stringify(exact)};
if (exactName !== null) {
  const first = await files_list({ state: "active", prefix: exactName, limit: 1 });
  const f = (first.items ?? [])[0];
  if (f && f.name === exactName) exact = [f.fileId, f.name, f.size, f.crc32 ?? null, f.modifiedAt ?? null, f.executable === true];
}
do {
  const page = await files_list({ state: "active", prefix: ${JSON.stringify(prefix)}, limit: 1000, ...(cursor ? { cursor } : {}) });
  for (const f of page.items ?? []) {
    rows.push([f.fileId, f.name, f.size, f.crc32 ?? null, f.modifiedAt ?? null, f.executable === true]);
    budget -= 3 * f.name.length + 110;
  }
  cursor = page.nextCursor;
  pages++;
} while (cursor && budget > 0 && pages < ${PAGES_PER_EXECUTION});
return { rows, cursor, exact };`;

const fromRow = (r: Row): RemoteFile => ({
  fileId: r[0],
  name: r[1],
  size: Number(r[2]),
  crc32: r[3],
  mtimeMs: r[4] === null ? null : Date.parse(r[4]),
  executable: r[5] === true,
});

export interface RemoteListing {
  /** The files under the folder `path/` (all of them when path is ''). */
  files: RemoteFile[];
  /** The file named exactly `path`, when there is one (`remote:dir/a.txt` names a file). */
  exact: RemoteFile | null;
  /** Requests the listing cost. */
  requests: number;
}

/** Every active file under `path` (as a folder), and the file named exactly `path` if `withExact`. */
export async function listRemote(api: Api, path: string, withExact: boolean): Promise<RemoteListing> {
  const files: RemoteFile[] = [];
  let exact: RemoteFile | null = null;
  let cursor: string | null = null;
  let requests = 0;
  do {
    const content = await appExecute(api, { mode: 'run', script: LIST_SCRIPT(folderOf(path), cursor, requests === 0 && withExact && path ? path : null) });
    requests++;
    if (!content.ok) throw executionError(content);
    const answer = content.result as { rows?: unknown; cursor?: unknown; exact?: unknown } | null;
    if (!answer || !Array.isArray(answer.rows)) throw new CliError('http_error', t('badResponse', { status: 200 }), { resolution: t('badResponseHelp') });
    files.push(...(answer.rows as Row[]).map(fromRow));
    if (Array.isArray(answer.exact)) exact = fromRow(answer.exact as Row);
    cursor = typeof answer.cursor === 'string' ? answer.cursor : null;
  } while (cursor);
  return { files, exact, requests };
}
