// The file pages' data, read through the files bindings: the browser (a folder's subfolders and files, or a name
// search), one file's details with a preview where one is safe, and the trash.
import { type Locale, ServiceError, context, files_list, files_folders, findBinding, organizationBindings as org } from '../../runtime-api/index.ts';
import { browserBody, fileBody, missingFileBody, trashBody, type FileSort, type Preview, sizeOf } from '../pages/console/files.ts';
import { FILES, UPLOAD_TEXTS } from '../pages/console/texts.ts';
import type { PageRequest, PageView } from './page-request.ts';

const PAGE = 50;
const FOLDERS_PAGE = 100;
/** Text files up to this size are shown whole (read by files_read_text); larger ones by their first bytes. */
const PREVIEW_WHOLE = 128 * 1024;
const PREVIEW_START = 64 * 1024;

const files_get = findBinding('files_get')!;
const files_read_text = findBinding('files_read_text')!;

/** Raster images a browser shows in an <img> without running anything (SVG is shown as its source instead). */
const IMAGES = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp', 'image/avif', 'image/bmp', 'image/x-icon', 'image/vnd.microsoft.icon']);
const TEXT_TYPES =
  /^(text\/|application\/(json|xml|javascript|ecmascript|x-sh|x-shellscript|sql|yaml|x-yaml|toml|csv|x-ndjson|ld\+json|graphql)$|image\/svg\+xml$|.+\+(json|xml)$)/;
const TEXT_NAMES =
  /\.(txt|md|markdown|csv|tsv|json|jsonl|ndjson|ya?ml|toml|ini|cfg|conf|log|xml|html?|css|svg|js|mjs|cjs|ts|tsx|jsx|py|rb|go|rs|java|kt|c|h|cc|cpp|hpp|cs|sh|bash|zsh|sql|r|tex|env|properties|gitignore|dockerfile)$/i;

export function previewKind(mediaType: string, name: string): 'text' | 'image' | 'none' {
  const type = mediaType.split(';')[0].trim().toLowerCase();
  if (IMAGES.has(type)) return 'image';
  if (TEXT_TYPES.test(type)) return 'text';
  if ((type === 'application/octet-stream' || type === '') && TEXT_NAMES.test(name)) return 'text';
  return 'none';
}

const text = (value: unknown, max = 1024): string => (typeof value === 'string' && value.length <= max ? value : '');

/** A folder path as the browser keeps it: '' for the top, else ending in `/`, no empty or dot segments. */
export function folderPath(value: unknown): string {
  const raw = text(value).normalize('NFC');
  const segments = raw.split('/').filter((s) => s !== '' && s !== '.' && s !== '..');
  return segments.length ? `${segments.join('/')}/` : '';
}

/** A list call whose cursor came from the address: a cursor that is not one (edited, or from another view) starts over. */
async function page<T>(r: PageRequest, binding: Parameters<PageRequest['call']>[0], input: Record<string, unknown>, cursor: string): Promise<T> {
  try {
    return await r.call(binding, { ...input, ...(cursor ? { cursor } : {}) });
  } catch (err) {
    if (cursor && err instanceof ServiceError && err.code === 'invalid_input') return r.call(binding, input);
    throw err;
  }
}

function uploadTexts(locale: Locale): string {
  return JSON.stringify(Object.fromEntries(Object.entries(UPLOAD_TEXTS).map(([k, v]) => [k, v[locale]])));
}

