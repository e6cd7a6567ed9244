// invitations_received: the pending invitations addressed to the caller's own e-mail address (user-level), so a
// signed-in person can answer them without the mailed link. A list like every other: `{ items, nextCursor }`.
import * as v from 'valibot';
import { defineBinding } from '../../define.ts';
import { byCreation, listInputEntries, listOutput, pageOf } from '../../list-page.ts';
import { listPendingForEmail } from '../../store/invitations.ts';
import { RoleSchema, PERSONAL_NOTE } from './schemas.ts';

export const invitations_received = defineBinding({
  name: 'invitations_received',
  summary: "The pending invitations sent to the caller's e-mail address, with each organization's name.",
  pt: {
    summary: 'Os convites pendentes enviados ao e-mail de quem chama, com o nome de cada organização.',
    aliases: ['meus convites', 'convites recebidos', 'fui convidado'],
  },
  description: PERSONAL_NOTE,
  examples: ['const { items } = await invitations_received({});\nreturn items.map((i) => `${i.organizationName} as ${i.role}`);'],
  input: v.strictObject({ ...listInputEntries() }),
  output: listOutput(
    v.object({
      id: v.pipe(v.string(), v.description('Invitation id; the same as `invitationId`.')),
      invitationId: v.string(),
      organizationId: v.string(),
      organizationName: v.string(),
      role: RoleSchema,
      expiresAt: v.string(),
    }),
    'invitations',
  ),
  scope: null,
  writes: false,
  needsOrganization: false,
  personal: true,
  async handler(input, { sql, clock, caller }) {
    const rows = await listPendingForEmail(sql, caller.email, clock.now());
    return pageOf('invitations_received', rows, input, { key: byCreation }, (r) => ({
      id: r.id,
      invitationId: r.id,
      organizationId: r.orgId,
      organizationName: r.orgName,
      role: r.role,
      expiresAt: r.expiresAt.toISOString(),
    }));
  },
});
