// A host for engine tests: the shapes of the real bindings (runtime-api/bindings: context, files_*,
// upload_begin, member_remove) over an in-memory organization, strict input checks like invoke(), a call log.
import type { HostCall, HostResult } from '../../../engine/index.ts';

export interface HostCallRecord {
  name: string;
  argsJson: string;
  at: number;
  signal: AbortSignal;
  settled: boolean;
}

export interface FakeFile {
  id: string;
  fileId: string;
  name: string;
  path: string;
  mediaType: string;
  size: number;
  state: 'active' | 'trashed';
  createdAt: string;
  updatedAt: string;
  trashedAt: string | null;
  restorableUntil: string | null;
  sha256: string | null;
  downloadUrl: string;
}

export const BINDINGS = ['context', 'files_list', 'files_get', 'files_update', 'files_trash', 'upload_begin', 'member_remove'] as const;

/** Ids shaped like the real ones (`fil_` + 26 base32 characters). */
export const fileId = (i: number) => `fil_${'a'.repeat(25)}${'bcdefghijklmnopqrstuvwxyz'[i]}`;

const ok = (value: unknown): HostResult => ({ ok: true, json: JSON.stringify(value) });
const fail = (code: string, message: string, resolution?: string): HostResult => ({ ok: false, error: { code, message, resolution } });
const invalid = (resolution: string) => fail('invalid_input', 'Parameters failed validation.', resolution);
const notFound = () => fail('not_found', 'Not found.', 'Check the identifier; it may belong to another organization or have been deleted.');

/** Four active CSV reports, one active image and one trashed report. */
export function seedFiles(): FakeFile[] {
  const names = ['report-1.csv', 'report-2.csv', 'report-3.csv', 'report-4.csv', 'photo.png', 'old-report.csv'];
  return names.map((name, i) => ({
    id: fileId(i),
    fileId: fileId(i),
    name,
    path: name,
    mediaType: name.endsWith('.png') ? 'image/png' : 'text/csv',
    size: 1000 * (i + 1),
    state: i === names.length - 1 ? 'trashed' : 'active',
    createdAt: '2026-11-01T10:00:00.000Z',
    updatedAt: '2026-11-01T10:00:00.000Z',
    trashedAt: i === names.length - 1 ? '2026-11-05T10:00:00.000Z' : null,
    restorableUntil: i === names.length - 1 ? '2026-12-05T10:00:00.000Z' : null,
    sha256: null,
    downloadUrl: `http://127.0.0.1:8080/v1/mcp/files/${fileId(i)}/download`,
  }));
}

export interface FakeHostOptions {
  /** Delay before answering (ms), or a promise that never settles ('never'). */
  delayMs?: number | 'never';
  /** Bindings to answer with a small constant immediately (benchmark-like host). */
  files?: FakeFile[];
}

/** Input keys each binding accepts (the real schemas are strict objects). */
const ALLOWED: Record<string, string[]> = {
  context: [],
  files_list: ['state', 'limit', 'cursor', 'prefix'],
  files_get: ['fileId'],
  files_trash: ['fileId'],
  files_update: ['fileId', 'name', 'mediaType'],
  upload_begin: ['name', 'mediaType', 'size'],
  member_remove: ['memberIdOrEmail'],
};

export class FakeHost {
  readonly calls: HostCallRecord[] = [];
  readonly files: FakeFile[];
  private readonly delayMs: number | 'never';

  constructor(options: FakeHostOptions = {}) {
    this.files = options.files ?? seedFiles();
    this.delayMs = options.delayMs ?? 0;
  }

  /** The function handed to engine.execute as `hostCall`. */
  readonly hostCall: HostCall = async (name, argsJson, signal) => {
    const record: HostCallRecord = { name, argsJson, at: performance.now(), signal, settled: false };
    this.calls.push(record);
    if (this.delayMs === 'never') return new Promise<HostResult>(() => {});
    if (this.delayMs > 0) await new Promise((r) => setTimeout(r, this.delayMs as number));
    const result = this.answer(name, JSON.parse(argsJson));
    record.settled = true;
    return result;
  };

