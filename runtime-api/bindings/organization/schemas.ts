// Valibot schemas shared by the organization bindings and their HTTP adapters (one source for checks, typings, OpenAPI).
import * as v from 'valibot';
import { ROLES } from '../../identity/scopes.ts';
import { alsoAccepted } from '../../input-keys.ts';

/** Said in the description of every `personal` binding (typings, search, OpenAPI): who may call it. */
export const PERSONAL_NOTE =
  "Acts for the person calling: a session, or a person's access token holding org:read; an organization API key is refused (403 INSUFFICIENT_SCOPE).";

export const IdSchema = v.pipe(v.string(), v.minLength(1), v.maxLength(128));
/** Lower-case letters, digits and inner hyphens, 2–48 characters. */
export const SlugSchema = v.pipe(v.string(), v.minLength(2), v.maxLength(48), v.regex(/^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$/));
export const NameSchema = v.pipe(v.string(), v.trim(), v.minLength(1), v.maxLength(100));
export const EmailSchema = v.pipe(v.string(), v.trim(), v.maxLength(254), v.email());
export const RoleSchema = v.picklist(ROLES);
export const MetadataSchema = v.record(v.string(), v.unknown());

/** Who may be named to member_remove: a member id or an e-mail address, whichever name the caller gives it. */
export const MemberIdOrEmailSchema = v.pipe(IdSchema, v.maxLength(254), alsoAccepted('id', 'memberId', 'email'));

export const OrganizationSchema = v.object({
  id: v.pipe(v.string(), v.description('Organization id; the same as `organizationId`.')),
  organizationId: v.string(),
  name: v.string(),
  slug: v.string(),
  metadata: MetadataSchema,
  createdAt: v.string(),
});

/** An organization as its members see it in lists: with the caller's role. */
export const UserOrganizationSchema = v.object({ ...OrganizationSchema.entries, role: RoleSchema });

export const MemberSchema = v.object({
  id: v.pipe(v.string(), v.description('Member id (the membership, not the user); the same as `memberId`.')),
  memberId: v.string(),
  organizationId: v.string(),
  userId: v.string(),
  email: v.string(),
  name: v.string(),
  image: v.nullable(v.string()),
  role: RoleSchema,
  createdAt: v.string(),
});

export const InvitationSchema = v.object({
  id: v.pipe(v.string(), v.description('Invitation id; the same as `invitationId`.')),
  invitationId: v.string(),
  organizationId: v.string(),
  email: v.string(),
  role: RoleSchema,
  status: v.picklist(['pending', 'accepted', 'rejected', 'canceled', 'expired']),
  inviterId: v.nullable(v.string()),
  expiresAt: v.string(),
  createdAt: v.string(),
});

export const OrganizationDetailSchema = v.object({
  ...OrganizationSchema.entries,
  role: RoleSchema,
  members: v.array(MemberSchema),
});

export function organizationView(o: { id: string; name: string; slug: string; metadata: Record<string, unknown>; createdAt: Date }) {
  return { id: o.id, organizationId: o.id, name: o.name, slug: o.slug, metadata: o.metadata ?? {}, createdAt: o.createdAt.toISOString() };
}
