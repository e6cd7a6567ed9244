// invitations_received: the pending invitations addressed to the caller's own e-mail address (user-level), so a
// signed-in person can answer them without the mailed link.
import * as v from 'valibot';
import { defineBinding } from '../../define.ts';
import { listPendingForEmail } from '../../store/invitations.ts';
import { RoleSchema, PERSONAL_NOTE } from './schemas.ts';

export const invitations_received = defineBinding({
  name: 'invitations_received',
  summary: 'The pending invitations sent to the caller\'s e-mail address, with each organization\'s name.',
  description: PERSONAL_NOTE,
  input: v.strictObject({}),
  output: v.array(v.object({
    id: v.string(),
    organizationId: v.string(),
    organizationName: v.string(),
    role: RoleSchema,
    expiresAt: v.string(),
  })),
  scope: null,
  writes: false,
  needsOrganization: false,
  personal: true,
  async handler(_input, { sql, clock, caller }) {
    const rows = await listPendingForEmail(sql, caller.email, clock.now());
    return rows.map((r) => ({ id: r.id, organizationId: r.orgId, organizationName: r.orgName, role: r.role, expiresAt: r.expiresAt.toISOString() }));
  },
});