export async function filesPage(r: PageRequest): Promise<PageView> {
  const q = r.query;
  // The "new folder" form asks for a folder by name: open it (it exists once a file is put in it).
  if (typeof q.folder === 'string' && q.folder.trim()) {
    const path = folderPath(`${folderPath(q.parent)}${q.folder.trim()}`);
    return { body: '', redirect: { query: { path } } };
  }
  const path = folderPath(q.path);
  const search = text(q.q, 255).trim();
  const sort: FileSort = (['name', 'size', 'createdAt', 'updatedAt', 'modifiedAt'] as const).find((s) => s === q.sort) ?? 'name';
  const order = q.order === 'desc' ? 'desc' : 'asc';
  const cursor = text(q.cursor, 2048);
  const foldersCursor = text(q.folders, 2048);
  const undoId = q.done === 'file-trash' ? text(q.undo, 64) : '';
  const [ctxInfo, folders, files, undone] = await Promise.all([
    r.call(context, {}),
    search ? { items: [], nextCursor: null } : page<any>(r, files_folders, { prefix: path, limit: FOLDERS_PAGE }, foldersCursor),
    page<any>(r, files_list, { prefix: path || null, recursive: Boolean(search), ...(search ? { search } : {}), sort, order, limit: PAGE }, cursor),
    undoId ? r.call(files_get, { fileId: undoId }).catch(() => null) : null,
  ]);
  return {
    query: { path, q: search, sort: sort === 'name' ? undefined : sort, order: order === 'asc' ? undefined : order, cursor, folders: foldersCursor },
    body: browserBody(r.locale, r.session.csrf, {
      usedBytes: ctxInfo.limits.storageUsedBytes,
      quotaBytes: ctxInfo.limits.storageQuotaBytes,
      path,
      q: search,
      sort,
      order,
      folders: folders.items,
      foldersNext: folders.nextCursor,
      files: files.items,
      next: files.nextCursor,
      paged: Boolean(cursor),
      undo: undone && undone.state === 'trashed' ? { fileId: undone.fileId, name: undone.name } : null,
      uploadTexts: uploadTexts(r.locale),
    }),
    ...(r.query.done === 'upload' ? { notice: FILES.uploaded[r.locale] } : {}),
  };
}

async function previewOf(r: PageRequest, file: { fileId: string; name: string; mediaType: string; size: number }): Promise<Preview> {
  const kind = previewKind(file.mediaType, file.name);
  if (kind === 'image') return { kind: 'image' };
  if (kind === 'none') return { kind: 'none' };
  if (sizeOf(file) > PREVIEW_WHOLE) return { kind: 'text-start', bytes: PREVIEW_START };
  try {
    return { kind: 'text', text: (await r.call(files_read_text, { fileId: file.fileId })).text };
  } catch (err) {
    if (err instanceof ServiceError && err.code === 'invalid_input') return { kind: 'not-text' };
    throw err;
  }
}

export async function filePage(r: PageRequest): Promise<PageView> {
  const fileId = text(r.query.fileId, 64);
  let file: any = null;
  if (/^fil_[a-z2-7]{26}$/.test(fileId)) {
    try {
      file = await r.call(files_get, { fileId });
    } catch (err) {
      if (!(err instanceof ServiceError) || err.code !== 'not_found') throw err;
    }
  }
  if (!file) return { body: missingFileBody(r.locale), status: 404, query: { fileId } };
  const [detail, preview] = await Promise.all([r.call(org.organization_get, {}), previewOf(r, file)]);
  const writer = (detail.members as { userId: string; email: string }[]).find((m) => m.userId === file.createdBy)?.email ?? null;
  const typed = r.extra.prefill?.action === 'file-rename' ? r.extra.prefill.values : null;
  return {
    title: file.name.split('/').pop(),
    query: { fileId },
    body: fileBody(r.locale, r.session.csrf, {
      file,
      writer,
      writerKnown: file.createdBy !== null,
      preview,
      ...(typed ? { typed: { name: typed.get('newName') ?? undefined, mediaType: typed.get('mediaType') ?? undefined } } : {}),
    }),
  };
}

export async function trashPage(r: PageRequest): Promise<PageView> {
  const cursor = text(r.query.cursor, 2048);
  const search = text(r.query.q, 255).trim();
  const [ctxInfo, trash] = await Promise.all([
    r.call(context, {}),
    page<any>(r, files_list, { state: 'trashed', sort: 'updatedAt', order: 'desc', ...(search ? { search } : {}), limit: PAGE }, cursor),
  ]);
  return {
    query: { q: search, cursor },
    body: trashBody(r.locale, r.session.csrf, {
      trashRetentionDays: ctxInfo.limits.trashRetentionDays,
      q: search,
      trash: trash.items,
      next: trash.nextCursor,
      paged: Boolean(cursor),
      ...(r.extra.choice?.restore ? { restoreChoice: r.extra.choice.restore } : {}),
    }),
  };
}
