// Files: the browser (a folder's subfolders and files, sortable by column, or a name search; uploads of files and
// folders by files.js), the trash, and storage used against the quota.
import type { Locale } from '../../../runtime-api/index.ts';
import { actionForm, escapeHtml, pageUrl, table, timeTag, texts, type Column } from './layout.ts';
import { FILES } from './texts.ts';
import { assetUrl } from './assets.ts';

export type FileSort = 'name' | 'size' | 'createdAt' | 'updatedAt' | 'modifiedAt';

/** A file record as the bindings answer it (the fields the pages show). */
export interface FileItem {
  fileId: string;
  name: string;
  mediaType: string;
  size: number;
  createdAt: string;
  updatedAt: string;
  modifiedAt: string;
  trashedAt: string | null;
  restorableUntil: string | null;
}

export const sizeOf = (f: { size: number }) => f.size;

export interface FolderItem {
  path: string;
  name: string;
  files: number;
  size: number;
  updatedAt: string;
  modifiedAt: string;
}

export interface BrowserData {
  usedBytes: number;
  quotaBytes: number;
  /** The folder shown: '' for the top, else a path ending in `/`. */
  path: string;
  q: string;
  sort: FileSort;
  order: 'asc' | 'desc';
  folders: FolderItem[];
  foldersNext: string | null;
  files: FileItem[];
  next: string | null;
  paged: boolean;
  /** A file just moved to the trash, for its Undo button. */
  undo: { fileId: string; name: string } | null;
  /** The upload script's texts, as JSON. */
  uploadTexts: string;
}

export interface TrashData {
  trashRetentionDays: number;
  /** The trashed file whose restore was refused because `existingFileId` holds its path. */
  restoreChoice?: { fileId: string; path: string; existingFileId: string };
  q: string;
  trash: FileItem[];
  next: string | null;
  paged: boolean;
}

export function formatBytes(locale: Locale, n: number): string {
  const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];
  let i = 0;
  let x = n;
  while (x >= 1024 && i < units.length - 1) {
    x /= 1024;
    i++;
  }
  return `${new Intl.NumberFormat(locale, { maximumFractionDigits: i ? 1 : 0 }).format(x)} ${units[i]}`;
}

export function usageSection(locale: Locale, usedBytes: number, quotaBytes: number): string {
  const t = texts(locale);
  const percent = quotaBytes ? Math.min(100, (usedBytes / quotaBytes) * 100) : 0;
  const pct = new Intl.NumberFormat(locale, { maximumFractionDigits: 1 }).format(percent);
  return `<section aria-labelledby="usage"><h2 id="usage">${t(FILES.storage)}</h2>
<p id="usage-text">${t(FILES.used(formatBytes(locale, usedBytes), formatBytes(locale, quotaBytes), pct))}</p>
<progress max="${quotaBytes}" value="${usedBytes}" aria-labelledby="usage-text"></progress>
<p class="note">${t(FILES.allCount)}</p></section>`;
}

/** The last segment of a path (a file's name in its folder). */
export const baseName = (path: string) => path.replace(/\/$/, '').split('/').pop() ?? path;
/** The folder a file is in: '' or a path ending in `/`. */
export const folderOf = (path: string) => path.slice(0, path.lastIndexOf('/') + 1);

export function breadcrumbs(locale: Locale, path: string, last = true): string {
  const t = texts(locale);
  const segments = path.split('/').filter(Boolean);
  const crumbs = [`<li><a href="${escapeHtml(pageUrl('files', locale))}"${!segments.length && last ? ' aria-current="page"' : ''}>${t(FILES.top)}</a></li>`];
  segments.forEach((segment, i) => {
    const at = `${segments.slice(0, i + 1).join('/')}/`;
    const current = last && i === segments.length - 1 ? ' aria-current="page"' : '';
    crumbs.push(`<li><a href="${escapeHtml(pageUrl('files', locale, { path: at }))}"${current}>${escapeHtml(segment)}</a></li>`);
  });
  return `<nav class="crumbs" aria-label="${t(FILES.where)}"><ol>${crumbs.join('')}</ol></nav>`;
}

