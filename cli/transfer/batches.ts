// Moving many small files in few requests: each execution writes (files_write_bytes) or reads (files_read_bytes)
// as many files as fit the engine's limits, so a folder of small files costs a handful of requests instead of
// three per file against the 120-per-minute rate limit.
import type { Api } from '../http.ts';
import { appExecute, executionError } from '../service.ts';

/** Files up to this size travel inside scripts; larger ones go through parts (upload) or the download route. */
export const SMALL_FILE_MAX = 48 * 1024;
/** Characters of script per execution: the engine takes 100 KB of source; the rest is the script itself. */
const SOURCE_BUDGET = 90_000;
/** Raw bytes read per execution: the result (base64, 4/3 larger) stays well under the 1 MB result cap. */
const READ_BUDGET = 512 * 1024;
/** Binding calls per execution, well under the engine's 1000. */
const CALLS_PER_EXECUTION = 400;

export interface WriteItem {
  name: string;
  mediaType: string;
  data: Buffer;
  replace?: string;
}
export interface ItemOutcome {
  ok: boolean;
  fileId?: string;
  crc32?: string | null;
  base64?: string;
  code?: string;
  message?: string;
  resolution?: string;
}

/** Split `items` into groups whose `cost` stays within `budget` (an item over budget goes alone). */
export function groups<T>(items: readonly T[], cost: (item: T) => number, budget: number): T[][] {
  const out: T[][] = [];
  let current: T[] = [];
  let used = 0;
  for (const item of items) {
    const c = cost(item);
    if (current.length && (used + c > budget || current.length >= CALLS_PER_EXECUTION / 2)) {
      out.push(current);
      current = [];
      used = 0;
    }
    current.push(item);
    used += c;
  }
  if (current.length) out.push(current);
  return out;
}

const CATCH = 'catch (e) { out.push({ ok: false, code: e.code ?? "error", message: e.message, resolution: e.resolution }); }';

async function run(api: Api, script: string, count: number): Promise<ItemOutcome[]> {
  const content = await appExecute(api, { script, mode: 'run' });
  if (!content.ok) throw executionError(content);
  const result = Array.isArray(content.result) ? (content.result as ItemOutcome[]) : [];
  // An answer that does not account for every file leaves those files' fate unknown: report them as failed.
  return Array.from({ length: count }, (_, i) => result[i] ?? { ok: false, code: 'unknown_outcome', message: "the server's answer did not report this file" });
}

/** Write one group in one execution; a replaced file's old copy goes to the trash (restorable for 30 days). */
export function writeBatch(api: Api, items: readonly WriteItem[]): Promise<ItemOutcome[]> {
  const payload = items.map((i) => ({ name: i.name, mediaType: i.mediaType, base64: i.data.toString('base64'), replace: i.replace ?? null }));
  const script = `const out = [];
for (const it of ${JSON.stringify(payload)}) {
  try {
    const f = await files_write_bytes({ name: it.name, mediaType: it.mediaType, base64: it.base64 });
    if (it.replace) await files_trash({ fileId: it.replace });
    out.push({ ok: true, fileId: f.fileId, crc32: f.crc32 });
  } ${CATCH}
}
return out;`;
  return run(api, script, items.length);
}

export function writeGroups(items: readonly WriteItem[]): WriteItem[][] {
  return groups(items, (i) => Math.ceil(i.data.length / 3) * 4 + i.name.length + 120, SOURCE_BUDGET);
}

/** Read one group of small files in one execution. */
export function readBatch(api: Api, fileIds: readonly string[]): Promise<ItemOutcome[]> {
  const script = `const out = [];
for (const fileId of ${JSON.stringify(fileIds)}) {
  try { const r = await files_read_bytes({ fileId }); out.push({ ok: true, fileId, crc32: r.crc32, base64: r.base64 }); } ${CATCH}
}
return out;`;
  return run(api, script, fileIds.length);
}

export function readGroups<T extends { size: number }>(files: readonly T[]): T[][] {
  return groups(files, (f) => f.size + 200, READ_BUDGET);
}
