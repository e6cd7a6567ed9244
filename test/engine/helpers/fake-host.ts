// A host for engine tests: the binding surface the server will expose (context, files_*, upload_begin,
// members_remove) over an in-memory organization, with input checks like invoke() and a call log.
import type { HostCall, HostResult } from '../../../engine/index.ts';

export interface HostCallRecord {
  name: string;
  argsJson: string;
  at: number;
  signal: AbortSignal;
  settled: boolean;
}

export interface FakeFile {
  fileId: string; name: string; mediaType: string; byteLength: number;
  state: 'active' | 'trashed'; createdAt: string; updatedAt: string;
}

export const BINDINGS = ['context', 'files_list', 'files_get', 'files_update', 'files_trash', 'upload_begin', 'members_remove'] as const;

const ok = (value: unknown): HostResult => ({ ok: true, json: JSON.stringify(value) });
const fail = (code: string, message: string, resolution?: string): HostResult => ({ ok: false, error: { code, message, resolution } });
const invalid = (resolution: string) => fail('invalid_input', 'Parameters failed validation.', resolution);
const notFound = () => fail('not_found', 'Not found.', 'Check the identifier; it may belong to another organization or have been deleted.');

export function seedFiles(count = 5): FakeFile[] {
  return Array.from({ length: count }, (_, i) => ({
    fileId: `f_${i + 1}`, name: `report-${i + 1}.csv`, mediaType: 'text/csv', byteLength: 1000 * (i + 1),
    state: i === count - 1 ? 'trashed' : 'active', createdAt: '2026-11-01T10:00:00.000Z', updatedAt: '2026-11-01T10:00:00.000Z',
  }));
}

export interface FakeHostOptions {
  /** Delay before answering (ms), or a promise that never settles ('never'). */
  delayMs?: number | 'never';
  /** Bindings to answer with a small constant immediately (benchmark-like host). */
  files?: FakeFile[];
}

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
    switch (name) {
      case 'context':
        return ok({ organization: { id: 'org_a', name: 'Org A' }, user: { id: 'u_1', email: 'ana@example.com' }, scopes: ['files:read', 'files:write'] });
      case 'files_list': {
        if (a.state !== undefined && a.state !== 'active' && a.state !== 'trashed') return invalid('`state`: Invalid option: Expected "active" | "trashed"');
        if (a.limit !== undefined && !(Number.isInteger(a.limit) && (a.limit as number) >= 1 && (a.limit as number) <= 1000)) {
          return invalid('`limit`: Invalid value: Expected <=1000');
        }
        if (a.prefix !== undefined && (typeof a.prefix !== 'string' || a.prefix.length > 1024)) return invalid('`prefix`: Invalid length');
        const state = (a.state as string | undefined) ?? 'active';
        const limit = (a.limit as number | undefined) ?? 50;
        const start = typeof a.cursor === 'string' ? Number(a.cursor) : 0;
        const all = this.files.filter((f) => f.state === state && (!a.prefix || f.name.startsWith(a.prefix as string)));
        const items = all.slice(start, start + limit);
        return ok({ items, nextCursor: start + limit < all.length ? String(start + limit) : null });
      }
      case 'files_get': {
        const file = this.files.find((f) => f.fileId === a.fileId);
        return file ? ok(file) : notFound();
      }
      case 'files_update': {
        const file = this.files.find((f) => f.fileId === a.fileId);
        if (!file) return notFound();
        if (a.name !== undefined && (typeof a.name !== 'string' || a.name.length === 0)) return invalid('`name`: Invalid length');
        if (typeof a.name === 'string') file.name = a.name;
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
      case 'members_remove':
        // Every member id outside org A is invisible to this caller: the host check answers not_found.
        return notFound();
      case 'upload_begin': {
        if (typeof a.name !== 'string' || typeof a.mediaType !== 'string' || !Number.isInteger(a.byteLength)) return invalid('`byteLength`: Invalid type');
        const partSize = 8 * 1024 * 1024;
        const partCount = Math.max(1, Math.ceil((a.byteLength as number) / partSize));
        return ok({ uploadId: 'up_1', partSize, partCount, expiresAt: '2026-11-03T10:00:00.000Z', partUrl: 'https://files.example.com/uploads/up_1/parts/{partNumber}' });
      }
      default:
        return fail('not_found', `No binding ${name}.`);
    }
  }
}