export const downloadPath = (fileId: string) => `/v1/mcp/files/${encodeURIComponent(fileId)}/download`;

function sortHeader(locale: Locale, d: BrowserData, column: FileSort, label: string, num = false): Column {
  const active = d.sort === column;
  const next = active && d.order === 'asc' ? 'desc' : 'asc';
  const href = pageUrl('files', locale, { path: d.path, q: d.q, sort: column, order: next });
  const arrow = active ? `<span aria-hidden="true">${d.order === 'asc' ? ' ↑' : ' ↓'}</span>` : '';
  return {
    label: `<a href="${escapeHtml(href)}">${label}${arrow}</a>`,
    num,
    ...(active ? { ariaSort: d.order === 'asc' ? ('ascending' as const) : ('descending' as const) } : {}),
  };
}

function uploadPanel(locale: Locale, csrf: string, d: BrowserData): string {
  const t = texts(locale);
  const into = d.path ? d.path : `${FILES.top[locale]}`;
  return `<div class="uploads" id="uploads" data-folder="${escapeHtml(d.path)}" data-csrf="${escapeHtml(csrf)}" data-texts="${escapeHtml(d.uploadTexts)}" data-locale="${locale}" hidden>
<h3 id="upload-heading">${t(FILES.upload)} <span class="note">${t(FILES.uploadInto(into))}</span></h3>
<div class="drop" id="drop-zone"><p class="actions">
<input type="file" id="upload-files" multiple class="visually-hidden"><label class="button" for="upload-files">${t(FILES.uploadFiles)}</label>
<input type="file" id="upload-folder" webkitdirectory multiple class="visually-hidden"><label class="button secondary" for="upload-folder">${t(FILES.uploadFolder)}</label>
</p><p class="note">${t(FILES.dropHere)}</p></div>
<div id="upload-list" aria-live="polite"></div></div>
<noscript><p class="note">${t(FILES.uploadNeedsScript)}</p></noscript>`;
}

