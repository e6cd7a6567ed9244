// cp and sync between a local folder (or file) and `remote:PATH`, either direction, recursive, with glob filters, a
// dry run, a policy for names that already exist, and symbolic links as rclone treats them. Each entry succeeds or
// fails on its own: a name clash, a name the local file system cannot hold or an unreadable file is reported with
// its resolution, the rest still copies, and the exit status is 1 when anything failed.
import { readFile, rm, stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { crc32 } from 'node:zlib';
import type { Command } from '../command.ts';
import { CliError, usageError } from '../errors.ts';
import { lang } from '../i18n.ts';
import { progress, type Progress } from '../progress.ts';
import { CommandContext } from '../context.ts';
import { callBindingForEach } from '../service.ts';
import type { Api } from '../http.ts';
import { crcOfFile, decide, filter, type Existing } from '../transfer/plan.ts';
import { readBatch, readGroups, SMALL_FILE_MAX, writeBatch, writeGroups, type WriteItem } from '../transfer/batches.ts';
import { LINK_SUFFIX, RootMissing, walkLocal, type LinkPolicy, type LocalFile, type LocalTree } from '../transfer/local-tree.ts';
import { folderOf, listRemote, REMOTE, remotePath, type RemoteFile } from '../transfer/remote-tree.ts';
import { FolderMaker, localPath, writeError, writeLink, writeWhole, type EntryError } from '../transfer/local-write.ts';
import { fileFolderClashes, foldClashes, probeFolding } from '../transfer/local-names.ts';
import { lineFor, report, summarize, type Row } from '../transfer/report.ts';
import { mediaTypeOf, runUpload } from './upload-run.ts';
import { runDownload } from './download-run.ts';

/** A link file (--links) is a path, a few hundred bytes at most; anything larger is an ordinary file of that name. */
const LINK_FILE_MAX = 4096;

interface Options {
  existing: Existing;
  keep: (rel: string) => boolean;
  dryRun: boolean;
  mirror: boolean;
  links: LinkPolicy;
  verbose: boolean;
}

const pt = () => lang() === 'pt-BR';

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

function conflictError(row: Row): EntryError {
  const p = pt();
  if (row.decision === 'ambiguous') {
    return {
      code: 'ambiguous_path',
      message: p ? `vários arquivos se chamam "${row.name}"` : `several files are named "${row.name}"`,
      resolution: p ? 'Remova as cópias a mais (siglata ls) e repita.' : 'Remove the extra copies (siglata ls) and run again.',
    };
  }
  return {
    code: 'exists',
    message: p ? `"${row.name}" já existe com outro conteúdo` : `"${row.name}" already exists with other content`,
    resolution: p ? 'Use --overwrite para substituir ou --skip-existing para manter.' : 'Pass --overwrite to replace it or --skip-existing to keep it.',
  };
}

/** The source is missing (a local path) or names no file (a remote path): nothing to copy is an error, as in rclone. */
function sourceMissing(what: string, detail: string): CliError {
  const p = pt();
  return new CliError('source_not_found', p ? `${what}: ${detail}` : `${what}: ${detail}`, {
    resolution: what.startsWith(REMOTE)
      ? p
        ? 'Confira o caminho com `siglata ls --prefix …`; nomes diferenciam maiúsculas.'
        : 'Check the path with `siglata ls --prefix …`; names are case-sensitive.'
      : p
        ? 'Confira o caminho local (e as permissões).'
        : 'Check the local path (and its permissions).',
  });
}

function missingDetail(code: string): string {
  const p = pt();
  if (code === 'ENOENT' || code === 'ENOTDIR') return p ? 'não existe' : 'no such file or folder';
  if (code === 'EACCES' || code === 'EPERM') return p ? 'sem permissão de leitura' : 'permission denied';
  if (code === 'ENOTFILE') return p ? 'não é um arquivo comum nem uma pasta' : 'neither a regular file nor a folder';
  return code;
}

/** The rows for what a local walk left out: links (skipped, reported) and entries it could not read (failed). */
function skippedRows(tree: LocalTree, keep: (rel: string) => boolean, nameOf: (rel: string) => string): Row[] {
  const p = pt();
  return tree.skipped
    .filter((s) => keep(s.rel))
    .map((s): Row => {
      const row: Row = { path: s.abs, name: nameOf(s.rel), bytes: 0, decision: s.code === 'link' || s.code === 'special_file' ? 'skip-link' : 'refused' };
      if (s.target !== undefined) row.target = s.target;
      if (s.code === 'special_file') row.decision = 'refused';
      if (row.decision === 'refused') {
        const messages: Record<string, [string, string]> = {
          broken_link: [`the link points at nothing (${s.target})`, `o link não aponta para nada (${s.target})`],
          link_loop: [`the link leads back into a folder being copied (${s.target})`, `o link leva de volta a uma pasta sendo copiada (${s.target})`],
          unreadable: [`cannot read: ${s.detail ?? '?'}`, `não foi possível ler: ${s.detail ?? '?'}`],
          special_file: ['not a regular file (a socket, pipe or device)', 'não é um arquivo comum (socket, pipe ou dispositivo)'],
        };
        const [en, ptText] = messages[s.code] ?? [s.code, s.code];
        row.error = { code: s.code, message: p ? ptText : en };
      }
      return row;
    });
}

async function upload(ctx: CommandContext, api: Api, localArg: string, destination: string, o: Options): Promise<Row[]> {
  const root = resolve(localArg);
  const tree = await walkLocal(root, o.links).catch((err) => {
    if (err instanceof RootMissing) throw sourceMissing(localArg, missingDetail(err.code));
    throw err;
  });
  const prefix = folderOf(remotePath(destination));
  const nameOf = (rel: string) => `${prefix}${rel.normalize('NFC')}`;
  const files = tree.files.filter((f) => o.keep(f.rel));
  const listing = await listRemote(api, remotePath(destination), false);
  const byName = Map.groupBy(listing.files, (r) => r.name);
  const rows: (Row & { local?: LocalFile; replaceId?: string })[] = skippedRows(tree, o.keep, nameOf);
  // Two local spellings of one name (NFC and NFD, as a copy from macOS leaves them) are one name on the service.
  const taken = new Map<string, string>();
  for (const f of files) {
    const name = nameOf(f.rel);
    const earlier = taken.get(name);
    if (earlier !== undefined) {
      rows.push({
        path: f.abs,
        name,
        bytes: f.size,
        decision: 'refused',
        error: {
          code: 'name_clash',
          message: pt()
            ? `"${f.rel}" e "${earlier}" são o mesmo nome no serviço (Unicode NFC)`
            : `"${f.rel}" and "${earlier}" are the same name on the service (Unicode NFC)`,
          resolution: pt()
            ? 'Renomeie um dos dois localmente, ou deixe um de fora com --exclude.'
            : 'Rename one of them locally, or leave one out with --exclude.',
        },
      });
      continue;
    }
    taken.set(name, f.rel);
    const others = byName.get(name) ?? [];
    const decision = await decide(
      f.size,
      () => crcOfFile(f.abs, f.linkTarget),
      others.map((r) => ({ size: r.size, crc32: r.crc32 })),
      o.existing,
    );
    rows.push({ path: f.abs, name, bytes: f.size, decision, local: f, replaceId: decision === 'replace' ? others[0].fileId : undefined });
  }
  // sync --delete: what the folder holds beyond the local tree (filters apply, so excluded names stay).
  const extra: Row[] = o.mirror
    ? listing.files
        .filter((r) => {
          const rel = r.name.slice(prefix.length);
          return rel !== '' && o.keep(rel) && !taken.has(r.name);
        })
        .map((r) => ({ path: r.name, name: r.name, bytes: r.size, decision: 'trash' as const, fileId: r.fileId }))
    : [];
  if (o.dryRun) return [...rows, ...extra];
  const todo = rows.filter((r) => (r.decision === 'new' || r.decision === 'replace') && !r.error);
  const bar = progress(
    todo.reduce((s, r) => s + r.bytes, 0),
    0,
    { tty: ctx.io.stderrIsTTY, write: ctx.io.err, label: pt() ? 'arquivos' : 'files', files: todo.length },
  );
  const small = todo.filter((r) => r.bytes <= SMALL_FILE_MAX);
  const items: (WriteItem & { row: Row })[] = [];
  for (const r of small) {
    try {
      const data = r.local?.linkTarget !== undefined ? Buffer.from(r.local.linkTarget) : await readFile(r.path);
      items.push({ row: r, name: r.name, mediaType: mediaTypeOf(r.path), data, replace: r.replaceId });
    } catch (err) {
      r.error = { code: 'file_unreadable', message: `${pt() ? 'não foi possível ler' : 'cannot read'}: ${(err as NodeJS.ErrnoException).code ?? err}` };
      bar.fileDone(r.bytes, lineFor(r, o.verbose));
    }
  }
  for (const group of writeGroups(items)) {
    if (ctx.interrupt.signal.aborted) throw ctx.interrupt.signal.reason;
    const outcomes = await writeBatch(api, group);
    group.forEach((item, i) => {
      const row = (item as WriteItem & { row: Row }).row;
      const out = outcomes[i];
      row.requests = 1 / group.length;
      if (out.ok) {
        row.done = true;
        row.fileId = out.fileId;
      } else row.error = { code: out.code ?? 'error', message: out.message ?? '', resolution: out.resolution };
      bar.fileDone(row.bytes, lineFor(row, o.verbose));
    });
  }
  for (const row of todo.filter((r) => r.bytes > SMALL_FILE_MAX && !r.error)) {
    await oneLarge(ctx, api, row, bar, o.verbose, async (sub, captured) => {
      await runUpload(sub, { name: row.name }, [row.path]);
      row.fileId = captured()?.fileId;
      const replaceId = (row as { replaceId?: string }).replaceId;
      if (replaceId)
        await api.json(`/app/v1/execute`, { json: { mode: 'run', script: `return await files_trash(${JSON.stringify({ fileId: replaceId })});` } });
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
    const byId = new Map(outcomes.map((x) => [x.id, x]));
    for (const row of extra) {
      const x = byId.get(row.fileId!);
      if (x?.ok) row.done = true;
      else row.error = { code: x?.error?.code ?? 'error', message: x?.error?.message ?? '', resolution: x?.error?.resolution };
      row.requests = (api.requests - before) / extra.length;
      bar.line(lineFor(row, o.verbose));
    }
  }
  bar.done();
  return [...rows, ...extra];
}

/** What the destination folder already holds, by NFC name (a copy from macOS may have left NFD names). */
async function localIndex(root: string, links: LinkPolicy): Promise<{ tree: LocalTree | null; byName: Map<string, LocalFile> }> {
  const st = await stat(root).catch(() => null);
  if (!st) return { tree: null, byName: new Map() };
  if (!st.isDirectory()) {
    throw new CliError('not_a_folder', pt() ? `${root}: não é uma pasta` : `${root}: not a folder`, {
      resolution: pt()
        ? 'Copie para uma pasta (o destino de cp/sync é sempre uma pasta).'
        : 'Copy into a folder (the destination of cp/sync is always a folder).',
    });
  }
  const tree = await walkLocal(root, links === 'follow' ? 'follow' : links);
  return { tree, byName: new Map(tree.files.map((f) => [f.rel.normalize('NFC'), f])) };
}

async function download(ctx: CommandContext, api: Api, source: string, localArg: string, o: Options): Promise<Row[]> {
  const root = resolve(localArg);
  const path = remotePath(source);
  const listing = await listRemote(api, path, true);
  // `remote:dir/a.txt` names one file (copied into the folder under its base name); otherwise a folder.
  const single = listing.files.length === 0 && listing.exact !== null;
  if (!single && listing.files.length === 0)
    throw sourceMissing(source, pt() ? 'nenhum arquivo com este nome ou nesta pasta' : 'no file of this name or in this folder');
  const prefix = single ? path.slice(0, path.lastIndexOf('/') + 1) : folderOf(path);
  const remote = single ? [listing.exact!] : listing.files;
  const here = await localIndex(root, o.links);
  // A dry run only looks (at files already there); a real one may write a probe file.
  const folding = await probeFolding(root, { samples: here.tree?.files ?? [], write: !o.dryRun });

  // What each remote name becomes locally; links (--links) lose their suffix and become links.
  const entries = [...Map.groupBy(remote, (r) => r.name)]
    .map(([name, copies]) => {
      const rel = name.slice(prefix.length);
      const link = o.links === 'translate' && rel.endsWith(LINK_SUFFIX) && copies[0].size <= LINK_FILE_MAX && rel !== LINK_SUFFIX;
      return { name, rel, copies, link, localRel: link ? rel.slice(0, -LINK_SUFFIX.length) : rel };
    })
    .filter((e) => e.rel !== '' && o.keep(e.rel));
  const folderClash = fileFolderClashes(
    entries.map((e) => e.localRel),
    folding,
  );
  const foldClash = foldClashes(
    entries.map((e) => e.localRel),
    folding,
  );

  const rows: (Row & { remote: RemoteFile; link: boolean })[] = [];
  for (const e of entries) {
    const first = e.copies[0];
    const local = here.byName.get(e.rel);
    // An existing file keeps its local spelling (NFD stays NFD); a link goes where the link file's name says.
    const target = localPath(root, local && !e.link ? local.rel : e.localRel);
    const row: Row & { remote: RemoteFile; link: boolean } = {
      path: target ?? e.localRel,
      name: e.name,
      bytes: first.size,
      decision: 'new',
      remote: first,
      fileId: first.fileId,
      link: e.link,
    };
    const clash = folderClash.get(e.localRel);
    const twin = foldClash.get(e.localRel);
    if (target === null) {
      row.decision = 'refused';
      row.error = { code: 'invalid_local_name', message: pt() ? 'o nome sairia da pasta de destino' : 'the name would leave the destination folder' };
    } else if (clash !== undefined) {
      row.decision = 'refused';
      row.error = {
        code: 'path_conflict',
        message: pt()
          ? `"${e.localRel}" é um arquivo e também a pasta de "${clash}"; uma pasta local não pode ser as duas coisas`
          : `"${e.localRel}" is a file and also the folder of "${clash}"; a local folder cannot be both`,
        resolution: pt()
          ? 'Os arquivos dentro da pasta foram copiados; renomeie este no serviço para copiá-lo também.'
          : 'The files inside the folder were copied; rename this one on the service to copy it too.',
      };
    } else if (twin !== undefined) {
      row.decision = 'refused';
      row.error = {
        code: 'case_conflict',
        message: pt()
          ? `o sistema de arquivos local não distingue "${e.localRel}" de "${twin}"`
          : `the local file system does not tell "${e.localRel}" from "${twin}"`,
        resolution: pt()
          ? 'Copie para um sistema de arquivos que distinga maiúsculas, ou renomeie um dos dois no serviço.'
          : 'Copy to a case-sensitive file system, or rename one of them on the service.',
      };
    } else if (e.copies.length > 1) row.decision = 'ambiguous';
    else {
      const mine = local ? [{ size: local.size, crc32: await crcOfFile(local.abs, local.linkTarget) }] : [];
      row.decision = await decide(first.size, async () => first.crc32 ?? '', mine, o.existing);
    }
    rows.push(row);
  }
  // sync --delete: local files under the folder that no remote name maps to (filters apply; a missing folder has none).
  const remoteRels = new Set(entries.map((e) => e.rel));
  const extra: Row[] =
    o.mirror && here.tree
      ? here.tree.files
          .filter((f) => o.keep(f.rel) && !remoteRels.has(f.rel.normalize('NFC')))
          .map((f) => ({ path: f.abs, name: f.rel, bytes: f.size, decision: 'delete' as const }))
      : [];
  if (o.dryRun) return [...rows, ...extra];

  const todo = rows.filter((r) => (r.decision === 'new' || r.decision === 'replace') && !r.error);
  const bar = progress(
    todo.reduce((s, r) => s + r.bytes, 0),
    0,
    { tty: ctx.io.stderrIsTTY, write: ctx.io.err, label: pt() ? 'arquivos' : 'files', files: todo.length },
  );
  const folders = new FolderMaker(root, { throughLinks: o.links !== 'translate' });
  const links: { row: Row; target: string }[] = [];
  for (const group of readGroups(todo.filter((r) => r.bytes <= SMALL_FILE_MAX).map((r) => ({ ...r.remote, byteLength: r.remote.size, row: r })))) {
    if (ctx.interrupt.signal.aborted) throw ctx.interrupt.signal.reason;
    const outcomes = await readBatch(
      api,
      group.map((g) => g.fileId),
    );
    for (const [i, g] of group.entries()) {
      const out = outcomes[i];
      const row = g.row;
      row.requests = 1 / group.length;
      if (out.ok && typeof out.base64 === 'string') {
        const data = Buffer.from(out.base64, 'base64');
        if (data.length !== row.bytes || (out.crc32 && crc32(data).toString(16).padStart(8, '0') !== out.crc32)) {
          row.error = { code: 'digest_mismatch', message: pt() ? 'o conteúdo recebido não confere' : 'the content received does not check out' };
        } else if (g.row.link) {
          // Links are made after every file, so no file of this copy is ever written through one.
          links.push({ row, target: data.toString('utf8') });
          continue;
        } else {
          try {
            await writeWhole(folders, row.path, data, { mtimeMs: null, executable: false });
            row.done = true;
          } catch (err) {
            row.error = writeError(row.name, err);
          }
        }
      } else row.error = { code: out.code ?? 'error', message: out.message ?? '', resolution: out.resolution };
      bar.fileDone(row.bytes, lineFor(row, o.verbose));
    }
  }
  for (const row of todo.filter((r) => r.bytes > SMALL_FILE_MAX)) {
    await oneLarge(ctx, api, row, bar, o.verbose, async (sub) => {
      try {
        await folders.ensure(resolve(row.path, '..'));
      } catch (err) {
        throw new CliError(writeError(row.name, err).code, writeError(row.name, err).message, { resolution: writeError(row.name, err).resolution });
      }
      await runDownload(sub, { output: row.path }, [row.fileId!]);
    });
  }
  for (const { row, target } of links) {
    try {
      await writeLink(folders, row.path, target);
      row.done = true;
    } catch (err) {
      row.error = writeError(row.name, err);
    }
    bar.fileDone(row.bytes, lineFor(row, o.verbose));
  }
  for (const row of extra) {
    try {
      await rm(row.path);
      row.done = true;
    } catch (err) {
      row.error = { code: 'file_unwritable', message: `${row.path}: ${(err as NodeJS.ErrnoException).code ?? err}` };
    }
    row.requests = 0;
    bar.line(lineFor(row, o.verbose));
  }
  bar.done();
  return [...rows, ...extra];
}

/** The body of `cp` (`defaultExisting` 'fail') and `sync` ('overwrite'). */
export function transferRun(name: 'cp' | 'sync', defaultExisting: Existing): Command['run'] {
  return async (ctx, values, [source, destination]) => {
    const remoteSrc = source.startsWith(REMOTE);
    const remoteDst = destination.startsWith(REMOTE);
    if (remoteSrc === remoteDst) throw usageError(`${name}: exactly one side must be remote:PATH (e.g. siglata ${name} ./dir remote:dir/)`);
    if (values.overwrite && values['skip-existing']) throw usageError('--overwrite and --skip-existing exclude each other');
    if (values.links && values['copy-links']) throw usageError('--links and --copy-links exclude each other');
    const list = (v: unknown) => (Array.isArray(v) ? v.map(String) : v === undefined ? [] : [String(v)]);
    const options: Options = {
      existing: values.overwrite ? 'overwrite' : values['skip-existing'] ? 'skip' : defaultExisting,
      keep: filter(list(values.include), list(values.exclude)),
      dryRun: Boolean(values['dry-run']),
      mirror: Boolean(values.delete),
      links: values['copy-links'] ? 'follow' : values.links ? 'translate' : 'skip',
      verbose: Boolean(values.verbose),
    };
    const api = await ctx.api();
    const started = Date.now();
    const rows = remoteDst ? await upload(ctx, api, source, destination, options) : await download(ctx, api, source, destination, options);
    for (const r of rows) if (!r.error && (r.decision === 'exists' || r.decision === 'ambiguous')) r.error = conflictError(r);
    const summary = summarize(rows, options.dryRun, api.requests, started);
    report(ctx, rows, summary, options.mirror);
    return summary.failed ? 1 : 0;
  };
}
