// Which organization a caller acts on, and whether it may administer it: a session picks any organization its user
// belongs to; a token is bound to its own.
import type { Sql } from 'postgres';
import { credentialOf, type Caller } from './caller.ts';
import { isAdminRole, roleScopes, type Role } from './scopes.ts';
import { adminRequired, adminScopeRequired, membershipRequired, organizationNotFound } from './messages.ts';
import { findMembership, findOrganization } from '../store/organizations.ts';

/**
 * The Caller acting on `orgId`: a session caller gets that organization's membership and its role's scopes
 * (or 403 ORGANIZATION_MEMBERSHIP_REQUIRED); a token caller is bound to its token's organization.
 * An unknown organization is 404.
 */
export async function callerForOrganization(sql: Sql, caller: Caller, orgId: string): Promise<Caller> {
  if (caller.membership?.orgId === orgId) return caller;
  const org = await findOrganization(sql, orgId);
  if (!org) throw organizationNotFound(caller.locale);
  if (caller.kind !== 'session') throw membershipRequired(caller.locale);
  const membership = await findMembership(sql, caller.userId, orgId);
  if (!membership) throw membershipRequired(caller.locale);
  return {
    ...caller,
    membership: { orgId, memberId: membership.memberId, role: membership.role },
    scopes: roleScopes(membership.role),
  };
}

/** Owner or admin, then the org:admin scope (a token may lack it even for an admin). */
export function requireAdmin(caller: Caller): { orgId: string; role: Role } {
  const m = caller.membership;
  if (!m) throw membershipRequired(caller.locale);
  if (!isAdminRole(m.role)) throw adminRequired(caller.locale);
  if (!caller.scopes.includes('org:admin')) {
    throw adminScopeRequired(credentialOf(caller));
  }
  return { orgId: m.orgId, role: m.role };
}