export function browserBody(locale: Locale, csrf: string, d: BrowserData): string {
  const t = texts(locale);
  const searching = Boolean(d.q);
  const undo = d.undo
    ? `<div class="notice" role="status"><p>${t(FILES.trashedNotice(baseName(d.undo.name)))}</p>${actionForm(
        'file-restore',
        csrf,
        `<input type="hidden" name="fileId" value="${escapeHtml(d.undo.fileId)}"><input type="hidden" name="back" value="files"><input type="hidden" name="path" value="${escapeHtml(d.path)}"><button type="submit" class="secondary">${t(FILES.undo)}</button>`,
        { locale },
      )}</div>`
    : '';
  const search = `<form method="get" action="/console/files" role="search" class="toolbar">
<input type="hidden" name="lang" value="${locale}"><input type="hidden" name="path" value="${escapeHtml(d.path)}">
<label>${t(FILES.search)} <span class="note">(${t(FILES.searchHere)})</span> <input type="search" name="q" id="file-search" maxlength="255" value="${escapeHtml(d.q)}"></label>
<span class="actions"><button type="submit">${t(FILES.searchButton)}</button>${searching ? ` <a href="${escapeHtml(pageUrl('files', locale, { path: d.path }))}">${t(FILES.clearSearch)}</a>` : ''}</span>
</form>`;
  const newFolder = `<details><summary>${t(FILES.newFolder)}</summary>
<form method="get" action="/console/files" class="toolbar" data-new-folder>
<input type="hidden" name="lang" value="${locale}"><input type="hidden" name="parent" value="${escapeHtml(d.path)}">
<label>${t(FILES.newFolderName)} <input name="folder" id="new-folder" required maxlength="255" pattern="[^/\\\\]+"></label>
<button type="submit" class="secondary">${t(FILES.openFolder)}</button></form></details>`;
  const headers = [
    sortHeader(locale, d, 'name', t(FILES.name)),
    sortHeader(locale, d, 'size', t(FILES.size), true),
    sortHeader(locale, d, 'modifiedAt', t(FILES.modified)),
    { label: t(FILES.type) },
    { label: '' },
  ];
  const folderRows = searching
    ? []
    : d.folders.map((f) => [
        `<a href="${escapeHtml(pageUrl('files', locale, { path: f.path }))}" class="folder">${escapeHtml(f.name)}/</a>`,
        `${formatBytes(locale, f.size)} <span class="note">(${t(FILES.folderFiles(f.files, new Intl.NumberFormat(locale).format(f.files)))})</span>`,
        timeTag(f.modifiedAt),
        t(FILES.folder),
        '',
      ]);
  const fileRows = d.files.map((f) => {
    const shown = searching ? f.name.slice(d.path.length) : baseName(f.name);
    return [
      `<input type="checkbox" name="fileId" value="${escapeHtml(f.fileId)}" form="bulk" aria-label="${t(FILES.selectLabel(f.name))}" data-select> <a href="${escapeHtml(pageUrl('file', locale, { fileId: f.fileId }))}">${escapeHtml(shown)}</a>`,
      formatBytes(locale, sizeOf(f)),
      timeTag(f.modifiedAt),
      `<code>${escapeHtml(f.mediaType.split(';')[0])}</code>`,
      `<span class="actions"><a href="${escapeHtml(downloadPath(f.fileId))}" download aria-label="${t(FILES.downloadLabel(f.name))}">${t(FILES.download)}</a>
${actionForm(
  'file-trash',
  csrf,
  `<input type="hidden" name="fileId" value="${escapeHtml(f.fileId)}"><input type="hidden" name="path" value="${escapeHtml(d.path)}"><button type="submit" class="secondary" aria-label="${t(FILES.trashLabel(f.name))}">${t(FILES.moveToTrash)}</button>`,
  { locale, inline: true },
)}</span>`,
    ];
  });
  const rows = [...folderRows, ...fileRows];
  const empty = searching ? t(FILES.noResults) : d.path ? t(FILES.emptyFolder) : t(FILES.noFiles);
  const list = rows.length
    ? table(headers, rows, { id: 'file-list', ...(searching ? { caption: t(FILES.resultsFor(d.q)) } : {}) })
    : `<p class="note">${empty}</p>`;
  // Several files at once: the rows' checkboxes belong to this form (form="bulk"), which the rows' own forms cannot hold.
  const bulk = fileRows.length
    ? `<form id="bulk" method="post" action="/console/actions/files-bulk?lang=${locale}" class="toolbar" aria-label="${t(FILES.selected)}">
<input type="hidden" name="csrf" value="${escapeHtml(csrf)}"><input type="hidden" name="path" value="${escapeHtml(d.path)}">
<span class="actions"><label class="choice" hidden data-select-all-label><input type="checkbox" data-select-all> ${t(FILES.selectAll)}</label>
<button type="submit" name="op" value="trash" class="secondary">${t(FILES.trashSelected)}</button></span>
<label>${t(FILES.moveSelectedTo)} <input name="target" id="bulk-target" maxlength="1024" placeholder="archive/2026/" value="${escapeHtml(d.path)}"></label>
<button type="submit" name="op" value="move">${t(FILES.moveSelected)}</button>
</form>`
    : '';
  const more = [
    d.foldersNext && !searching
      ? `<a href="${escapeHtml(pageUrl('files', locale, { path: d.path, sort: d.sort, order: d.order, folders: d.foldersNext }))}">${t(FILES.moreFolders)}</a>`
      : '',
    d.paged ? `<a href="${escapeHtml(pageUrl('files', locale, { path: d.path, q: d.q, sort: d.sort, order: d.order }))}">${t(FILES.firstPage)}</a>` : '',
    d.next
      ? `<a href="${escapeHtml(pageUrl('files', locale, { path: d.path, q: d.q, sort: d.sort, order: d.order, cursor: d.next }))}" rel="next">${t(FILES.nextPage)}</a>`
      : '',
  ].filter(Boolean);
  return `${undo}<section aria-labelledby="browse"><h2 id="browse" class="visually-hidden">${t(FILES.where)}</h2>
${breadcrumbs(locale, d.path)}
${search}
${uploadPanel(locale, csrf, d)}
${list}
${bulk}
${more.length ? `<nav class="pager" aria-label="${t(FILES.pages)}">${more.join(' ')}</nav>` : ''}
${newFolder}
<p><a href="${pageUrl('trash', locale)}">${t(FILES.openTrash)}</a></p></section>
${usageSection(locale, d.usedBytes, d.quotaBytes)}
<script src="${assetUrl('files.js')}" defer></script>`;
}

