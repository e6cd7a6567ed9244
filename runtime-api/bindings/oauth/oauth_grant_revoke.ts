// oauth_grant_revoke: cut an app off the organization — its refresh tokens die and its access tokens are refused
// on their next request (every Bearer request checks its grant). Session callers only: an agent cannot revoke
// other agents' grants with a token it was given.
import * as v from 'valibot';
import { defineBinding } from '../../define.ts';
import { ServiceError } from '../../errors.ts';
import { isAdminRole } from '../../identity/scopes.ts';
import { grantNotFound } from '../../services/organization-messages.ts';
import { revokeOrgGrant } from '../../store/oauth.ts';
import { GrantIdSchema } from './schemas.ts';

export const oauth_grant_revoke = defineBinding({
  name: 'oauth_grant_revoke',
  summary: "Revoke an OAuth grant of the organization: the app's tokens stop working at once.",
  pt: {
    summary: 'Revoga uma autorização OAuth da organização: os tokens do aplicativo param de funcionar na hora.',
    aliases: ['desconectar aplicativo', 'revogar aplicativo', 'cortar acesso de agente', 'revogar autorização'],
  },
  description: 'Owners and admins only, from a signed-in session. An unknown, foreign or already revoked grant is 404 not_found.',
  input: v.strictObject({ grantId: GrantIdSchema }),
  output: v.object({ id: v.pipe(v.string(), v.description('The same as `grantId`.')), grantId: v.string(), revoked: v.literal(true) }),
  scope: 'org:admin',
  writes: true,
  sessionOnly: true,
  async handler(input, { sql, clock, caller }) {
    const membership = caller.membership!;
    if (!isAdminRole(membership.role)) throw new ServiceError('ORGANIZATION_ADMIN_REQUIRED');
    if (!(await revokeOrgGrant(sql, membership.orgId, input.grantId, `revoked by ${caller.userId}`, clock.now()))) {
      throw grantNotFound();
    }
    return { id: input.grantId, grantId: input.grantId, revoked: true as const };
  },
});
