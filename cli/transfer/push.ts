// cp / sync from a local folder (or file) up to remote:PATH. One request lists the destination; files are judged as
// rclone judges them; the small ones go up many to a tar (one reservation, its 8 MiB parts, one import that replaces
// what each path held and reports every entry), big ones on their own in resumable parts; times only differing are
// set without sending content; sync --delete moves what the source lacks to the trash, after the copies.
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { createHash } from 'node:crypto';
import { CliError } from '../errors.ts';
import type { CommandContext } from '../context.ts';
import type { Api } from '../http.ts';
import { progress, type Progress } from '../progress.ts';
import { callBinding, callMany } from '../service.ts';
import { runUpload, sendPart } from '../commands/upload-run.ts';
import { archiveChunks, packArchive, type PackItem } from './archive-pack.ts';
import { BIG_FILE, isoOf, missingDetail, oneLarge, skippedRows, sourceMissing, type Options } from './common.ts';
import { say } from './messages.ts';
import { crcOfFile, decide } from './plan.ts';
import { RootMissing, walkLocal, type LocalFile } from './local-tree.ts';
import { folderOf, listRemote, remotePath, type RemoteFile } from './remote-tree.ts';
import { lineFor, type Row } from './report.ts';

type UpRow = Row & { local?: LocalFile; remote?: RemoteFile; touch?: boolean };

/** Parts of one archive in flight at once. */
const PARALLEL_PARTS = 4;

interface ImportEntry {
  path: string;
  status: 'created' | 'replaced' | 'unchanged' | 'refused';
  fileId: string | null;
  code: string | null;
  message: string | null;
}

/** One archive up: reserve, send its parts, import it; each row gets its entry's outcome. */
async function sendArchive(ctx: CommandContext, api: Api, rows: UpRow[], bar: Progress, o: Options): Promise<void> {
  const before = api.requests;
  const byName = new Map(rows.map((r) => [r.name, r]));
  const items: PackItem[] = rows.map((r) => ({
    name: r.name,
    size: r.bytes,
    mtimeMs: r.local!.mtimeMs,
    executable: r.local!.executable,
    read: () => (r.local!.linkTarget !== undefined ? Promise.resolve(Buffer.from(r.local!.linkTarget)) : readFile(r.path)),
  }));
  const { archive, failed } = await packArchive(items);
  for (const f of failed) {
    const row = byName.get(f.item.name)!;
    row.error = { code: 'file_unreadable', message: say('unreadable', { detail: String((f.error as NodeJS.ErrnoException).code ?? f.error) }) };
    bar.fileDone(row.bytes, lineFor(row, o.verbose));
  }
  const sent = rows.filter((r) => !r.error);
  if (!sent.length) return;
  let credited = 0;
  const fail = (err: unknown) => {
    if (ctx.interrupt.signal.aborted) throw err;
    const e = err instanceof CliError ? err : new CliError('error', String(err));
    bar.add(sent.reduce((s, r) => s + r.bytes, 0) - credited);
    for (const row of sent) {
      row.error = { code: e.code, message: e.message, resolution: e.resolution };
      bar.fileDone(0, lineFor(row, o.verbose));
    }
  };
  let reservation: { uploadId: string; partSize: number; partCount: number; partUrl: string };
  try {
    // The name is only the reservation's: the import consumes it, and the entries take their own paths.
    const tag = createHash('sha256').update(archive.subarray(0, 4096)).digest('hex').slice(0, 12);
    reservation = await callBinding(api, 'upload_begin', { name: `siglata-import-${tag}.tar`, mediaType: 'application/x-tar', size: archive.length });
  } catch (err) {
    return fail(err);
  }
  const signal = ctx.interrupt.signal;
  const queue = Array.from({ length: reservation.partCount }, (_, i) => i + 1);
  // The bar counts the files' bytes: each part credits its share of them, the import's answer the rest.
  const contentBytes = sent.reduce((s, r) => s + r.bytes, 0);
  let archived = 0;
  const credit = (upTo: number) => {
    bar.add(upTo - credited);
    credited = upTo;
  };
  const worker = async () => {
    for (let n = queue.shift(); n !== undefined; n = queue.shift()) {
      if (signal.aborted) return;
      const part = archive.subarray((n - 1) * reservation.partSize, Math.min(archive.length, n * reservation.partSize));
      await sendPart(api, reservation, n, part, signal);
      archived += part.length;
      credit(Math.floor((contentBytes * archived) / archive.length));
    }
  };
  try {
    await Promise.all(Array.from({ length: Math.min(PARALLEL_PARTS, queue.length) }, worker));
    if (signal.aborted) throw signal.reason;
    const result = (await api.json('/app/v1/files/import', { json: { uploadId: reservation.uploadId, format: 'tar', onError: 'skip' } })).body as {
      entries?: ImportEntry[];
    };
    const entries = new Map((result?.entries ?? []).map((e) => [e.path.normalize('NFC'), e]));
    const share = (api.requests - before) / sent.length;
    credit(contentBytes);
    for (const row of sent) {
      const e = entries.get(row.name);
      row.requests = share;
      if (e && e.status !== 'refused') {
        row.done = true;
        row.fileId = e.fileId ?? undefined;
      } else row.error = e ? { code: e.code ?? 'refused', message: e.message ?? '' } : { code: 'unknown_outcome', message: say('notReported') };
      bar.fileDone(0, lineFor(row, o.verbose));
    }
  } catch (err) {
    await callBinding(api, 'upload_abort', { uploadId: reservation.uploadId }).catch(() => null);
    fail(err);
  }
}

