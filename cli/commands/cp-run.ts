// cp and sync between a local folder (or file) and a remote prefix (`remote:PREFIX`), either direction, recursive,
// with glob filters, a dry run, and a policy for names that already exist. Small files travel many per request
// (transfer/batches.ts); large ones through the resumable upload and download commands, parts in parallel.
import { mkdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { crc32 } from 'node:zlib';
import type { Command } from '../command.ts';
import { CliError, usageError } from '../errors.ts';
import { lang } from '../i18n.ts';
import { formatBytes } from '../format.ts';
import { progress, type Progress } from '../progress.ts';
import { CommandContext } from '../context.ts';
import { callBindingForEach } from '../service.ts';
import type { Api } from '../http.ts';
import { crcOfFile, decide, filter, listRemote, walkLocal, type Decision, type Existing, type RemoteFile } from '../transfer/plan.ts';
import { readBatch, readGroups, SMALL_FILE_MAX, writeBatch, writeGroups, type WriteItem } from '../transfer/batches.ts';
import { mediaTypeOf, runUpload } from './upload-run.ts';
import { runDownload } from './download-run.ts';

const REMOTE = 'remote:';

interface Row {
  path: string;
  name: string;
  bytes: number;
  decision: Decision;
  done?: boolean;
  fileId?: string;
  error?: { code: string; message: string; resolution?: string };
  requests?: number;
}

const words = (pt: boolean) => ({
  new: pt ? 'novo' : 'new',
  unchanged: pt ? 'inalterado' : 'unchanged',
  replace: pt ? 'substituir' : 'replace',
  'skip-existing': pt ? 'existente, ignorado' : 'exists, skipped',
  exists: pt ? 'já existe' : 'exists',
  ambiguous: pt ? 'nome ambíguo' : 'ambiguous name',
  trash: pt ? 'para a lixeira' : 'to trash',
  delete: pt ? 'apagar' : 'delete',
});

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
async function oneLarge(
  ctx: CommandContext,
  api: Api,
  row: Row,
  bar: Progress,
  work: (sub: CommandContext, captured: () => any) => Promise<void>,
): Promise<void> {
  const before = api.requests;
  const { sub, captured } = quietContext(ctx, api);
  try {
    await work(sub, captured);
    row.done = true;
  } catch (err) {
    if (ctx.interrupt.signal.aborted) throw err;
    row.error = err instanceof CliError ? (err.toJSON() as Row['error']) : { code: 'error', message: String(err) };
  }
  row.requests = api.requests - before;
  bar.fileDone(row.bytes, lineFor(row, ctx));
}

function conflictError(row: Row, pt: boolean): Row['error'] {
  if (row.decision === 'ambiguous') {
    return {
      code: 'ambiguous_path',
      message: pt ? `vários arquivos se chamam "${row.name}"` : `several files are named "${row.name}"`,
      resolution: pt ? 'Remova as cópias a mais (siglata ls) e repita.' : 'Remove the extra copies (siglata ls) and run again.',
    };
  }
  return {
    code: 'exists',
    message: pt ? `"${row.name}" já existe com outro conteúdo` : `"${row.name}" already exists with other content`,
    resolution: pt ? 'Use --overwrite para substituir ou --skip-existing para manter.' : 'Pass --overwrite to replace it or --skip-existing to keep it.',
  };
}

async function upload(
  ctx: CommandContext,
  api: Api,
  localArg: string,
  prefix: string,
  keep: (rel: string) => boolean,
  existing: Existing,
  dryRun: boolean,
  mirror: boolean,
): Promise<Row[]> {
  const root = resolve(localArg);
  const files = (
    await walkLocal(root).catch((err) => {
      throw new CliError('file_unreadable', `${localArg}: ${(err as NodeJS.ErrnoException).code ?? err}`);
    })
  ).filter((f) => keep(f.rel));
  const remote = await listRemote(api, prefix);
  const byName = Map.groupBy(remote, (r) => r.name);
  const rows: (Row & { abs: string; replaceId?: string })[] = [];
  for (const f of files) {
    const name = `${prefix}${f.rel}`;
    const others = byName.get(name) ?? [];
    const decision = await decide(
      f.size,
      () => crcOfFile(f.abs),
      others.map((o) => ({ size: o.size, crc32: o.crc32 })),
      existing,
    );
    rows.push({ path: f.abs, abs: f.abs, name, bytes: f.size, decision, replaceId: decision === 'replace' ? others[0].fileId : undefined });
  }
  // sync --delete: what the prefix holds beyond the local tree (filters apply, so excluded names stay).
  const local = new Set(files.map((f) => f.rel));
  const extra: Row[] = mirror
    ? remote
        .filter((r) => {
          const rel = r.name.slice(prefix.length);
          return rel !== '' && keep(rel) && !local.has(rel);
        })
        .map((r) => ({ path: r.name, name: r.name, bytes: r.size, decision: 'trash' as const, fileId: r.fileId }))
    : [];
  if (dryRun) return [...rows, ...extra];
  const todo = rows.filter((r) => r.decision === 'new' || r.decision === 'replace');
  const bar = progress(
    todo.reduce((s, r) => s + r.bytes, 0),
    0,
    { tty: ctx.io.stderrIsTTY, write: ctx.io.err, label: lang() === 'pt-BR' ? 'arquivos' : 'files', files: todo.length },
  );
  const small = todo.filter((r) => r.bytes <= SMALL_FILE_MAX);
  const items = await Promise.all(
    small.map(
      async (r): Promise<WriteItem & { row: Row }> => ({
        row: r,
        name: r.name,
        mediaType: mediaTypeOf(r.abs),
        data: await readFile(r.abs),
        replace: r.replaceId,
      }),
    ),
  );
  for (const group of writeGroups(items)) {
    if (ctx.interrupt.signal.aborted) throw ctx.interrupt.signal.reason;
    const outcomes = await writeBatch(api, group);
    group.forEach((item, i) => {
      const row = (item as WriteItem & { row: Row }).row;
      const o = outcomes[i];
      row.requests = 1 / group.length;
      if (o.ok) {
        row.done = true;
        row.fileId = o.fileId;
      } else row.error = { code: o.code ?? 'error', message: o.message ?? '', resolution: o.resolution };
      bar.fileDone(row.bytes, lineFor(row, ctx));
    });
  }
  for (const row of todo.filter((r) => r.bytes > SMALL_FILE_MAX)) {
    await oneLarge(ctx, api, row, bar, async (sub, captured) => {
      await runUpload(sub, { name: row.name }, [row.abs]);
      row.fileId = captured()?.fileId;
      if (row.replaceId)
        await api.json(`/app/v1/execute`, { json: { mode: 'run', script: `return await files_trash(${JSON.stringify({ fileId: row.replaceId })});` } });
    });
  }
  // Deletions come after the copies (rclone's --delete-after): an interrupted run never loses a file it had not copied.
  if (extra.length) {
    const before = api.requests;
    const outcomes = await callBindingForEach(
      api,
      'files_trash',
      'fileId',
      extra.map((r) => r.fileId!),
      ['fileId'],
    );
    const byId = new Map(outcomes.map((o) => [o.id, o]));
    for (const row of extra) {
      const o = byId.get(row.fileId!);
      if (o?.ok) row.done = true;
      else row.error = { code: o?.error?.code ?? 'error', message: o?.error?.message ?? '', resolution: o?.error?.resolution };
      row.requests = (api.requests - before) / extra.length;
      bar.line(lineFor(row, ctx));
    }
  }
  bar.done();
  return [...rows, ...extra];
}

async function download(
  ctx: CommandContext,
  api: Api,
  prefix: string,
  localArg: string,
  keep: (rel: string) => boolean,
  existing: Existing,
  dryRun: boolean,
  mirror: boolean,
): Promise<Row[]> {
  const root = resolve(localArg);
  const remote = await listRemote(api, prefix);
  const rows: (Row & { remote: RemoteFile })[] = [];
  const byName = Map.groupBy(remote, (r) => r.name);
  for (const [name, copies] of byName) {
    const rel = name.slice(prefix.length).replace(/^\/+/, '');
    if (!rel || !keep(rel)) continue;
    // A name is a path under the target folder, never outside it.
    if (rel.split('/').some((s) => s === '..' || s === '')) continue;
    const path = join(root, ...rel.split('/'));
    const st = await stat(path).catch(() => null);
    const mine = st?.isFile() ? [{ size: st.size, crc32: await crcOfFile(path) }] : [];
    let decision: Decision;
    if (copies.length > 1) decision = 'ambiguous';
    else decision = await decide(copies[0].size, async () => copies[0].crc32 ?? '', mine, existing);
    rows.push({ path, name, bytes: copies[0].size, decision, remote: copies[0], fileId: copies[0].fileId });
  }
  // sync --delete: local files under the folder that no remote name maps to (filters apply; a missing folder has none).
  const remoteRels = new Set([...byName.keys()].map((n) => n.slice(prefix.length).replace(/^\/+/, '')));
  const localFiles = mirror && (await stat(root).catch(() => null))?.isDirectory() ? await walkLocal(root) : [];
  const extra: Row[] = localFiles
    .filter((f) => keep(f.rel) && !remoteRels.has(f.rel))
    .map((f) => ({ path: f.abs, name: f.rel, bytes: f.size, decision: 'delete' as const }));
  if (dryRun) return [...rows, ...extra];
  const todo = rows.filter((r) => r.decision === 'new' || r.decision === 'replace');
  const bar = progress(
    todo.reduce((s, r) => s + r.bytes, 0),
    0,
    { tty: ctx.io.stderrIsTTY, write: ctx.io.err, label: lang() === 'pt-BR' ? 'arquivos' : 'files', files: todo.length },
  );
  for (const group of readGroups(todo.filter((r) => r.bytes <= SMALL_FILE_MAX).map((r) => ({ ...r.remote, row: r })))) {
    if (ctx.interrupt.signal.aborted) throw ctx.interrupt.signal.reason;
    const outcomes = await readBatch(
      api,
      group.map((g) => g.fileId),
    );
    for (const [i, g] of group.entries()) {
      const o = outcomes[i];
      const row = g.row;
      row.requests = 1 / group.length;
      if (o.ok && typeof o.base64 === 'string') {
        const data = Buffer.from(o.base64, 'base64');
        if (data.length !== row.bytes || (o.crc32 && crc32(data).toString(16).padStart(8, '0') !== o.crc32)) {
          row.error = { code: 'digest_mismatch', message: lang() === 'pt-BR' ? 'o conteúdo recebido não confere' : 'the content received does not check out' };
        } else {
          await mkdir(dirname(row.path), { recursive: true });
          await writeFile(`${row.path}.part`, data);
          await rename(`${row.path}.part`, row.path);
          row.done = true;
        }
      } else row.error = { code: o.code ?? 'error', message: o.message ?? '', resolution: o.resolution };
      bar.fileDone(row.bytes, lineFor(row, ctx));
    }
  }
  for (const row of todo.filter((r) => r.bytes > SMALL_FILE_MAX)) {
    await oneLarge(ctx, api, row, bar, async (sub) => {
      await mkdir(dirname(row.path), { recursive: true });
      await runDownload(sub, { output: row.path }, [row.remote.fileId]);
    });
  }
  for (const row of extra) {
    try {
      await rm(row.path);
      row.done = true;
    } catch (err) {
      row.error = { code: 'file_unwritable', message: `${row.path}: ${(err as NodeJS.ErrnoException).code ?? err}` };
    }
    row.requests = 0;
    bar.line(lineFor(row, ctx));
  }
  bar.done();
  return [...rows, ...extra];
}

function lineFor(row: Row, ctx: CommandContext & { verbose?: boolean }): string {
  const pt = lang() === 'pt-BR';
  const doneWord =
    row.decision === 'trash' ? (pt ? 'na lixeira' : 'trashed') : row.decision === 'delete' ? (pt ? 'apagado' : 'deleted') : pt ? 'copiado' : 'copied';
  const what = row.error
    ? `${pt ? 'falhou' : 'failed'} ${row.name}: ${row.error.code}: ${row.error.message}`
    : `${row.done ? doneWord : words(pt)[row.decision]} ${row.name} (${formatBytes(row.bytes)})`;
  return ctx.verbose && row.requests !== undefined ? `${what}  [${pt ? 'requisições' : 'requests'}: ${+row.requests.toFixed(3)}]` : what;
}

/** The body of `cp` (`defaultExisting` 'fail') and `sync` ('overwrite'). */
export function transferRun(name: 'cp' | 'sync', defaultExisting: Existing): Command['run'] {
  return async (ctx, values, [source, destination]) => {
    const remoteSrc = source.startsWith(REMOTE);
    const remoteDst = destination.startsWith(REMOTE);
    if (remoteSrc === remoteDst) throw usageError(`${name}: exactly one side must be remote:PREFIX (e.g. siglata ${name} ./dir remote:dir/)`);
    if (values.overwrite && values['skip-existing']) throw usageError('--overwrite and --skip-existing exclude each other');
    const existing: Existing = values.overwrite ? 'overwrite' : values['skip-existing'] ? 'skip' : defaultExisting;
    const list = (v: unknown) => (Array.isArray(v) ? v.map(String) : v === undefined ? [] : [String(v)]);
    const keep = filter(list(values.include), list(values.exclude));
    const dryRun = Boolean(values['dry-run']);
    (ctx as CommandContext & { verbose?: boolean }).verbose = Boolean(values.verbose);
    const api = await ctx.api();
    const started = Date.now();
    const mirror = Boolean(values.delete);
    const rows = remoteDst
      ? await upload(ctx, api, source, destination.slice(REMOTE.length), keep, existing, dryRun, mirror)
      : await download(ctx, api, source.slice(REMOTE.length), destination, keep, existing, dryRun, mirror);
    const isPt = lang() === 'pt-BR';
    for (const r of rows) if (!r.error && (r.decision === 'exists' || r.decision === 'ambiguous')) r.error = conflictError(r, isPt);
    const count = (f: (r: Row) => boolean) => rows.filter(f).length;
    const removal = (r: Row) => r.decision === 'trash' || r.decision === 'delete';
    const summary = {
      dryRun,
      copied: count((r) => r.done === true && !removal(r)),
      deleted: count((r) => removal(r) && (dryRun || r.done === true)),
      unchanged: count((r) => r.decision === 'unchanged'),
      skipped: count((r) => r.decision === 'skip-existing'),
      planned: dryRun ? count((r) => r.decision === 'new' || r.decision === 'replace') : 0,
      failed: count((r) => r.error !== undefined),
      bytes: rows.filter((r) => r.done && !removal(r)).reduce((s, r) => s + r.bytes, 0),
      requests: api.requests,
      seconds: +((Date.now() - started) / 1000).toFixed(2),
    };
    if (ctx.json)
      ctx.printJson({
        files: rows.map(({ path, name: n, bytes, decision, done, fileId, error, requests }) => ({
          path,
          name: n,
          size: bytes,
          decision,
          done: done ?? false,
          fileId,
          error,
          requests,
        })),
        summary,
      });
    else {
      if (dryRun) for (const r of rows) ctx.io.out(`${words(isPt)[r.decision]}  ${r.name}  (${formatBytes(r.bytes)})\n`);
      for (const r of rows)
        if (r.error && (!ctx.io.stderrIsTTY || r.decision === 'exists' || r.decision === 'ambiguous'))
          ctx.io.err(
            `${r.name}: ${r.error.code}: ${r.error.message}${r.error.resolution ? `\n  ${isPt ? 'solução' : 'resolution'}: ${r.error.resolution}` : ''}\n`,
          );
      ctx.io.out(
        isPt
          ? `${dryRun ? `${summary.planned} a copiar` : `${summary.copied} copiado(s)`}${mirror ? `, ${summary.deleted} ${dryRun ? 'a remover' : 'removido(s)'}` : ''}, ${summary.unchanged} inalterado(s), ${summary.skipped} ignorado(s), ${summary.failed} com falha; ${formatBytes(summary.bytes)} em ${summary.requests} requisição(ões), ${summary.seconds} s\n`
          : `${dryRun ? `${summary.planned} to copy` : `${summary.copied} copied`}${mirror ? `, ${summary.deleted} ${dryRun ? 'to remove' : 'removed'}` : ''}, ${summary.unchanged} unchanged, ${summary.skipped} skipped, ${summary.failed} failed; ${formatBytes(summary.bytes)} in ${summary.requests} request(s), ${summary.seconds} s\n`,
      );
    }
    return summary.failed ? 1 : 0;
  };
}
