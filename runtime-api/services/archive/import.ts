// files_import: an upload read as an archive and written as many files, all or nothing (onError "abort") or every
// entry that can be (onError "skip", the others reported). In order:
//   1. the upload moves open → importing (its parts frozen, its bytes still counted against the quota);
//   2. the archive's headers are read and every entry gets its path or its refusal (plan.ts); whole-archive limits
//      (entries, expanded bytes, ratio) refuse the import; with "abort" so does any refused entry;
//   3. the quota is checked against the expanded total, before anything is written;
//   4. each entry's body is staged under a blob key no row points at (stage.ts);
//   5. one transaction re-checks the quota and the file/folder rule, marks the upload imported and writes every
//      entry through writeFileAtPath.
// A failure anywhere before 5 commits leaves the catalogue untouched: staged bytes are deleted (or, if the process
// died, deleted by the orphan janitor), and the upload is open again (the janitor reopens one whose import died), so
// the same upload can be imported again, e.g. with onError "skip", or aborted.
import type { HandlerContext } from '../../define.ts';
import type { Locale } from '../../errors.ts';
import { newId } from '../../ids.ts';
import type { ArchiveFormat } from '../../store/exports.ts';
import { inTransaction, isOuterTransaction } from '../../store/files.ts';
import { findUpload, listParts, touchImport, transitionUpload, type UploadRow } from '../../store/uploads.ts';
import { type PathWriteStatus, writeFileAtPath } from '../files.ts';
import { uploadIncomplete, uploadMoved } from '../files-messages.ts';
import { assertQuota } from '../quota.ts';
import { assertOpen, dropStaging, missingParts } from '../uploads.ts';
import { type ArchiveReader, EntryDataError } from './entries.ts';
import { mediaTypeForPath } from './media-types.ts';
import { entriesRefused, entryTexts, invalidInto } from './messages.ts';
import { openArchive } from './open.ts';
import { type EntryCode, intoFolder } from './paths.ts';
import { type PlannedEntry, planEntries, refuseCatalogueClashes } from './plan.ts';
import { stageEntry } from './stage.ts';
import { uploadSource } from './source.ts';

export type EntryStatus = PathWriteStatus | 'refused';

export interface ImportEntryReport {
  path: string;
  status: EntryStatus;
  fileId: string | null;
  size: number;
  code: EntryCode | null;
  message: string | null;
}

export interface ImportResult {
  format: ArchiveFormat;
  created: number;
  replaced: number;
  unchanged: number;
  refused: number;
  bytes: number;
  entries: ImportEntryReport[];
}

export interface ImportRequest {
  uploadId: string;
  format?: ArchiveFormat;
  into?: string;
  onError: 'abort' | 'skip';
}

/** A running import says it is alive this often (the janitor reopens one silent for STUCK_IMPORT_MS). */
export const IMPORT_HEARTBEAT_MS = 60_000;

type Deps = Pick<HandlerContext, 'sql' | 'blobs' | 'clock' | 'config' | 'caller' | 'signal'>;

interface StagedEntry {
  planned: PlannedEntry;
  blobKey: string;
  size: number;
  sha256: string;
  crc32: string;
  outcome?: { status: PathWriteStatus; fileId: string };
}

function refusedOf(planned: readonly PlannedEntry[], locale: Locale) {
  return planned.filter((p) => p.refusal).map((p) => ({ path: p.path, code: p.refusal!.code, message: p.refusal!.message[locale] }));
}

/** Step 1: the upload, complete and open, becomes `importing`. */
async function takeUpload(deps: Deps, orgId: string, uploadId: string): Promise<UploadRow> {
  return inTransaction(deps.sql, async (tx) => {
    const now = deps.clock.now();
    const upload = assertOpen(await findUpload(tx, orgId, uploadId, 'update'), uploadId, now);
    const missing = missingParts(upload, await listParts(tx, uploadId));
    if (missing.length) throw uploadIncomplete(missing);
    const moved = await transitionUpload(tx, uploadId, ['open'], 'importing', now);
    if (!moved) throw uploadMoved(uploadId);
    return moved;
  });
}

