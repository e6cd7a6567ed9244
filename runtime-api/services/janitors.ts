// Janitors: plain functions, each run under a PostgreSQL advisory lock (pg_try_advisory_xact_lock) so that one
// instance runs it at a time (others skip), plus startJanitors() which runs them on an interval until stopped.
import type { InvokeDeps } from '../invoke.ts';
import { referencedBlobKeys } from '../store/files.ts';
import { purgeExpiredExports } from '../store/exports.ts';
import { expireDue, listParts, liveUploadIds, purgeFinishedUploads, stuckCompletions, stuckImports, transitionUpload } from '../store/uploads.ts';
import { finishCompletion } from './uploads.ts';
import { purgeTrash } from './trash.ts';
import { purgeAppliedPlans } from '../store/applied-plans.ts';

export interface JanitorLogger {
  info(msg: string, fields?: Record<string, unknown>): void;
  error(msg: string, fields?: Record<string, unknown>): void;
}

export type JanitorDeps = Pick<InvokeDeps, 'sql' | 'blobs' | 'clock' | 'config'> & { logger?: JanitorLogger };

/** Result of one janitor run: `null` when another instance held the lock. */
export type JanitorResult<T> = T | null;

const LOCK_KEYS = {
  purgeExpiredTrash: 7301_0101,
  expireUploads: 7301_0102,
  deleteOrphanBlobs: 7301_0103,
  purgeExpiredExports: 7301_0104,
  forgetAppliedPlans: 7301_0105,
} as const;

/** How often a server runs the janitors (server/bootstrap.ts). */
export const JANITOR_INTERVAL_MS = 10 * 60_000;
/** A completion stuck this long in `completing` (its process died) is finished or rolled back by expireUploads. */
export const STUCK_COMPLETION_MS = 15 * 60_000;
/** An import silent this long (it says it is alive every minute) died with its process: its upload is reopened. */
export const STUCK_IMPORT_MS = 15 * 60_000;
/** Finished, aborted and expired reservations are forgotten this long after they ended (then their ids are 404). */
export const FINISHED_UPLOAD_KEEP_MS = 7 * 86400_000;
/** Applied plan tokens are remembered this long (their tokens live 15 minutes), so a late retry is told what happened. */
export const APPLIED_PLAN_KEEP_MS = 86400_000;
/** Unreferenced blobs younger than this are left alone: a transaction may be about to point a row at them. */
export const ORPHAN_GRACE_MS = 60 * 60_000;

/** Run `fn` while holding the advisory lock `key` in a transaction of its own; null if someone else holds it. */
async function exclusively<T>(deps: JanitorDeps, key: number, fn: () => Promise<T>): Promise<JanitorResult<T>> {
  return deps.sql.begin(async (tx) => {
    const [{ locked }] = await tx<{ locked: boolean }[]>`select pg_try_advisory_xact_lock(${key}) as locked`;
    if (!locked) return null;
    return fn();
  }) as Promise<JanitorResult<T>>;
}

/** Delete trashed files (bytes and rows) whose restore window has closed. */
export async function purgeExpiredTrash(deps: JanitorDeps): Promise<JanitorResult<{ purgedFiles: number }>> {
  return exclusively(deps, LOCK_KEYS.purgeExpiredTrash, async () => ({ purgedFiles: await purgeTrash(deps, deps.clock.now()) }));
}

/**
 * Mark lapsed reservations expired and delete their bytes; finish (or roll back) completions whose process died;
 * reopen uploads whose import died (nothing of it was written; its staged bytes are orphans); forget long-finished
 * reservations.
 */
export async function expireUploads(deps: JanitorDeps): Promise<JanitorResult<{ expired: number; recovered: number; reopened: number; forgotten: number }>> {
  return exclusively(deps, LOCK_KEYS.expireUploads, async () => {
    const now = deps.clock.now();
    let expired = 0;
    for (;;) {
      const ids = await expireDue(deps.sql, now, 200);
      expired += ids.length;
      await Promise.all(ids.map((id) => deps.blobs.deleteUpload(id).catch(() => {}))); // else deleteOrphanBlobs retries
      if (ids.length < 200) break;
    }
    let recovered = 0;
    for (const upload of await stuckCompletions(deps.sql, new Date(now.getTime() - STUCK_COMPLETION_MS), 50)) {
      try {
        await finishCompletion(deps, upload, await listParts(deps.sql, upload.id));
        recovered++;
      } catch (err) {
        deps.logger?.error('stuck upload completion could not be finished; it is open again', { uploadId: upload.id, err });
      }
    }
    let reopened = 0;
    for (const upload of await stuckImports(deps.sql, new Date(now.getTime() - STUCK_IMPORT_MS), 200)) {
      if (await transitionUpload(deps.sql, upload.id, ['importing'], 'open', now)) reopened++;
    }
    const forgotten = await purgeFinishedUploads(deps.sql, new Date(now.getTime() - FINISHED_UPLOAD_KEEP_MS));
    return { expired, recovered, reopened, forgotten };
  });
}

