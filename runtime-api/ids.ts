// Random identifiers: a short type prefix and 128 bits in base32 (lower case, no `@`, so `memberIdOrEmail` is unambiguous).
import { randomBytes, createHash } from 'node:crypto';

const ALPHABET = 'abcdefghijklmnopqrstuvwxyz234567';

function base32(bytes: Uint8Array): string {
  let out = '';
  let bits = 0;
  let value = 0;
  for (const b of bytes) {
    value = (value << 8) | b;
    bits += 8;
    while (bits >= 5) {
      out += ALPHABET[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += ALPHABET[(value << (5 - bits)) & 31];
  return out;
}

export function newId(prefix: string): string {
  return `${prefix}_${base32(randomBytes(16))}`;
}

/** A 256-bit secret for links, cookies and refresh tokens, in base64url. */
export function newSecret(): string {
  return randomBytes(32).toString('base64url');
}

/** Secrets are stored only as their SHA-256. */
export function hashSecret(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}