export async function push(ctx: CommandContext, api: Api, localArg: string, destination: string, o: Options): Promise<Row[]> {
  const root = resolve(localArg);
  const tree = await walkLocal(root, o.links).catch((err) => {
    if (err instanceof RootMissing) throw sourceMissing(localArg, missingDetail(err.code));
    throw err;
  });
  const prefix = folderOf(remotePath(destination));
  const nameOf = (rel: string) => `${prefix}${rel.normalize('NFC')}`;
  const files = tree.files.filter((f) => o.keep(f.rel));
  const listing = await listRemote(api, remotePath(destination), false);
  // One active file per path: a name finds at most one.
  const byName = new Map(listing.files.map((r) => [r.name, r]));
  const rows: UpRow[] = skippedRows(tree, o.keep, nameOf);
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
        error: { code: 'name_clash', message: say('nameClash', { rel: f.rel, earlier }), resolution: say('nameClashHelp') },
      });
      continue;
    }
    taken.set(name, f.rel);
    const remote = byName.get(name);
    const verdict = await decide(
      { size: f.size, mtimeMs: f.mtimeMs, crc32: () => crcOfFile(f.abs, f.linkTarget) },
      remote ? { size: remote.size, mtimeMs: remote.mtimeMs, crc32: async () => remote.crc32 } : null,
      o.comparison,
      o.existing,
    );
    rows.push({ path: f.abs, name, bytes: f.size, decision: verdict.decision, local: f, remote, touch: verdict.touch });
  }
  // sync --delete: what the folder holds beyond the local tree (filters apply, so excluded names stay).
  const extra: UpRow[] = o.mirror
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
    { tty: ctx.io.stderrIsTTY, write: ctx.io.err, label: say('files'), files: todo.length },
  );
  for (const chunk of archiveChunks(
    todo.filter((r) => r.bytes <= BIG_FILE),
    (r) => r.bytes,
  )) {
    if (ctx.interrupt.signal.aborted) throw ctx.interrupt.signal.reason;
    await sendArchive(ctx, api, chunk, bar, o);
  }
  for (const row of todo.filter((r) => r.bytes > BIG_FILE)) {
    await oneLarge(ctx, api, row, bar, o.verbose, async (sub, captured) => {
      await runUpload(sub, { name: row.name }, [row.path]);
      row.fileId = captured()?.fileId;
    });
  }
  // Same content, other time: the time is set, nothing is sent. Deletions come last (rclone's --delete-after), so an
  // interrupted run never loses a file it had not copied.
  const touches = rows.filter((r) => r.touch && r.remote);
  const calls = [
    ...touches.map((r) => ({ binding: 'files_update', input: { fileId: r.remote!.fileId, modifiedAt: isoOf(r.local!.mtimeMs) } })),
    ...extra.map((r) => ({ binding: 'files_trash', input: { fileId: r.fileId } })),
  ];
  if (calls.length) {
    const before = api.requests;
    const outcomes = await callMany(api, calls);
    const share = (api.requests - before) / calls.length;
    [...touches, ...extra].forEach((row, i) => {
      const x = outcomes[i];
      if (row.decision === 'trash') {
        if (x.ok) row.done = true;
        else row.error = x.error ?? { code: 'error', message: '' };
        row.requests = share;
        bar.line(lineFor(row, o.verbose));
      } else if (!x.ok) row.error = x.error ?? { code: 'error', message: '' };
    });
  }
  bar.done();
  return [...rows, ...extra];
}
