// The client a token or revocation request names: public clients identify themselves by client_id alone.
import { findClient, type ClientRow } from '../../../runtime-api/index.ts';
import type { AppDeps } from '../../deps.ts';
import { OAuthError } from '../../oauth/errors.ts';

export async function publicClient(deps: Pick<AppDeps, 'sql'>, clientId: string | undefined): Promise<ClientRow> {
  if (!clientId)
    throw new OAuthError('invalid_client', 'client_id is required (public clients identify themselves with client_id and prove possession with PKCE)');
  const client = await findClient(deps.sql, clientId);
  if (!client) throw new OAuthError('invalid_client', 'unknown client_id; register the client again (POST /oauth/register)');
  return client;
}
