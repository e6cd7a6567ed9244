// Membership rules of the organization bindings: the owner rules (only owners touch the owner role; an organization always keeps an
// owner), enforced under the organization's row lock inside one transaction.
import type * as v from 'valibot';
import type { MemberSchema } from '../bindings/organization/schemas.ts';
import type { Sql } from 'postgres';
import type { Caller } from '../identity/caller.ts';
import { isAdminRole, type Role } from '../identity/scopes.ts';
import { adminRequired, membershipRequired, organizationNotFound } from '../identity/messages.ts';
import { requireAdmin } from '../identity/organization-caller.ts';
import {
  countOwners,
  deleteMember,
  findMemberByEmail,
  findMemberById,
  findMemberByUser,
  lockOrganization,
  updateMemberRole,
  type MemberRow,
} from '../store/members.ts';
import { lastOwner, memberNotFound, ownerRequired } from './organization-messages.ts';

/** Re-read the caller's membership under the organization lock: a concurrent removal or demotion counts. */
async function recheckCaller(tx: Sql, caller: Caller, orgId: string, touchesOwner: boolean): Promise<void> {
  const me = await findMemberByUser(tx, orgId, caller.userId);
  if (!me) throw membershipRequired(caller.locale);
  if (!isAdminRole(me.role)) throw adminRequired(caller.locale);
  if (touchesOwner && me.role !== 'owner') throw ownerRequired(caller.locale);
}

async function withOrgLock<T>(sql: Sql, caller: Caller, orgId: string, fn: (tx: Sql) => Promise<T>): Promise<T> {
  return sql.begin(async (tx) => {
    if (!(await lockOrganization(tx as unknown as Sql, orgId))) throw organizationNotFound(caller.locale);
    return fn(tx as unknown as Sql);
  }) as Promise<T>;
}

/** Change a member's role. Order: target (404) → owner privilege (403) → last owner (409) → caller still entitled. */
export async function changeMemberRole(sql: Sql, caller: Caller, memberId: string, role: Role): Promise<MemberRow> {
  const { orgId, role: callerRole } = requireAdmin(caller);
  return withOrgLock(sql, caller, orgId, async (tx) => {
    const target = await findMemberById(tx, orgId, memberId);
    if (!target) throw memberNotFound(caller.locale);
    const touchesOwner = target.role === 'owner' || role === 'owner';
    if (touchesOwner && callerRole !== 'owner') throw ownerRequired(caller.locale);
    if (target.role === 'owner' && role !== 'owner' && (await countOwners(tx, orgId)) <= 1) throw lastOwner();
    await recheckCaller(tx, caller, orgId, touchesOwner);
    if (target.role !== role) await updateMemberRole(tx, orgId, memberId, role);
    return { ...target, role };
  });
}

/** Remove a member by id, or by e-mail when the value contains `@` (ids never do). */
export async function removeMember(sql: Sql, caller: Caller, memberIdOrEmail: string): Promise<MemberRow> {
  const { orgId, role: callerRole } = requireAdmin(caller);
  return withOrgLock(sql, caller, orgId, async (tx) => {
    const target = memberIdOrEmail.includes('@')
      ? await findMemberByEmail(tx, orgId, memberIdOrEmail.trim())
      : await findMemberById(tx, orgId, memberIdOrEmail);
    if (!target) throw memberNotFound(caller.locale);
    const touchesOwner = target.role === 'owner';
    if (touchesOwner && callerRole !== 'owner') throw ownerRequired(caller.locale);
    if (touchesOwner && (await countOwners(tx, orgId)) <= 1) throw lastOwner();
    await recheckCaller(tx, caller, orgId, touchesOwner);
    await deleteMember(tx, orgId, target.id);
    return target;
  });
}

/** A member as bindings return it: the type of the one MemberSchema (bindings/organization/schemas.ts). */
export type MemberView = v.InferOutput<typeof MemberSchema>;

export function memberView(m: MemberRow): MemberView {
  return {
    id: m.id,
    memberId: m.id,
    organizationId: m.orgId,
    userId: m.userId,
    email: m.email,
    name: m.name,
    image: m.image,
    role: m.role,
    createdAt: m.createdAt.toISOString(),
  };
}
