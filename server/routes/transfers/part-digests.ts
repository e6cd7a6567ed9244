// The digests a part may carry (Content-MD5, RFC 9530 Content-Digest), which hashes that calls for, and the check
// of the computed sums against them.
import type { HashName, PartChecksums } from '../../http/part-checksums.ts';
import { hexCrc } from '../../../runtime-api/index.ts';
import { digestMalformed, digestMismatch } from './messages.ts';

export interface Digests {
  md5?: Buffer;
  sha256?: Buffer;
  sha512?: Buffer;
}

/** Content-MD5 (base64) and RFC 9530 Content-Digest (sha-256 and sha-512; other algorithms are ignored). */
export function parseDigests(md5Header: string, digestHeader: string): Digests {
  const out: Digests = {};
  if (md5Header) {
    const md5 = Buffer.from(md5Header.trim(), 'base64');
    if (md5.length !== 16) throw digestMalformed('Content-MD5');
    out.md5 = md5;
  }
  if (digestHeader) {
    for (const member of digestHeader.split(',')) {
      const m = /^\s*([a-z0-9-]+)\s*=\s*:([A-Za-z0-9+/]*={0,2}):\s*(;.*)?$/i.exec(member);
      if (!m) throw digestMalformed('Content-Digest');
      const alg = m[1].toLowerCase();
      const value = Buffer.from(m[2], 'base64');
      if (alg === 'sha-256') {
        if (value.length !== 32) throw digestMalformed('Content-Digest');
        out.sha256 = value;
      }
      if (alg === 'sha-512') {
        if (value.length !== 64) throw digestMalformed('Content-Digest');
        out.sha512 = value;
      }
    }
  }
  return out;
}

/**
 * CRC-32 is always computed (zlib's, ~4x cheaper than SHA-256); cryptographic hashes only when they are needed:
 * to check a digest sent, or the SHA-256 a single-part upload's file records.
 */
export function hashesToCompute(digests: Digests, partCount: number): HashName[] {
  const hashes: HashName[] = [];
  if (digests.sha256 || partCount === 1) hashes.push('sha256');
  if (digests.md5) hashes.push('md5');
  if (digests.sha512) hashes.push('sha512');
  return hashes;
}

/** The part's sums as stored, once they match every digest the request carried (else part_mismatch). */
export function verifiedSums(sums: PartChecksums, digests: Digests, partNumber: number): { crc32: string; sha256: string | null } {
  const sha256Digest = sums.hashes.sha256 ?? null;
  const mismatch =
    (digests.md5 && !sums.hashes.md5!.equals(digests.md5) && 'Content-MD5') ||
    (digests.sha256 && !sha256Digest!.equals(digests.sha256) && 'Content-Digest sha-256') ||
    (digests.sha512 && !sums.hashes.sha512!.equals(digests.sha512) && 'Content-Digest sha-512');
  if (mismatch) throw digestMismatch(mismatch, partNumber);
  return { crc32: hexCrc(sums.crc32), sha256: sha256Digest ? sha256Digest.toString('hex') : null };
}
