// What an import knows of one archive entry, whatever the format, and how a reader of either format is driven: scan
// (headers only, every limit of the whole archive checked) and then extract (the bodies of the entries wanted, in
// archive order, one at a time).
import type { ArchiveFormat } from '../../store/exports.ts';

export type EntryKind = 'file' | 'folder' | 'symlink' | 'hardlink' | 'special';

export interface ScannedEntry {
  /** Position in the archive, from 0. */
  index: number;
  /** The name as the archive spells it (decoded), before any normalization. */
  raw: string;
  kind: EntryKind;
  /** For `special`: what it is (character device, fifo, ...). */
  special?: string;
  /** Expanded size in bytes, as the archive declares it. */
  size: number;
  /** Zip: stored size, for the per-entry ratio. */
  compressedSize?: number;
  /** Zip: why the entry's data cannot be read (encrypted, an unknown compression method). */
  unreadable?: { encrypted: true } | { method: number };
  mtime: Date | null;
  executable: boolean;
}

export interface ArchiveReader {
  readonly format: ArchiveFormat;
  /** Every entry's header, in order; throws the whole archive's refusals (damaged, too many entries, too large). */
  scan(signal?: AbortSignal): Promise<ScannedEntry[]>;
  /**
   * The bodies of the `wanted` entries (as scan gave them), in archive order; `each` must consume `body`. A body
   * that cannot be read throws an EntryDataError out of `body`; whatever `each` throws ends the walk. `crc32` is
   * the CRC-32 the archive declares for the body (zip), to be checked by whoever reads it; null when none.
   */
  extract(
    wanted: readonly ScannedEntry[],
    each: (entry: ScannedEntry, body: AsyncIterable<Uint8Array>, crc32: number | null) => Promise<void>,
    signal?: AbortSignal,
  ): Promise<void>;
  close(): void;
}

/** Limits a reader enforces while scanning. */
export interface ScanLimits {
  maxEntries: number;
  maxExpandedBytes: number;
  maxRatio: number;
}

/** Archives expanding to less than this are not held to the ratio limits (small files compress well). */
export const RATIO_FLOOR = 1024 * 1024;

/** An entry's data could not be read (damaged, or not what its header promised); the rest of the archive may be fine. */
export class EntryDataError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'EntryDataError';
  }
}
