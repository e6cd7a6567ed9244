// Membership rules of the organization bindings: the owner rules (only owners touch the owner role; an organization always keeps an
// owner), enforced under the organization's row lock inside one transaction.
import type * as v from 'valibot';
import type { MemberSchema } from '../bindings/organization/schemas.ts';
import type { Sql } from 'postgres';
import type { Caller } from '../identity/caller.ts';
import { ServiceError, conflict, l10n, tr, type Locale } from '../errors.ts';
import { isAdminRole, type Role } from '../identity/scopes.ts';
import { adminRequired, membershipRequired, organizationNotFound } from '../identity/messages.ts';
import { requireAdmin } from '../identity/organization-caller.ts';
import {
  countOwners, deleteMember, findMemberByEmail, findMemberById, findMemberByUser, lockOrganization, updateMemberRole, type MemberRow,
} from '../store/members.ts';

export function ownerRequired(locale: Locale): ServiceError {
  return new ServiceError('ORGANIZATION_ADMIN_REQUIRED', {
    resolution: tr(locale, 'Only an owner can grant, change or remove the owner role; ask an owner of the organization.',
      'Só um proprietário pode conceder, alterar ou remover o papel de proprietário; peça a um proprietário da organização.'),
  });
}

function memberNotFound(locale: Locale): ServiceError {
  return new ServiceError('not_found', {
    resolution: tr(locale, 'No member of this organization matches; list them with GET /auth/organization/get.',
      'Nenhum membro desta organização corresponde; liste-os com GET /auth/organization/get.'),
  });
}

function lastOwner(): ServiceError {
  return conflict(l10n('This member is the organization\'s last owner, and an organization must keep at least one.', 'Este membro é o último proprietário da organização, e uma organização precisa manter pelo menos um.'),
    l10n('Make another member owner first.', 'Torne outro membro proprietário antes.'));
}

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
  return { id: m.id, organizationId: m.orgId, userId: m.userId, email: m.email, name: m.name, image: m.image, role: m.role, createdAt: m.createdAt.toISOString() };
}
