// cp / sync from remote:PATH down to a local folder. One request lists the source; the local folder is read and asked
// what names it folds; files are judged as rclone judges them; the small ones come down as one tar per export (an
// export request and its download), unpacked while they stream, big ones on their own with resume; times only
// differing are set locally; links (--links) are made after every file; sync --delete removes what the source lacks.
import { rm, stat, utimes } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { CliError } from '../errors.ts';
import type { CommandContext } from '../context.ts';
import type { Api } from '../http.ts';
import { progress } from '../progress.ts';
import { runDownload } from '../commands/download-run.ts';
import { extractArchive, type Wanted } from './archive-extract.ts';
import { BIG_FILE, oneLarge, sourceMissing, type Options } from './common.ts';
import { say } from './messages.ts';
import { crcOfFile, decide } from './plan.ts';
import { LINK_SUFFIX, walkLocal, type LocalFile, type LocalTree } from './local-tree.ts';
import { FolderMaker, localPath, writeError, writeLink } from './local-write.ts';
import { fileFolderClashes, foldClashes, probeFolding } from './local-names.ts';
import { folderOf, listRemote, remotePath, type RemoteFile } from './remote-tree.ts';
import { lineFor, type Row } from './report.ts';

/** A link file (--links) is a path, a few hundred bytes at most; anything larger is an ordinary file of that name. */
const LINK_FILE_MAX = 4096;
/** File ids per export request: inside the JSON body limit, and well inside an export's 10,000 files. */
const IDS_PER_EXPORT = 5_000;

type DownRow = Row & { remote: RemoteFile; link: boolean; local?: LocalFile; touch?: boolean };

/** What the destination folder already holds, by NFC name (a copy from macOS may have left NFD names). */
async function localIndex(root: string, o: Options): Promise<{ tree: LocalTree | null; byName: Map<string, LocalFile> }> {
  const st = await stat(root).catch(() => null);
  if (!st) return { tree: null, byName: new Map() };
  if (!st.isDirectory()) {
    throw new CliError('not_a_folder', say('notAFolder', { path: root }), { resolution: say('notAFolderHelp') });
  }
  const tree = await walkLocal(root, o.links);
  return { tree, byName: new Map(tree.files.map((f) => [f.rel.normalize('NFC'), f])) };
}

function refusal(code: string, message: string, resolution?: string) {
  return { code, message, ...(resolution ? { resolution } : {}) };
}

