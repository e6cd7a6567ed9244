// Files: storage used against the quota, the browser, and the trash with a restore button per file.
import type { Locale } from '../../../runtime-api/index.ts';
import { actionForm, escapeHtml, pageUrl, table, timeTag, texts } from './layout.ts';
import { FILES } from './texts.ts';

export interface FilesData {
  usedBytes: number;
  quotaBytes: number;
}

export interface TrashData {
  trashRetentionDays: number;
  trash: { fileId: string; name: string; size?: number; byteLength?: number; trashedAt: string | null; restorableUntil: string | null }[];
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

export function filesBody(locale: Locale, _csrf: string, d: FilesData): string {
  const t = texts(locale);
  return `${usageSection(locale, d.usedBytes, d.quotaBytes)}
<p><a href="${pageUrl('trash', locale)}">${t(FILES.trash)}</a></p>`;
}

export function trashBody(locale: Locale, csrf: string, d: TrashData): string {
  const t = texts(locale);
  const rows = d.trash.map((f) => [
    escapeHtml(f.name),
    formatBytes(locale, f.size ?? f.byteLength ?? 0),
    timeTag(f.trashedAt),
    timeTag(f.restorableUntil),
    actionForm(
      'file-restore',
      csrf,
      `<input type="hidden" name="fileId" value="${escapeHtml(f.fileId)}"><button type="submit" aria-label="${t(FILES.restoreLabel(f.name))}">${t(FILES.restore)}</button>`,
      { inline: true, locale },
    ),
  ]);
  const list = rows.length
    ? table(
        [{ label: t(FILES.file) }, { label: t(FILES.size), num: true }, { label: t(FILES.trashed) }, { label: t(FILES.restorableUntil) }, { label: '' }],
        rows,
      )
    : `<p class="note">${t(FILES.trashEmpty)}</p>`;
  const next = d.next ? `<a href="${escapeHtml(pageUrl('trash', locale, { cursor: d.next }))}" rel="next">${t(FILES.nextPage)}</a>` : '';
  const first = d.paged ? `<a href="${pageUrl('trash', locale)}">${t(FILES.firstPage)}</a>` : '';
  return `<section aria-labelledby="trash"><h2 id="trash">${t(FILES.trash)}</h2>
<p class="note">${t(FILES.retention(d.trashRetentionDays))}</p>${list}
${next || first ? `<nav class="pager" aria-label="${t(FILES.pages)}">${first || '<span></span>'}${next}</nav>` : ''}</section>`;
}
