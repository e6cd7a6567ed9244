// Browser sessions: a fresh 256-bit random token per sign-in (never an incoming value), stored hashed, living
// `ttlMs` (7 days) and sliding forward at most once a day. Resolution tells expired from unknown apart.
import type { Sql } from 'postgres';
import type { Caller } from './caller.ts';
import type { Clock } from '../clock.ts';
import type { Locale } from '../errors.ts';
import { hashSecret, newId, newSecret } from '../ids.ts';
import { roleScopes } from './scopes.ts';
import { listUserOrganizations } from '../store/members.ts';
import {
  deleteSessionByTokenHash,
  findSessionByTokenHash,
  insertSession,
  purgeExpiredSessions,
  setActiveOrganization,
  touchSession,
  type ResolvedSessionRow,
  type SessionRow,
} from '../store/sessions.ts';

/** Refresh the expiry when the last refresh is older than this (better-auth's `updateAge`). */
export const SESSION_SLIDE_AFTER_MS = 86400_000;
/** Expired rows are kept this long so an expired cookie answers SESSION_EXPIRED rather than plain 401. */
export const EXPIRED_SESSION_KEEP_MS = 30 * 86400_000;

export async function createSession(sql: Sql, clock: Clock, ttlMs: number, userId: string): Promise<{ token: string; session: SessionRow }> {
  const now = clock.now();
  const token = newSecret();
  const [first] = await listUserOrganizations(sql, userId);
  const session = await insertSession(sql, {
    id: newId('ses'),
    tokenHash: hashSecret(token),
    userId,
    activeOrgId: first?.id ?? null,
    now,
    expiresAt: new Date(now.getTime() + ttlMs),
  });
  await purgeExpiredSessions(sql, new Date(now.getTime() - EXPIRED_SESSION_KEEP_MS));
  return { token, session };
}

export type SessionResolution = { status: 'valid'; row: ResolvedSessionRow; refreshed: boolean } | { status: 'expired' } | { status: 'unknown' };

/** Look a cookie value up; slide a valid session and keep its active organization pointing at a real membership. */
export async function resolveSession(sql: Sql, clock: Clock, ttlMs: number, token: string): Promise<SessionResolution> {
  if (!token || token.length > 512) return { status: 'unknown' };
  const row = await findSessionByTokenHash(sql, hashSecret(token));
  if (!row) return { status: 'unknown' };
  const now = clock.now();
  if (row.expiresAt.getTime() <= now.getTime()) return { status: 'expired' };
  let refreshed = false;
  if (now.getTime() - row.lastUsedAt.getTime() >= SESSION_SLIDE_AFTER_MS) {
    row.expiresAt = new Date(now.getTime() + ttlMs);
    row.lastUsedAt = now;
    await touchSession(sql, row.id, now, row.expiresAt);
    refreshed = true;
  }
  if (row.memberOrgId !== row.activeOrgId) {
    // The active organization was left or deleted (or never set): fall back to the first membership.
    row.activeOrgId = row.memberOrgId;
    await setActiveOrganization(sql, row.id, row.memberOrgId);
  }
  return { status: 'valid', row, refreshed };
}

export function sessionCaller(row: ResolvedSessionRow, locale: Locale): Caller {
  const membership = row.memberId && row.memberOrgId && row.memberRole ? { orgId: row.memberOrgId, memberId: row.memberId, role: row.memberRole } : null;
  return {
    kind: 'session',
    userId: row.userId,
    email: row.email,
    membership,
    scopes: membership ? roleScopes(membership.role) : [],
    locale,
    credentialId: row.id,
  };
}

/** Sign-out: forget the session. Idempotent. */
export async function endSession(sql: Sql, token: string): Promise<void> {
  if (token && token.length <= 512) await deleteSessionByTokenHash(sql, hashSecret(token));
}

export { setActiveOrganization };