export async function importArchive(deps: Deps, request: ImportRequest): Promise<ImportResult> {
  const { caller, config } = deps;
  const orgId = caller.membership!.orgId;
  const locale = caller.locale;
  const limits = config.archive;
  const into = intoFolder(request.into);
  if ('problem' in into) throw invalidInto(into.problem);
  const upload = await takeUpload(deps, orgId, request.uploadId);
  const staged: StagedEntry[] = [];
  // Inside a plan's apply the upload's state is not visible to the janitor until the commit: nothing to say.
  const heartbeat = isOuterTransaction(deps.sql)
    ? null
    : setInterval(() => void touchImport(deps.sql, upload.id, deps.clock.now()).catch(() => {}), IMPORT_HEARTBEAT_MS);
  heartbeat?.unref();
  let reader: ArchiveReader | null = null;
  let committed = false;
  try {
    // 2. Headers, limits and every entry's fate.
    reader = await openArchive(uploadSource(deps.blobs, upload), request.format, {
      maxEntries: limits.maxEntries,
      maxExpandedBytes: limits.maxExpandedBytes,
      maxRatio: limits.maxRatio,
    });
    const scanned = await reader.scan(deps.signal);
    const planned = planEntries(scanned, into.folder, limits);
    await refuseCatalogueClashes(deps.sql, orgId, planned);
    const abort = request.onError === 'abort';
    if (abort && planned.some((p) => p.refusal)) throw entriesRefused(refusedOf(planned, locale));
    const writes = planned.filter((p) => !p.refusal && p.entry.kind === 'file');
    const expanded = writes.reduce((n, p) => n + p.entry.size, 0);

    // 3. The quota, against everything the entries will add (the archive's own reservation is released then).
    await inTransaction(deps.sql, (tx) => assertQuota(tx, orgId, config.quotaBytes, deps.clock.now(), expanded, upload.byteLength));

    // 4. Every body, staged.
    const planOf = new Map(writes.map((p) => [p.entry, p]));
    await reader.extract(
      writes.map((p) => p.entry),
      async (entry, body, crc32) => {
        const p = planOf.get(entry)!;
        const blobKey = `${orgId}/${newId('blb')}`;
        try {
          const s = await stageEntry(deps.blobs, blobKey, body, { size: entry.size, crc32 }, mediaTypeForPath(p.path));
          staged.push({ planned: p, blobKey, ...s });
        } catch (err) {
          if (!(err instanceof EntryDataError)) throw err;
          await deps.blobs.delete(blobKey).catch(() => {});
          p.refusal = { code: 'corrupt_entry', message: entryTexts.corrupt(err.message) };
          if (abort) throw entriesRefused(refusedOf(planned, locale));
        }
      },
      deps.signal,
    );
    deps.signal?.throwIfAborted();

    // 5. One transaction: the quota and the file/folder rule again (others may have written meanwhile), then the rows.
    await inTransaction(deps.sql, async (tx) => {
      const now = deps.clock.now();
      await assertQuota(
        tx,
        orgId,
        config.quotaBytes,
        now,
        staged.reduce((n, s) => n + s.size, 0),
        upload.byteLength,
      );
      await refuseCatalogueClashes(
        tx,
        orgId,
        staged.map((s) => s.planned),
      );
      if (abort && staged.some((s) => s.planned.refusal)) throw entriesRefused(refusedOf(planned, locale));
      if (!(await transitionUpload(tx, upload.id, ['importing'], 'imported', now))) throw uploadMoved(upload.id);
      for (const s of staged) {
        if (s.planned.refusal) continue;
        const { file, status } = await writeFileAtPath(
          tx,
          { orgId, userId: caller.userId },
          {
            name: s.planned.path,
            mediaType: mediaTypeForPath(s.planned.path),
            blobKey: s.blobKey,
            size: s.size,
            sha256: s.sha256,
            crc32: s.crc32,
            modifiedAt: s.planned.entry.mtime,
            executable: s.planned.entry.executable,
          },
          now,
        );
        s.outcome = { status, fileId: file.id };
      }
    });
    committed = true;
    return report(reader.format, planned, staged, locale);
  } finally {
    if (heartbeat) clearInterval(heartbeat);
    reader?.close();
    // Bytes no row points at: every staged body after a failure; refused and unchanged ones after success.
    const unused = staged.filter((s) => !committed || !s.outcome || s.outcome.status === 'unchanged').map((s) => s.blobKey);
    await Promise.allSettled(unused.map((k) => deps.blobs.delete(k)));
    if (committed) await dropStaging(deps.sql, deps, upload.id);
    else await transitionUpload(deps.sql, upload.id, ['importing'], 'open', deps.clock.now()).catch(() => {});
  }
}

function report(format: ArchiveFormat, planned: readonly PlannedEntry[], staged: readonly StagedEntry[], locale: Locale): ImportResult {
  const byPlan = new Map(staged.map((s) => [s.planned, s]));
  const result: ImportResult = { format, created: 0, replaced: 0, unchanged: 0, refused: 0, bytes: 0, entries: [] };
  for (const p of planned) {
    if (!p.reported) continue;
    const s = byPlan.get(p);
    if (p.refusal || !s?.outcome) {
      result.refused++;
      const refusal = p.refusal ?? { code: 'corrupt_entry' as const, message: entryTexts.corrupt('not read') };
      result.entries.push({ path: p.path, status: 'refused', fileId: null, size: p.entry.size, code: refusal.code, message: refusal.message[locale] });
      continue;
    }
    result[s.outcome.status]++;
    result.bytes += s.size;
    result.entries.push({ path: p.path, status: s.outcome.status, fileId: s.outcome.fileId, size: s.size, code: null, message: null });
  }
  return result;
}
