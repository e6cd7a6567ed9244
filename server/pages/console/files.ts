// Files at a glance: storage used against the quota, the latest executions from the audit log, and the trash with
// a restore button per file. A restore refused because another file now holds the path shows, on that file's row,
// the two ways on: replace the current file (it goes to the trash) or restore beside it under a new name.
import type { Locale } from '../../../runtime-api/index.ts';
import { actionForm, escapeHtml, timeTag, texts } from './layout.ts';
import { FILES } from './texts.ts';

export interface FilesData {
  usedBytes: number;
  quotaBytes: number;
  trashRetentionDays: number;
  /** Null when the viewer may not read the audit log (members). */
  executions: { when: string; who: string; via: string; ok: boolean; errorCode: string | null; wallMs: number }[] | null;
  trash: { fileId: string; name: string; size: number; trashedAt: string | null; restorableUntil: string | null }[];
  /** The trashed file whose restore was refused because `existingFileId` holds its path. */
  restoreChoice?: { fileId: string; path: string; existingFileId: string };
}

function restoreForms(locale: Locale, csrf: string, f: { fileId: string; name: string }, choice: FilesData['restoreChoice']): string {
  const t = texts(locale);
  const button = (onConflict: string | null, label: string, aria: string, secondary = false) =>
    actionForm(
      'file-restore',
      csrf,
      `<input type="hidden" name="fileId" value="${escapeHtml(f.fileId)}">${onConflict ? `<input type="hidden" name="onConflict" value="${onConflict}">` : ''}<button type="submit"${secondary ? ' class="secondary"' : ''} aria-label="${escapeHtml(aria)}">${escapeHtml(label)}</button>`,
      { inline: true, locale },
    );
  if (choice?.fileId !== f.fileId) return button(null, t(FILES.restore), t(FILES.restoreLabel(f.name)));
  return `<p class="note" id="taken-${escapeHtml(f.fileId)}">${escapeHtml(t(FILES.pathTaken(choice.path)))}</p>
${button('replace', t(FILES.replaceCurrent), t(FILES.replaceCurrentLabel(f.name)))}
${button('rename', t(FILES.restoreBeside), t(FILES.restoreBesideLabel(f.name)), true)}`;
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

export function filesBody(locale: Locale, csrf: string, d: FilesData): string {
  const t = texts(locale);
  const percent = d.quotaBytes ? Math.min(100, (d.usedBytes / d.quotaBytes) * 100) : 0;
  const pct = new Intl.NumberFormat(locale, { maximumFractionDigits: 1 }).format(percent);
  const usage = `<section aria-labelledby="usage"><h2 id="usage">${t(FILES.storage)}</h2>
<p id="usage-text">${t(FILES.used(formatBytes(locale, d.usedBytes), formatBytes(locale, d.quotaBytes), pct))}</p>
<progress max="${d.quotaBytes}" value="${d.usedBytes}" aria-labelledby="usage-text"></progress>
<p class="note">${t(FILES.allCount)}</p></section>`;
  const executions =
    d.executions === null
      ? `<p class="note">${t(FILES.logAdminsOnly)}</p>`
      : d.executions.length
        ? `<table><thead><tr><th scope="col">${t(FILES.when)}</th><th scope="col">${t(FILES.who)}</th><th scope="col">${t(FILES.via)}</th><th scope="col">${t(FILES.outcome)}</th><th scope="col">${t(FILES.duration)}</th></tr></thead><tbody>
${d.executions.map((e) => `<tr><td>${timeTag(e.when)}</td><td>${escapeHtml(e.who)}</td><td>${escapeHtml(e.via)}</td><td>${e.ok ? t(FILES.succeeded) : `${t(FILES.failed)}${e.errorCode ? ` (<code>${escapeHtml(e.errorCode)}</code>)` : ''}`}</td><td>${e.wallMs} ms</td></tr>`).join('\n')}</tbody></table>`
        : `<p class="note">${t(FILES.noRuns)}</p>`;
  const trash = d.trash.length
    ? `<table><thead><tr><th scope="col">${t(FILES.file)}</th><th scope="col">${t(FILES.size)}</th><th scope="col">${t(FILES.trashed)}</th><th scope="col">${t(FILES.restorableUntil)}</th><th scope="col"></th></tr></thead><tbody>
${d.trash
  .map(
    (f) => `<tr><td>${escapeHtml(f.name)}</td><td>${formatBytes(locale, f.size)}</td><td>${timeTag(f.trashedAt)}</td><td>${timeTag(f.restorableUntil)}</td>
<td>${restoreForms(locale, csrf, f, d.restoreChoice)}</td></tr>`,
  )
  .join('\n')}</tbody></table>`
    : `<p class="note">${t(FILES.trashEmpty)}</p>`;
  return `${usage}
<section aria-labelledby="runs"><h2 id="runs">${t(FILES.recentExecutions)}</h2>${executions}</section>
<section aria-labelledby="trash"><h2 id="trash">${t(FILES.trash)}</h2>
<p class="note">${t(FILES.retention(d.trashRetentionDays))}</p>${trash}</section>`;
}
