// What cp / sync tell the person: a line per entry as it finishes (off a terminal), every problem again at the end
// with its resolution, the links left out, and one summary line; with --json all of it as one object.
import { lang } from '../i18n.ts';
import { formatBytes } from '../format.ts';
import type { CommandContext } from '../context.ts';
import type { Decision } from './plan.ts';
import type { EntryError } from './local-write.ts';

export interface Row {
  /** The local path (for a remote file only the destination has: its remote name). */
  path: string;
  /** The remote name (for a local file only the destination has: its path under the folder). */
  name: string;
  bytes: number;
  decision: Decision;
  done?: boolean;
  fileId?: string;
  error?: EntryError;
  requests?: number;
  /** A symbolic link's target. */
  target?: string;
}

const words = (pt: boolean): Record<Decision, string> => ({
  new: pt ? 'novo' : 'new',
  unchanged: pt ? 'inalterado' : 'unchanged',
  replace: pt ? 'substituir' : 'replace',
  'skip-existing': pt ? 'existente, ignorado' : 'exists, skipped',
  'skip-newer': pt ? 'mais novo no destino, ignorado' : 'newer at the destination, skipped',
  exists: pt ? 'já existe' : 'exists',
  trash: pt ? 'para a lixeira' : 'to trash',
  delete: pt ? 'apagar' : 'delete',
  'skip-link': pt ? 'link, ignorado' : 'link, skipped',
  refused: pt ? 'recusado' : 'refused',
});

const removal = (r: Row) => r.decision === 'trash' || r.decision === 'delete';
const copying = (r: Row) => r.decision === 'new' || r.decision === 'replace';

/** The line for one finished entry (with --verbose, the requests it cost). */
export function lineFor(row: Row, verbose: boolean): string {
  const pt = lang() === 'pt-BR';
  const doneWord =
    row.decision === 'trash' ? (pt ? 'na lixeira' : 'trashed') : row.decision === 'delete' ? (pt ? 'apagado' : 'deleted') : pt ? 'copiado' : 'copied';
  const what = row.error
    ? `${pt ? 'falhou' : 'failed'} ${row.name}: ${row.error.code}: ${row.error.message}`
    : `${row.done ? doneWord : words(pt)[row.decision]} ${row.name} (${formatBytes(row.bytes)})`;
  return verbose && row.requests !== undefined ? `${what}  [${pt ? 'requisições' : 'requests'}: ${+row.requests.toFixed(3)}]` : what;
}

/** The notice for a symbolic link left out, as rclone gives one. */
function linkNotice(row: Row, pt: boolean): string {
  return pt
    ? `${row.name}: link simbólico para ${row.target ?? '?'}, não copiado (--copy-links segue o link, --links o guarda como link)`
    : `${row.name}: symbolic link to ${row.target ?? '?'}, not copied (--copy-links follows it, --links keeps it as a link)`;
}

export interface Summary {
  dryRun: boolean;
  copied: number;
  deleted: number;
  unchanged: number;
  skipped: number;
  links: number;
  planned: number;
  failed: number;
  bytes: number;
  requests: number;
  seconds: number;
}

export function summarize(rows: readonly Row[], dryRun: boolean, requests: number, started: number): Summary {
  const count = (f: (r: Row) => boolean) => rows.filter(f).length;
  return {
    dryRun,
    copied: count((r) => r.done === true && !removal(r)),
    deleted: count((r) => removal(r) && !r.error && (dryRun || r.done === true)),
    unchanged: count((r) => r.decision === 'unchanged'),
    skipped: count((r) => r.decision === 'skip-existing' || r.decision === 'skip-newer' || r.decision === 'skip-link'),
    links: count((r) => r.decision === 'skip-link'),
    planned: dryRun ? count((r) => copying(r) && !r.error) : 0,
    failed: count((r) => r.error !== undefined),
    // A dry run says how much it would move; a real run, how much it moved.
    bytes: rows.filter((r) => (dryRun ? copying(r) && !r.error : r.done && !removal(r))).reduce((s, r) => s + r.bytes, 0),
    requests,
    seconds: +((Date.now() - started) / 1000).toFixed(2),
  };
}

/** Everything after the transfer: the plan (dry run), problems and links on stderr, the summary line on stdout. */
export function report(ctx: CommandContext, rows: readonly Row[], summary: Summary, mirror: boolean): void {
  if (ctx.json) {
    ctx.printJson({
      files: rows.map(({ path, name, bytes, decision, done, fileId, error, requests, target }) => ({
        path,
        name,
        bytes,
        decision,
        done: done ?? false,
        fileId,
        error,
        requests,
        ...(target === undefined ? {} : { target }),
      })),
      summary,
    });
    return;
  }
  const pt = lang() === 'pt-BR';
  if (summary.dryRun) for (const r of rows) ctx.io.out(`${words(pt)[r.decision]}  ${r.name}  (${formatBytes(r.bytes)})\n`);
  for (const r of rows) if (r.decision === 'skip-link') ctx.io.err(`${linkNotice(r, pt)}\n`);
  for (const r of rows)
    if (r.error)
      ctx.io.err(`${r.name}: ${r.error.code}: ${r.error.message}${r.error.resolution ? `\n  ${pt ? 'solução' : 'resolution'}: ${r.error.resolution}` : ''}\n`);
  const s = summary;
  const links = s.links ? (pt ? ` (${s.links} link(s))` : ` (${s.links} link(s))`) : '';
  const head = pt
    ? `${s.dryRun ? `${s.planned} a copiar` : `${s.copied} copiado(s)`}${mirror ? `, ${s.deleted} ${s.dryRun ? 'a remover' : 'removido(s)'}` : ''}, ${s.unchanged} inalterado(s), ${s.skipped} ignorado(s)${links}, ${s.failed} com falha`
    : `${s.dryRun ? `${s.planned} to copy` : `${s.copied} copied`}${mirror ? `, ${s.deleted} ${s.dryRun ? 'to remove' : 'removed'}` : ''}, ${s.unchanged} unchanged, ${s.skipped} skipped${links}, ${s.failed} failed`;
  const tail = s.dryRun
    ? pt
      ? `${formatBytes(s.bytes)} a transferir (${s.bytes} bytes); ${s.requests} requisição(ões), ${s.seconds} s`
      : `${formatBytes(s.bytes)} to transfer (${s.bytes} bytes); ${s.requests} request(s), ${s.seconds} s`
    : pt
      ? `${formatBytes(s.bytes)} em ${s.requests} requisição(ões), ${s.seconds} s`
      : `${formatBytes(s.bytes)} in ${s.requests} request(s), ${s.seconds} s`;
  ctx.io.out(`${head}; ${tail}\n`);
}
