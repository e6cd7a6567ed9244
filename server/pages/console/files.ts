// Files at a glance: storage used against the quota, the latest executions from the audit log, and the trash with
// a restore button per file.
import type { Locale } from '../../../runtime-api/index.ts';
import { actionForm, escapeHtml, timeTag, texts } from './layout.ts';

export interface FilesData {
  usedBytes: number;
  quotaBytes: number;
  trashRetentionDays: number;
  /** Null when the viewer may not read the audit log (members). */
  executions: { when: string; who: string; via: string; ok: boolean; errorCode: string | null; wallMs: number }[] | null;
  trash: { fileId: string; name: string; byteLength: number; trashedAt: string | null; restorableUntil: string | null }[];
}

export function formatBytes(locale: Locale, n: number): string {
  const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];
  let i = 0;
  let x = n;
  while (x >= 1024 && i < units.length - 1) { x /= 1024; i++; }
  return `${new Intl.NumberFormat(locale, { maximumFractionDigits: i ? 1 : 0 }).format(x)} ${units[i]}`;
}

export function filesBody(locale: Locale, csrf: string, d: FilesData): string {
  const t = texts(locale);
  const percent = d.quotaBytes ? Math.min(100, (d.usedBytes / d.quotaBytes) * 100) : 0;
  const pct = new Intl.NumberFormat(locale, { maximumFractionDigits: 1 }).format(percent);
  const usage = `<section aria-labelledby="usage"><h2 id="usage">${t('Storage', 'Armazenamento')}</h2>
<p id="usage-text">${t(`${formatBytes(locale, d.usedBytes)} of ${formatBytes(locale, d.quotaBytes)} used (${pct}%).`, `${formatBytes(locale, d.usedBytes)} de ${formatBytes(locale, d.quotaBytes)} usados (${pct}%).`)}</p>
<progress max="${d.quotaBytes}" value="${d.usedBytes}" aria-labelledby="usage-text"></progress>
<p class="note">${t('Active files, files in the trash and open uploads all count.', 'Arquivos ativos, arquivos na lixeira e envios em andamento contam.')}</p></section>`;
  const executions = d.executions === null
    ? `<p class="note">${t('Only owners and admins can read the execution log.', 'Somente proprietários e administradores podem ler o registro de execuções.')}</p>`
    : d.executions.length
      ? `<table><thead><tr><th scope="col">${t('When', 'Quando')}</th><th scope="col">${t('Who', 'Quem')}</th><th scope="col">${t('Via', 'Via')}</th><th scope="col">${t('Outcome', 'Resultado')}</th><th scope="col">${t('Duration', 'Duração')}</th></tr></thead><tbody>
${d.executions.map((e) => `<tr><td>${timeTag(e.when)}</td><td>${escapeHtml(e.who)}</td><td>${escapeHtml(e.via)}</td><td>${e.ok ? t('succeeded', 'concluída') : `${t('failed', 'falhou')}${e.errorCode ? ` (<code>${escapeHtml(e.errorCode)}</code>)` : ''}`}</td><td>${e.wallMs} ms</td></tr>`).join('\n')}</tbody></table>`
      : `<p class="note">${t('No script has run in this organization yet.', 'Nenhum script foi executado nesta organização ainda.')}</p>`;
  const trash = d.trash.length
    ? `<table><thead><tr><th scope="col">${t('File', 'Arquivo')}</th><th scope="col">${t('Size', 'Tamanho')}</th><th scope="col">${t('Trashed', 'Na lixeira desde')}</th><th scope="col">${t('Restorable until', 'Restaurável até')}</th><th scope="col"></th></tr></thead><tbody>
${d.trash.map((f) => `<tr><td>${escapeHtml(f.name)}</td><td>${formatBytes(locale, f.byteLength)}</td><td>${timeTag(f.trashedAt)}</td><td>${timeTag(f.restorableUntil)}</td>
<td>${actionForm('file-restore', csrf, `<input type="hidden" name="fileId" value="${escapeHtml(f.fileId)}"><button type="submit" aria-label="${t(`Restore ${f.name}`, `Restaurar ${f.name}`)}">${t('Restore', 'Restaurar')}</button>`, { inline: true, locale })}</td></tr>`).join('\n')}</tbody></table>`
    : `<p class="note">${t('The trash is empty.', 'A lixeira está vazia.')}</p>`;
  return `${usage}
<section aria-labelledby="runs"><h2 id="runs">${t('Recent executions', 'Execuções recentes')}</h2>${executions}</section>
<section aria-labelledby="trash"><h2 id="trash">${t('Trash', 'Lixeira')}</h2>
<p class="note">${t(`Files stay restorable for ${d.trashRetentionDays} days, then they are deleted for good.`, `Os arquivos podem ser restaurados por ${d.trashRetentionDays} dias; depois são apagados de vez.`)}</p>${trash}</section>`;
}
