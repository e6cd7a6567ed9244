// The organization bindings, in registry order.
import { organization_create } from './organization_create.ts';
import { organizations_list } from './organizations_list.ts';
import { organization_get } from './organization_get.ts';
import { members_list } from './members_list.ts';
import { invitations_list } from './invitations_list.ts';
import { member_invite } from './member_invite.ts';
import { invitation_cancel } from './invitation_cancel.ts';
import { member_update_role } from './member_update_role.ts';
import { member_remove } from './member_remove.ts';
import { invitation_accept } from './invitation_accept.ts';
import { invitation_reject } from './invitation_reject.ts';
import { invitations_received } from './invitations_received.ts';

export {
  organization_create,
  organizations_list,
  organization_get,
  members_list,
  invitations_list,
  member_invite,
  invitation_cancel,
  member_update_role,
  member_remove,
  invitation_accept,
  invitation_reject,
  invitations_received,
};