/** A restore form; `keep` carries the fields that say where to come back to (a folder, a file's details). */
function restoreButton(
  locale: Locale,
  csrf: string,
  fileId: string,
  onConflict: string | null,
  label: string,
  aria: string,
  secondary = false,
  keep = '',
): string {
  return actionForm(
    'file-restore',
    csrf,
    `<input type="hidden" name="fileId" value="${escapeHtml(fileId)}">${onConflict ? `<input type="hidden" name="onConflict" value="${onConflict}">` : ''}${keep}<button type="submit"${secondary ? ' class="secondary"' : ''} aria-label="${escapeHtml(aria)}">${escapeHtml(label)}</button>`,
    { inline: true, locale },
  );
}

/** The two ways on when a restore finds its path taken: replace the current file, or restore beside it. */
export function restoreChoices(locale: Locale, csrf: string, f: { fileId: string; name: string }, form?: URLSearchParams): string {
  const t = texts(locale);
  const keep = form
    ? ['back', 'path']
        .filter((k) => form.get(k))
        .map((k) => `<input type="hidden" name="${k}" value="${escapeHtml(form.get(k)!)}">`)
        .join('')
    : '';
  return `${restoreButton(locale, csrf, f.fileId, 'replace', t(FILES.replaceCurrent), t(FILES.replaceCurrentLabel(f.name)), false, keep)}
${restoreButton(locale, csrf, f.fileId, 'rename', t(FILES.restoreBeside), t(FILES.restoreBesideLabel(f.name)), true, keep)}`;
}

/** The two ways on when a move finds its path taken: the same form again, with onConflict replace or rename. */
export function renameChoices(locale: Locale, csrf: string, form: URLSearchParams): string {
  const t = texts(locale);
  const keep = ['fileId', 'newName', 'mediaType']
    .filter((k) => form.get(k) !== null)
    .map((k) => `<input type="hidden" name="${k}" value="${escapeHtml(form.get(k)!)}">`)
    .join('');
  const again = (onConflict: string, label: string, secondary: boolean) =>
    actionForm(
      'file-rename',
      csrf,
      `${keep}<input type="hidden" name="onConflict" value="${onConflict}"><button type="submit"${secondary ? ' class="secondary"' : ''}>${label}</button>`,
      { inline: true, locale },
    );
  return `${again('replace', t(FILES.replaceThere), false)} ${again('rename', t(FILES.moveBeside), true)}`;
}

function restoreForms(locale: Locale, csrf: string, f: { fileId: string; name: string }, choice: TrashData['restoreChoice']): string {
  const t = texts(locale);
  if (choice?.fileId !== f.fileId) return restoreButton(locale, csrf, f.fileId, null, t(FILES.restore), t(FILES.restoreLabel(f.name)));
  return `<p class="note" id="taken-${escapeHtml(f.fileId)}">${escapeHtml(t(FILES.pathTaken(choice.path)))}</p>
${restoreChoices(locale, csrf, f)}`;
}

