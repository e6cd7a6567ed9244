// invitations_list: the organization's pending (unanswered, unexpired) invitations. Any member may list them.
import * as v from 'valibot';
import { defineBinding } from '../../define.ts';
import { listPendingInvitations } from '../../store/invitations.ts';
import { invitationView } from '../../services/invitations.ts';
import { InvitationSchema } from './schemas.ts';

export const invitations_list = defineBinding({
  name: 'invitations_list',
  summary: 'List the organization\'s pending invitations.',
  aliases: ['pending invites', 'outstanding invitations'],
  examples: ['const pending = await invitations_list({});\nreturn pending.map((i) => `${i.email} (${i.role}) until ${i.expiresAt}`);'],
  input: v.strictObject({}),
  output: v.array(InvitationSchema),
  scope: 'org:read',
  writes: false,
  async handler(_input, { sql, clock, caller }) {
    return (await listPendingInvitations(sql, caller.membership!.orgId, clock.now())).map(invitationView);
  },
});
