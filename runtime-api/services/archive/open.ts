// Which reader an upload needs: the format named by the caller, else the one its first bytes show (zip's local
// header or end record, gzip's magic, a tar header's ustar magic or checksum, an empty tar's zero block).
import type { ArchiveFormat } from '../../store/exports.ts';
import { storageFailure } from '../uploads.ts';
import type { ArchiveReader, ScanLimits } from './entries.ts';
import { formatMismatch, notAnArchive } from './messages.ts';
import { type ArchiveSource, readHead } from './source.ts';
import { tarReader } from './tar.ts';
import { zipReader } from './zip.ts';

type Found = 'zip' | 'tar' | 'tar.gz';

function tarChecksumHolds(block: Buffer): boolean {
  let sum = 0;
  for (let i = 0; i < 512; i++) sum += i >= 148 && i < 156 ? 32 : block[i];
  const field = block
    .subarray(148, 156)
    .toString('latin1')
    .replace(/[\0 ]+$/, '')
    .trim();
  return /^[0-7]+$/.test(field) && parseInt(field, 8) === sum;
}

export function sniff(head: Buffer): Found | null {
  if (head.length >= 4 && head[0] === 0x50 && head[1] === 0x4b && [0x0304, 0x0506, 0x0708].includes(head.readUInt16BE(2))) return 'zip';
  if (head.length >= 2 && head[0] === 0x1f && head[1] === 0x8b) return 'tar.gz';
  if (head.length < 512) return null;
  const block = head.subarray(0, 512);
  if (block.subarray(257, 262).toString('latin1') === 'ustar' || block.every((b) => b === 0) || tarChecksumHolds(block)) return 'tar';
  return null;
}

export async function openArchive(source: ArchiveSource, asked: ArchiveFormat | undefined, limits: ScanLimits): Promise<ArchiveReader> {
  const found = sniff(await readHead(source, 512).catch((err) => Promise.reject(storageFailure(err))));
  if (!found && !asked) throw notAnArchive();
  const kind: ArchiveFormat | null = found === 'zip' ? 'zip' : found ? 'tar' : null;
  if (asked && kind && asked !== kind) throw formatMismatch(asked, kind);
  return (asked ?? kind) === 'zip' ? zipReader(source, limits) : tarReader(source, found === 'tar.gz', limits);
}