export function trashBody(locale: Locale, csrf: string, d: TrashData): string {
  const t = texts(locale);
  const rows = d.trash.map((f) => [
    escapeHtml(f.name),
    formatBytes(locale, sizeOf(f)),
    timeTag(f.trashedAt),
    timeTag(f.restorableUntil),
    `${restoreForms(locale, csrf, f, d.restoreChoice)} ${actionForm(
      'file-delete',
      csrf,
      `<input type="hidden" name="fileId" value="${escapeHtml(f.fileId)}"><button type="submit" class="danger" aria-label="${t(FILES.deleteLabel(f.name))}">${t(FILES.deleteForever)}</button>`,
      { inline: true, locale, confirm: FILES.deleteConfirm(f.name)[locale] },
    )}`,
  ]);
  const list = rows.length
    ? table(
        [{ label: t(FILES.file) }, { label: t(FILES.size), num: true }, { label: t(FILES.trashed) }, { label: t(FILES.restorableUntil) }, { label: '' }],
        rows,
        { id: 'trash-list' },
      )
    : `<p class="note">${d.q ? t(FILES.noResults) : t(FILES.trashEmpty)}</p>`;
  const search = `<form method="get" action="/console/files/trash" role="search" class="toolbar">
<input type="hidden" name="lang" value="${locale}">
<label>${t(FILES.search)} <input type="search" name="q" id="trash-search" maxlength="255" value="${escapeHtml(d.q)}"></label>
<span class="actions"><button type="submit">${t(FILES.searchButton)}</button>${d.q ? ` <a href="${pageUrl('trash', locale)}">${t(FILES.clearSearch)}</a>` : ''}</span></form>`;
  const next = d.next ? `<a href="${escapeHtml(pageUrl('trash', locale, { q: d.q, cursor: d.next }))}" rel="next">${t(FILES.nextPage)}</a>` : '';
  const first = d.paged ? `<a href="${escapeHtml(pageUrl('trash', locale, { q: d.q }))}">${t(FILES.firstPage)}</a>` : '';
  return `<section aria-labelledby="trash"><h2 id="trash">${t(FILES.trash)}</h2>
<p class="note">${t(FILES.retention(d.trashRetentionDays))}</p>
${search}
${list}
${next || first ? `<nav class="pager" aria-label="${t(FILES.pages)}">${first || '<span></span>'}${next}</nav>` : ''}
<p><a href="${pageUrl('files', locale)}">${t(FILES.backToFiles)}</a></p></section>`;
}

/** What the details page can show of a file's content. */
export type Preview =
  | { kind: 'text'; text: string }
  /** Text too large to read whole: files.js fetches its first bytes through the download route. */
  | { kind: 'text-start'; bytes: number }
  | { kind: 'image' }
  | { kind: 'not-text' }
  | { kind: 'none' };

export interface FileDetails {
  file: FileItem & { sha256: string | null; crc32: string | null; state: string };
  /** Who wrote it: an e-mail, or null when that person is no longer a member. */
  writer: string | null;
  writerKnown: boolean;
  preview: Preview;
  /** The typed fields of a refused rename, to show again. */
  typed?: { name?: string; mediaType?: string };
}

