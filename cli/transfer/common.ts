// What both directions of cp / sync share: their options, the errors a whole copy or one entry ends with, the rows for
// what a local walk left out, and the large-file path through the resumable upload and download commands.
import { CliError } from '../errors.ts';
import { CommandContext } from '../context.ts';
import type { Api } from '../http.ts';
import type { Progress } from '../progress.ts';
import type { Comparison, Existing } from './plan.ts';
import type { LinkPolicy, LocalTree } from './local-tree.ts';
import type { EntryError } from './local-write.ts';
import { REMOTE } from './remote-tree.ts';
import { lineFor, type Row } from './report.ts';
import { say, type TransferText } from './messages.ts';

export interface Options {
  existing: Existing;
  comparison: Comparison;
  keep: (rel: string) => boolean;
  dryRun: boolean;
  mirror: boolean;
  links: LinkPolicy;
  verbose: boolean;
}

/** Files above this travel on their own, in parts that resume; the rest go many to an archive. */
export const BIG_FILE = 8 * 1024 * 1024;

/** A context for reusing upload/download on one large file: same Api (so requests are counted), output captured. */
function quietContext(ctx: CommandContext, api: Api): { sub: CommandContext; captured: () => any } {
  let out = '';
  const sub = new CommandContext(
    { ...ctx.globals, json: true },
    {
      ...ctx.io,
      out: (d) => {
        out += String(d);
        return true;
      },
      err: () => {},
      stderrIsTTY: false,
    },
  );
  sub.api = async () => api;
  return {
    sub,
    captured: () => {
      try {
        return JSON.parse(out);
      } catch {
        return null;
      }
    },
  };
}

/** One large file through the upload or download command, its requests counted and its outcome on the row. */
export async function oneLarge(
  ctx: CommandContext,
  api: Api,
  row: Row,
  bar: Progress,
  verbose: boolean,
  work: (sub: CommandContext, captured: () => any) => Promise<void>,
): Promise<void> {
  const before = api.requests;
  const { sub, captured } = quietContext(ctx, api);
  try {
    await work(sub, captured);
    row.done = true;
  } catch (err) {
    if (ctx.interrupt.signal.aborted) throw err;
    row.error = err instanceof CliError ? (err.toJSON() as unknown as EntryError) : { code: 'error', message: String(err) };
  }
  row.requests = api.requests - before;
  bar.fileDone(row.bytes, lineFor(row, verbose));
}

/** The error of a name that exists with other content (cp without --overwrite). */
export function conflictError(row: Row): EntryError {
  return { code: 'exists', message: say('existsWithOther', { name: row.name }), resolution: say('existsWithOtherHelp') };
}

/** The source is missing (a local path) or names no file (a remote path): nothing to copy is an error, as in rclone. */
export function sourceMissing(what: string, detail: string): CliError {
  return new CliError('source_not_found', `${what}: ${detail}`, { resolution: say(what.startsWith(REMOTE) ? 'noRemoteSourceHelp' : 'noLocalSourceHelp') });
}

/** Why a local root could not be read, in words. */
export function missingDetail(code: string): string {
  if (code === 'ENOENT' || code === 'ENOTDIR') return say('noSuchPath');
  if (code === 'EACCES' || code === 'EPERM') return say('notReadable');
  if (code === 'ENOTFILE') return say('notFileOrFolder');
  return code;
}

const SKIP_TEXTS: Record<string, TransferText> = { broken_link: 'brokenLink', link_loop: 'linkLoop', unreadable: 'unreadable', special_file: 'specialFile' };

/** The rows for what a local walk left out: links (skipped, reported) and entries it could not read (failed). */
export function skippedRows(tree: LocalTree, keep: (rel: string) => boolean, nameOf: (rel: string) => string): Row[] {
  return tree.skipped
    .filter((s) => keep(s.rel))
    .map((s): Row => {
      const row: Row = { path: s.abs, name: nameOf(s.rel), bytes: 0, decision: s.code === 'link' ? 'skip-link' : 'refused' };
      if (s.target !== undefined) row.target = s.target;
      if (row.decision === 'refused') row.error = { code: s.code, message: say(SKIP_TEXTS[s.code], { target: s.target ?? '?', detail: s.detail ?? '?' }) };
      return row;
    });
}

/** An ISO 8601 time for the service from a local time (whole milliseconds). */
export const isoOf = (mtimeMs: number) => new Date(Math.round(mtimeMs)).toISOString();