export async function pull(ctx: CommandContext, api: Api, source: string, localArg: string, o: Options): Promise<Row[]> {
  const root = resolve(localArg);
  const path = remotePath(source);
  const listing = await listRemote(api, path, true);
  // `remote:dir/a.txt` names one file (copied into the folder under its base name); otherwise a folder.
  const single = listing.files.length === 0 && listing.exact !== null;
  if (!single && listing.files.length === 0) throw sourceMissing(source, say('noRemoteSource'));
  const prefix = single ? path.slice(0, path.lastIndexOf('/') + 1) : folderOf(path);
  const remote = single ? [listing.exact!] : listing.files;
  const here = await localIndex(root, o);
  // A dry run only looks (at files already there); a real one may write a probe file.
  const folding = await probeFolding(root, { samples: here.tree?.files ?? [], write: !o.dryRun });

  // What each remote name becomes locally; link files (--links) lose their suffix and become links.
  const entries = remote
    .map((file) => {
      const rel = file.name.slice(prefix.length);
      const link = o.links === 'translate' && rel.endsWith(LINK_SUFFIX) && rel !== LINK_SUFFIX && file.size <= LINK_FILE_MAX;
      return { name: file.name, rel, file, link, localRel: link ? rel.slice(0, -LINK_SUFFIX.length) : rel };
    })
    .filter((e) => e.rel !== '' && o.keep(e.rel));
  const localRels = entries.map((e) => e.localRel);
  const folderClash = fileFolderClashes(localRels, folding);
  const foldClash = foldClashes(localRels, folding);

  const rows: DownRow[] = [];
  for (const e of entries) {
    const first = e.file;
    const local = here.byName.get(e.rel);
    // An existing file keeps its local spelling (NFD stays NFD); a link goes where the link file's name says.
    const target = localPath(root, local && !e.link ? local.rel : e.localRel);
    const row: DownRow = {
      path: target ?? e.localRel,
      name: e.name,
      bytes: first.size,
      decision: 'new',
      remote: first,
      fileId: first.fileId,
      link: e.link,
      local,
    };
    const clash = folderClash.get(e.localRel);
    const twin = foldClash.get(e.localRel);
    if (target === null) {
      row.decision = 'refused';
      row.error = refusal('invalid_local_name', say('leavesFolder'));
    } else if (clash !== undefined) {
      row.decision = 'refused';
      row.error = refusal('path_conflict', say('fileAndFolder', { rel: e.localRel, inside: clash }), say('fileAndFolderHelp'));
    } else if (twin !== undefined) {
      row.decision = 'refused';
      row.error = refusal('case_conflict', say('caseTwins', { rel: e.localRel, twin }), say('caseTwinsHelp'));
    } else {
      const verdict = await decide(
        { size: first.size, mtimeMs: first.mtimeMs, crc32: async () => first.crc32 },
        local ? { size: local.size, mtimeMs: local.mtimeMs, crc32: () => crcOfFile(local.abs, local.linkTarget) } : null,
        o.comparison,
        o.existing,
      );
      row.decision = verdict.decision;
      row.touch = verdict.touch && !e.link;
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
    { tty: ctx.io.stderrIsTTY, write: ctx.io.err, label: say('files'), files: todo.length },
  );
  const folders = new FolderMaker(root, { throughLinks: o.links !== 'translate' });
  const links: { row: DownRow; target: string }[] = [];
  const small = todo.filter((r) => r.bytes <= BIG_FILE);
  // The whole folder, fresh: one export of the folder; otherwise exports of the files wanted, by id.
  const wholeFolder = !single && small.length === remote.length;
  for (let i = 0; i < small.length; i += IDS_PER_EXPORT) {
    if (ctx.interrupt.signal.aborted) throw ctx.interrupt.signal.reason;
    const group = small.slice(i, i + IDS_PER_EXPORT);
    const byRel = new Map(group.map((r) => [r.name.slice(prefix.length), r]));
    const before = api.requests;
    try {
      const body = wholeFolder ? { prefix } : { fileIds: group.map((r) => r.fileId), ...(prefix ? { prefix } : {}) };
      const exported = (await api.json<{ downloadUrl: string }>('/app/v1/files/export', { json: { ...body, format: 'tar' } })).body;
      const res = await api.raw(exported.downloadUrl, { signal: ctx.interrupt.signal });
      await extractArchive(
        res.body,
        folders,
        (name): Wanted | undefined => {
          const row = byRel.get(name.normalize('NFC'));
          if (!row || row.done || row.error) return undefined;
          return { path: row.path, name: row.name, size: row.bytes, crc32: row.remote.crc32, executable: row.remote.executable, keepInMemory: row.link };
        },
        (wanted, outcome) => {
          const row = byRel.get(wanted.name.slice(prefix.length))!;
          if (!outcome.ok) row.error = outcome.error;
          else if (row.link) {
            // Links are made after every file, so no file of this copy is ever written through one.
            links.push({ row, target: outcome.data!.toString('utf8') });
            return;
          } else row.done = true;
          bar.fileDone(row.bytes, lineFor(row, o.verbose));
        },
        ctx.interrupt.signal,
      );
    } catch (err) {
      if (ctx.interrupt.signal.aborted) throw err;
      const e = err instanceof CliError ? err : new CliError('network_error', String((err as Error)?.message ?? err));
      for (const row of group)
        if (!row.done && !row.error && !links.some((l) => l.row === row)) row.error = { code: e.code, message: e.message, resolution: e.resolution };
    }
    const share = (api.requests - before) / group.length;
    for (const row of group) {
      row.requests = share;
      if (!row.done && !row.error && !links.some((l) => l.row === row)) {
        row.error = refusal('unknown_outcome', say('notInArchive'));
        bar.fileDone(row.bytes, lineFor(row, o.verbose));
      }
    }
  }
  for (const row of todo.filter((r) => r.bytes > BIG_FILE)) {
    await oneLarge(ctx, api, row, bar, o.verbose, async (sub) => {
      try {
        await folders.ensure(dirname(row.path));
      } catch (err) {
        const e = writeError(row.name, err);
        throw new CliError(e.code, e.message, { resolution: e.resolution });
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
  // Same content, other time: the local time is set, nothing is fetched.
  for (const row of rows.filter((r) => r.touch && r.local && r.remote.mtimeMs !== null)) {
    try {
      await utimes(row.local!.abs, new Date(row.remote.mtimeMs!), new Date(row.remote.mtimeMs!));
    } catch (err) {
      row.error = writeError(row.name, err);
    }
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
