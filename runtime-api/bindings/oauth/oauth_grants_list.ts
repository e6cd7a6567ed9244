// oauth_grants_list: the OAuth grants (an app's consent by a member) that hold tokens for the organization, newest first.
import * as v from 'valibot';
import { defineBinding } from '../../define.ts';
import { ServiceError } from '../../errors.ts';
import { byCreation, listInputEntries, listOutput, pageOf } from '../../list-page.ts';
import { isAdminRole } from '../../identity/scopes.ts';
import { listOrgGrants } from '../../store/oauth.ts';
import { GrantSchema } from './schemas.ts';

export const oauth_grants_list = defineBinding({
  name: 'oauth_grants_list',
  summary: 'List the OAuth apps (grants) holding tokens for the organization: client, who consented, scopes, last use.',
  pt: {
    summary: 'Lista os aplicativos OAuth (autorizações) com tokens para a organização: cliente, quem consentiu, escopos, último uso.',
    aliases: ['aplicativos conectados', 'aplicativos oauth', 'clientes autorizados', 'agentes conectados'],
  },
  description: 'Owners and admins only. Revoked grants are not listed. Newest first.',
  aliases: ['connected apps', 'oauth apps', 'authorized clients'],
  examples: [
    'const { items } = await oauth_grants_list({});\nreturn items.map((g) => `${g.clientName ?? g.clientId} by ${g.userEmail}: ${g.scopes.join(" ")}`);',
  ],
  input: v.strictObject({ ...listInputEntries() }),
  output: listOutput(GrantSchema, 'grants'),
  scope: 'org:admin',
  writes: false,
  async handler(input, { sql, caller }) {
    const membership = caller.membership!;
    if (!isAdminRole(membership.role)) throw new ServiceError('ORGANIZATION_ADMIN_REQUIRED');
    const rows = await listOrgGrants(sql, membership.orgId);
    return pageOf('oauth_grants_list', rows, input, { key: byCreation, newestFirst: true }, (g) => ({
      id: g.id,
      grantId: g.id,
      clientId: g.clientId,
      clientName: g.clientName,
      userEmail: g.userEmail,
      scopes: g.scope.split(' ').filter(Boolean),
      createdAt: g.createdAt.toISOString(),
      lastUsedAt: g.lastUsedAt ? g.lastUsedAt.toISOString() : null,
    }));
  },
});
