// cp and sync between a local folder (or file) and `remote:PATH`, either direction (transfer/push.ts up,
// transfer/pull.ts down): options read as rclone reads them, then one summary. Each entry succeeds or fails on its own,
// and the exit status is 1 when anything failed.
import type { Command } from '../command.ts';
import { usageError } from '../errors.ts';
import { conflictError, type Options } from '../transfer/common.ts';
import { DEFAULT_COMPARISON, filter, type Comparison, type Existing } from '../transfer/plan.ts';
import { push } from '../transfer/push.ts';
import { pull } from '../transfer/pull.ts';
import { REMOTE } from '../transfer/remote-tree.ts';
import { report, summarize } from '../transfer/report.ts';

/** `--modify-window 2s`, `500ms`, `1m`, a bare number of seconds: as rclone spells durations. */
export function parseWindow(text: string): number {
  const m = /^(\d+(?:\.\d+)?)(ns|us|µs|ms|s|m|h)?$/.exec(text.trim());
  if (!m) throw usageError('--modify-window: a duration such as 1s, 500ms or 2m');
  const scale: Record<string, number> = { ns: 1e-6, us: 1e-3, µs: 1e-3, ms: 1, s: 1000, m: 60_000, h: 3_600_000 };
  return Number(m[1]) * scale[m[2] ?? 's'];
}

function comparisonOf(values: Record<string, string | boolean | undefined>): Comparison {
  const modes = (['checksum', 'size-only', 'ignore-times'] as const).filter((m) => values[m]);
  if (modes.length > 1) throw usageError(`--${modes.join(' and --')} exclude each other`);
  return {
    mode: modes[0] ?? 'modtime',
    windowMs: values['modify-window'] === undefined ? DEFAULT_COMPARISON.windowMs : parseWindow(String(values['modify-window'])),
    update: Boolean(values.update),
  };
}

/** The body of `cp` (`defaultExisting` 'fail') and `sync` ('overwrite'). */
export function transferRun(name: 'cp' | 'sync', defaultExisting: Existing): Command['run'] {
  return async (ctx, values, [source, destination]) => {
    const remoteSrc = source.startsWith(REMOTE);
    const remoteDst = destination.startsWith(REMOTE);
    if (remoteSrc === remoteDst) throw usageError(`${name}: exactly one side must be remote:PATH (e.g. siglata ${name} ./dir remote:dir/)`);
    const skipExisting = Boolean(values['skip-existing'] || values['ignore-existing']);
    if (values.overwrite && skipExisting) throw usageError('--overwrite and --skip-existing exclude each other');
    if (values.links && values['copy-links']) throw usageError('--links and --copy-links exclude each other');
    const list = (v: unknown) => (Array.isArray(v) ? v.map(String) : v === undefined ? [] : [String(v)]);
    const options: Options = {
      existing: values.overwrite ? 'overwrite' : skipExisting ? 'skip' : defaultExisting,
      comparison: comparisonOf(values),
      keep: filter(list(values.include), list(values.exclude)),
      dryRun: Boolean(values['dry-run']),
      mirror: Boolean(values.delete),
      links: values['copy-links'] ? 'follow' : values.links ? 'translate' : 'skip',
      verbose: Boolean(values.verbose),
    };
    const api = await ctx.api();
    const started = Date.now();
    const rows = remoteDst ? await push(ctx, api, source, destination, options) : await pull(ctx, api, source, destination, options);
    for (const r of rows) if (!r.error && r.decision === 'exists') r.error = conflictError(r);
    const summary = summarize(rows, options.dryRun, api.requests, started);
    report(ctx, rows, summary, options.mirror);
    return summary.failed ? 1 : 0;
  };
}