/**
 * Delete staging data of reservations that are no longer open, objects no file or reservation points at, and
 * temporaries of writes whose process died (the last two only once older than the grace period).
 */
export async function deleteOrphanBlobs(
  deps: JanitorDeps,
  options: { graceMs?: number } = {},
): Promise<JanitorResult<{ uploads: number; objects: number; temporaries: number }>> {
  const graceMs = options.graceMs ?? ORPHAN_GRACE_MS;
  return exclusively(deps, LOCK_KEYS.deleteOrphanBlobs, async () => {
    let uploads = 0;
    const staged = await deps.blobs.listUploads();
    for (let i = 0; i < staged.length; i += 500) {
      const batch = staged.slice(i, i + 500);
      const live = await liveUploadIds(deps.sql, batch);
      for (const id of batch) {
        if (live.has(id)) continue;
        await deps.blobs.deleteUpload(id);
        uploads++;
      }
    }
    let objects = 0;
    const before = deps.clock.now().getTime() - graceMs;
    const candidates = (await deps.blobs.listKeys('')).filter((b) => b.updatedAt.getTime() < before).map((b) => b.key);
    for (let i = 0; i < candidates.length; i += 500) {
      const batch = candidates.slice(i, i + 500);
      const referenced = await referencedBlobKeys(deps.sql, batch);
      for (const key of batch) {
        if (referenced.has(key)) continue;
        await deps.blobs.delete(key);
        objects++;
      }
    }
    const temporaries = (await deps.blobs.deleteStaleTemporaries?.(new Date(before))) ?? 0;
    return { uploads, objects, temporaries };
  });
}

/** Forget archive exports whose download URL has expired. */
export async function purgeExports(deps: JanitorDeps): Promise<JanitorResult<{ exports: number }>> {
  return exclusively(deps, LOCK_KEYS.purgeExpiredExports, async () => ({ exports: await purgeExpiredExports(deps.sql, deps.clock.now()) }));
}

/** Forget applied plan tokens older than APPLIED_PLAN_KEEP_MS. */
export async function forgetAppliedPlans(deps: JanitorDeps): Promise<JanitorResult<{ forgotten: number }>> {
  return exclusively(deps, LOCK_KEYS.forgetAppliedPlans, async () => ({
    forgotten: await purgeAppliedPlans(deps.sql, new Date(deps.clock.now().getTime() - APPLIED_PLAN_KEEP_MS)),
  }));
}

/** Run every janitor once, in order; one failing does not stop the others. */
export async function runJanitors(deps: JanitorDeps): Promise<void> {
  for (const [name, fn] of [
    ['expireUploads', expireUploads],
    ['purgeExpiredTrash', purgeExpiredTrash],
    ['deleteOrphanBlobs', deleteOrphanBlobs],
    ['purgeExports', purgeExports],
    ['forgetAppliedPlans', forgetAppliedPlans],
  ] as const) {
    try {
      const result = await fn(deps);
      if (result && Object.values(result).some((n) => n > 0)) deps.logger?.info(`janitor ${name}`, result);
    } catch (err) {
      deps.logger?.error(`janitor ${name} failed`, { err });
    }
  }
}

/** Run the janitors every `intervalMs` (first run after min(interval, 30 s)); the returned function stops them. */
export function startJanitors(deps: JanitorDeps, intervalMs: number): () => Promise<void> {
  let running: Promise<void> | null = null;
  let stopped = false;
  const tick = () => {
    if (running || stopped) return;
    running = runJanitors(deps).finally(() => {
      running = null;
    });
  };
  const first = setTimeout(tick, Math.min(intervalMs, 30_000));
  const timer = setInterval(tick, intervalMs);
  first.unref();
  timer.unref();
  return async () => {
    stopped = true;
    clearTimeout(first);
    clearInterval(timer);
    await running;
  };
}