  called(name: string): HostCallRecord[] {
    return this.calls.filter((c) => c.name === name);
  }

  private answer(name: string, args: unknown): HostResult {
    const a = (args ?? {}) as Record<string, unknown>;
    if (typeof a !== 'object' || Array.isArray(a)) return invalid('input: Invalid type: Expected Object');
    const unknown = Object.keys(a).find((k) => !(ALLOWED[name] ?? []).includes(k));
    if (unknown) return invalid(`\`${unknown}\`: Invalid key: Expected never`);
    switch (name) {
      case 'context':
        return ok({
          organization: { id: 'org_a', name: 'Org A', slug: 'org-a' },
          user: { id: 'usr_1', email: 'ana@example.com' },
          role: 'member',
          scopes: ['files:read', 'files:write', 'org:read'],
          limits: { storageQuotaBytes: 10 * 1024 ** 3, storageUsedBytes: 21000, uploadPartBytes: 8 * 1024 * 1024, trashRetentionDays: 30 },
        });
      case 'files_list': {
        if (a.state !== undefined && a.state !== 'active' && a.state !== 'trashed') return invalid('`state`: Invalid option: Expected "active" | "trashed"');
        if (a.limit !== undefined && !(Number.isInteger(a.limit) && (a.limit as number) >= 1 && (a.limit as number) <= 1000)) {
          return invalid('`limit`: Invalid value: Expected <=1000');
        }
        if (a.prefix != null && (typeof a.prefix !== 'string' || a.prefix.length > 1024)) return invalid('`prefix`: Invalid length');
        const state = (a.state as string | undefined) ?? 'active';
        const limit = (a.limit as number | undefined) ?? 100;
        const start = typeof a.cursor === 'string' ? Number(a.cursor) : 0;
        const all = this.files.filter((f) => f.state === state && (!a.prefix || f.name.startsWith(a.prefix as string)));
        const files = all.slice(start, start + limit);
        return ok({ items: files, nextCursor: start + limit < all.length ? String(start + limit) : null });
      }
      case 'files_get': {
        const file = this.files.find((f) => f.fileId === a.fileId);
        return file ? ok(file) : notFound();
      }
      case 'files_update': {
        const file = this.files.find((f) => f.fileId === a.fileId);
        if (!file) return notFound();
        if (a.name !== undefined && (typeof a.name !== 'string' || a.name.length === 0)) return invalid('`name`: Invalid length');
        if (typeof a.name === 'string') file.name = file.path = a.name;
        if (typeof a.mediaType === 'string') file.mediaType = a.mediaType;
        file.updatedAt = '2026-11-02T10:00:00.000Z';
        return ok(file);
      }
      case 'files_trash': {
        const file = this.files.find((f) => f.fileId === a.fileId && f.state === 'active');
        if (!file) return notFound();
        file.state = 'trashed';
        return ok(file);
      }
      case 'member_remove':
        // Every member id outside org A is invisible to this caller: the host check answers not_found.
        return notFound();
      case 'upload_begin': {
        if (typeof a.name !== 'string' || !Number.isInteger(a.size)) return invalid('`size`: Invalid type');
        const partSize = 8 * 1024 * 1024;
        const partCount = Math.max(1, Math.ceil((a.size as number) / partSize));
        const uploadId = `upl_${'a'.repeat(26)}`;
        return ok({
          id: uploadId,
          uploadId,
          fileId: fileId(20),
          partSize,
          partCount,
          lastPartSize: (a.size as number) - (partCount - 1) * partSize,
          expiresAt: '2026-11-03T10:00:00.000Z',
          partUrl: `http://127.0.0.1:8080/v1/mcp/uploads/${uploadId}/parts/{partNumber}`,
        });
      }
      default:
        return fail('not_found', `No binding ${name}.`);
    }
  }
}
