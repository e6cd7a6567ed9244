// PKCE with S256 only (RFC 7636; OAuth 2.1 drops `plain`).
import { createHash, timingSafeEqual } from 'node:crypto';

/** A verifier is 43 to 128 characters of [A-Za-z0-9-._~] (RFC 7636 section 4.1). */
export const VERIFIER_PATTERN = /^[A-Za-z0-9\-._~]{43,128}$/;
/** An S256 challenge is the base64url (no padding) SHA-256 of the verifier: 43 characters. */
export const CHALLENGE_PATTERN = /^[A-Za-z0-9_-]{43}$/;

export function s256(verifier: string): string {
  return createHash('sha256').update(verifier, 'ascii').digest('base64url');
}

export function verifyS256(verifier: string, challenge: string): boolean {
  if (!VERIFIER_PATTERN.test(verifier) || !CHALLENGE_PATTERN.test(challenge)) return false;
  const computed = Buffer.from(s256(verifier));
  const expected = Buffer.from(challenge);
  return computed.length === expected.length && timingSafeEqual(computed, expected);
}
