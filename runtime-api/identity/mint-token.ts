// Development, test and benchmark tokens: ensure a user and an organization (the user its owner, or a member with
// the given role), then issue a real access token through the same signer the OAuth server uses.
import type { Sql } from 'postgres';
import type { Clock } from '../clock.ts';
import { ensureUser } from '../store/users.ts';
import { createOrganization, findOrganizationBySlug, findMembership } from '../store/organizations.ts';
import { newId } from '../ids.ts';
import type { Role } from './scopes.ts';
import { issueAccessToken, type TokenSettings } from './access-tokens.ts';
import type { SigningKeys } from './signing-keys.ts';

export interface MintRequest {
  email: string;
  /** Organization slug; created (with this user as owner) when missing. */
  org: string;
  scopes: readonly string[];
  /** Role when the user must be added to an existing organization. */
  role?: Role;
  ttlSeconds?: number;
  clientId?: string;
}

export async function mintToken(sql: Sql, keys: SigningKeys, settings: TokenSettings, clock: Clock, req: MintRequest) {
  const user = await ensureUser(sql, req.email);
  let org = await findOrganizationBySlug(sql, req.org);
  if (!org) {
    try {
      org = await createOrganization(sql, { name: req.org, slug: req.org, ownerId: user.id, createdAt: clock.now() });
    } catch {
      org = await findOrganizationBySlug(sql, req.org); // created concurrently
    }
  }
  if (!org) throw new Error(`could not create organization ${req.org}`);
  if (!(await findMembership(sql, user.id, org.id))) {
    await sql`insert into members (id, org_id, user_id, role) values (${newId('mem')}, ${org.id}, ${user.id}, ${req.role ?? 'member'})
      on conflict (org_id, user_id) do nothing`;
  }
  const { token, expiresIn } = await issueAccessToken(keys, settings, clock, {
    userId: user.id,
    orgId: org.id,
    scopes: req.scopes,
    clientId: req.clientId ?? 'mint-token',
    ttlSeconds: req.ttlSeconds,
  });
  return { token, expiresIn, userId: user.id, orgId: org.id };
}
