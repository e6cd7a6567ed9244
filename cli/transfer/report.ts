// What cp / sync tell the person: a line per entry as it finishes (off a terminal), every problem again at the end
// with its resolution, the links left out, and one summary line; with --json all of it as one object.
import { say } from './messages.ts';
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

const removal = (r: Row) => r.decision === 'trash' || r.decision === 'delete';
const copying = (r: Row) => r.decision === 'new' || r.decision === 'replace';

/** The line for one finished entry (with --verbose, the requests it cost). */
export function lineFor(row: Row, verbose: boolean): string {
  const doneWord = say(row.decision === 'trash' ? 'trashed' : row.decision === 'delete' ? 'deleted' : 'copied');
  const what = row.error
    ? `${say('failed')} ${row.name}: ${row.error.code}: ${row.error.message}`
    : `${row.done ? doneWord : say(row.decision)} ${row.name} (${formatBytes(row.bytes)})`;
  return verbose && row.requests !== undefined ? `${what}  [${say('requests')}: ${+row.requests.toFixed(3)}]` : what;
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
        size: bytes,
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
  if (summary.dryRun) for (const r of rows) ctx.io.out(`${say(r.decision)}  ${r.name}  (${formatBytes(r.bytes)})\n`);
  for (const r of rows) if (r.decision === 'skip-link') ctx.io.err(`${say('linkNotice', { name: r.name, target: r.target ?? '?' })}\n`);
  for (const r of rows)
    if (r.error) ctx.io.err(`${r.name}: ${r.error.code}: ${r.error.message}${r.error.resolution ? `\n  ${say('resolution')}: ${r.error.resolution}` : ''}\n`);
  const s = summary;
  const head = [
    s.dryRun ? say('summaryPlanned', { planned: s.planned }) : say('summaryDone', { copied: s.copied }),
    ...(mirror ? [say(s.dryRun ? 'summaryToRemove' : 'summaryRemoved', { deleted: s.deleted })] : []),
    say('summaryRest', { unchanged: s.unchanged, skipped: s.skipped, failed: s.failed, links: s.links ? say('summaryLinks', { links: s.links }) : '' }),
  ].join(', ');
  const tail = say(s.dryRun ? 'summaryToMove' : 'summaryMoved', { size: formatBytes(s.bytes), bytes: s.bytes, requests: s.requests, seconds: s.seconds });
  ctx.io.out(`${head}; ${tail}\n`);
}
