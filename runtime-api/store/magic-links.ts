// Magic links: single-use sign-in tokens, stored only as their hash, consumed by one conditional UPDATE so that
// concurrent verifies of one token yield exactly one winner.
import type { Sql } from 'postgres';
import type { Locale } from '../errors.ts';

export interface MagicLinkRow {
  email: string;
  locale: Locale;
  returnTo: string;
}

export async function insertMagicLink(
  sql: Sql,
  row: { tokenHash: string; email: string; locale: Locale; returnTo: string; now: Date; expiresAt: Date },
): Promise<void> {
  await sql`insert into magic_links (token_hash, email, locale, return_to, created_at, expires_at)
    values (${row.tokenHash}, ${row.email}, ${row.locale}, ${row.returnTo}, ${row.now}, ${row.expiresAt})`;
}

/** Consume the token if it exists, is unused and unexpired; null otherwise. Atomic. */
export async function consumeMagicLink(sql: Sql, tokenHash: string, now: Date): Promise<MagicLinkRow | null> {
  const [row] = await sql<MagicLinkRow[]>`update magic_links set consumed_at = ${now}
    where token_hash = ${tokenHash} and consumed_at is null and expires_at > ${now}
    returning email::text as email, locale, return_to as "returnTo"`;
  return row ?? null;
}

/** Drop links that can no longer be used. */
export async function purgeMagicLinks(sql: Sql, before: Date): Promise<void> {
  await sql`delete from magic_links where expires_at < ${before}`;
}
