// What the consent page offers and what approving grants: in each of the user's organizations, the requested scopes
// their role and the organization's maxScopes allow, none while its MCP access is revoked.
import type { AppDeps } from '../deps.ts';
import { findMembership, listUserOrganizations, mcpAccess, type ClientRow } from '../../runtime-api/index.ts';
import type { ConsentOrganization } from '../pages/oauth-pages.ts';
import { createAuthorization, grantableScopes } from './grants.ts';

export async function consentOrganizations(deps: Pick<AppDeps, 'sql'>, userId: string, requested: readonly string[]): Promise<ConsentOrganization[]> {
  const orgs = await listUserOrganizations(deps.sql, userId);
  return Promise.all(
    orgs.map(async (o) => {
      const access = await mcpAccess(deps.sql, o.id);
      return { id: o.id, name: o.name, role: o.role, scopes: grantableScopes(requested, o.role, access.maxScopes), mcpRevoked: access.state === 'revoked' };
    }),
  );
}

/** An approval's outcome: the code for the client, a refusal to tell the client, or an organization the user is not in. */
export type Approval = { code: string } | { denied: string } | { notMember: true };

/** Approve the request in `orgId` (empty: none chosen): the grant and its code, if the organization can grant anything. */
export async function approveConsent(
  deps: Pick<AppDeps, 'sql' | 'clock' | 'keys' | 'config'>,
  input: {
    client: ClientRow;
    userId: string;
    orgId: string;
    requested: readonly string[];
    resource: string;
    redirectUri: string;
    codeChallenge: string;
  },
): Promise<Approval> {
  const { orgId } = input;
  const membership = orgId ? await findMembership(deps.sql, input.userId, orgId) : null;
  if (!membership) return { notMember: true };
  const access = await mcpAccess(deps.sql, orgId);
  if (access.state === 'revoked') return { denied: 'MCP access of the chosen organization is revoked' };
  const scopes = grantableScopes(input.requested, membership.role, access.maxScopes);
  if (!scopes.length) return { denied: 'none of the requested scopes can be granted in the chosen organization' };
  const code = await createAuthorization(deps, {
    client: input.client,
    userId: input.userId,
    orgId,
    scopes,
    resource: input.resource,
    redirectUri: input.redirectUri,
    codeChallenge: input.codeChallenge,
  });
  return { code };
}