export function fileBody(locale: Locale, csrf: string, d: FileDetails): string {
  const t = texts(locale);
  const f = d.file;
  const size = sizeOf(f);
  const trashed = f.state === 'trashed';
  const facts: [string, string][] = [
    [t(FILES.path), `<code>${escapeHtml(f.name)}</code>`],
    [t(FILES.size), `${formatBytes(locale, size)} <span class="note">(${t(FILES.bytes(new Intl.NumberFormat(locale).format(size)))})</span>`],
    [t(FILES.type), `<code>${escapeHtml(f.mediaType)}</code>`],
    [t(FILES.created), timeTag(f.createdAt)],
    [t(FILES.modified), timeTag(f.modifiedAt)],
    [t(FILES.changed), timeTag(f.updatedAt)],
    [t(FILES.writtenBy), d.writer ? escapeHtml(d.writer) : d.writerKnown ? t(FILES.formerMember) : t(FILES.unknown)],
    [
      t(FILES.state),
      `${t(FILES.states[f.state] ?? FILES.states.active)}${trashed && f.restorableUntil ? ` <span class="note">(${t(FILES.restorableUntil)} ${timeTag(f.restorableUntil)})</span>` : ''}`,
    ],
    ['SHA-256', f.sha256 ? `<code class="hash">${escapeHtml(f.sha256)}</code>` : `<span class="note">${t(FILES.notKnown)}</span>`],
    ['CRC-32', f.crc32 ? `<code>${escapeHtml(f.crc32)}</code>` : `<span class="note">${t(FILES.notKnown)}</span>`],
  ];
  const actions = trashed
    ? actionForm(
        'file-restore',
        csrf,
        `<input type="hidden" name="fileId" value="${escapeHtml(f.fileId)}"><input type="hidden" name="back" value="file"><button type="submit">${t(FILES.restore)}</button>`,
        { locale, inline: true },
      )
    : `<a class="button" href="${escapeHtml(downloadPath(f.fileId))}" download>${t(FILES.download)}</a>
${actionForm(
  'file-trash',
  csrf,
  `<input type="hidden" name="fileId" value="${escapeHtml(f.fileId)}"><input type="hidden" name="path" value="${escapeHtml(folderOf(f.name))}"><button type="submit" class="secondary">${t(FILES.moveToTrash)}</button>`,
  { locale, inline: true },
)}`;
  const p = d.preview;
  const preview =
    p.kind === 'text'
      ? `<pre class="preview" tabindex="0" aria-labelledby="preview"><code>${escapeHtml(p.text)}</code></pre>`
      : p.kind === 'text-start'
        ? `<p class="note">${t(FILES.previewFirst(formatBytes(locale, p.bytes)))}</p>
<pre class="preview" tabindex="0" aria-labelledby="preview" data-preview-src="${escapeHtml(downloadPath(f.fileId))}" data-preview-bytes="${p.bytes}"><code></code></pre>
<noscript><p class="note">${t(FILES.previewNeedsScript)}</p></noscript>`
        : p.kind === 'image'
          ? `<img class="preview" src="${escapeHtml(downloadPath(f.fileId))}" alt="${t(FILES.imageAlt(baseName(f.name)))}">`
          : `<p class="note">${p.kind === 'not-text' ? t(FILES.notText) : t(FILES.noPreview)}</p>`;
  const rename = trashed
    ? `<p class="note">${t(FILES.restoreFirst)}</p>`
    : actionForm(
        'file-rename',
        csrf,
        `<input type="hidden" name="fileId" value="${escapeHtml(f.fileId)}">
<p class="note" id="rename-hint">${t(FILES.renameHint)}</p>
<label>${t(FILES.newPath)} <input name="newName" id="rename-path" required maxlength="1024" size="50" aria-describedby="rename-hint" value="${escapeHtml(d.typed?.name ?? f.name)}"></label>
<label>${t(FILES.mediaType)} <input name="mediaType" id="rename-type" maxlength="255" value="${escapeHtml(d.typed?.mediaType ?? f.mediaType)}"></label>
<button type="submit">${t(FILES.save)}</button>`,
        { locale },
      );
  return `<section aria-labelledby="facts"><h2 id="facts">${escapeHtml(baseName(f.name))}</h2>
${breadcrumbs(locale, folderOf(f.name), false)}
<dl class="facts">${facts.map(([k, val]) => `<dt>${k}</dt><dd>${val}</dd>`).join('')}</dl>
<div class="actions">${actions}</div></section>
<section aria-labelledby="preview"><h2 id="preview">${t(FILES.preview)}</h2>${preview}</section>
<section aria-labelledby="rename"><h2 id="rename">${t(FILES.renameMove)}</h2>${rename}</section>
${p.kind === 'text-start' ? `<script src="${assetUrl('files.js')}" defer></script>` : ''}`;
}

export function missingFileBody(locale: Locale): string {
  const t = texts(locale);
  return `<section><p>${t(FILES.noSuchFile)}</p><p><a href="${pageUrl('files', locale)}">${t(FILES.backToFiles)}</a></p></section>`;
}
