// Who is calling: resolved once by the server (session cookie or Bearer token) or fixed for an execution,
// and never taken from binding arguments.
import type { Locale } from '../errors.ts';
import type { Role, Scope } from './scopes.ts';

export interface OrgMembership {
  orgId: string;
  memberId: string;
  role: Role;
}

export interface Caller {
  /** `session` = a signed-in browser/API user; `token` = an OAuth/minted access token; `system` = janitors and tests. */
  kind: 'session' | 'token' | 'system';
  userId: string;
  email: string;
  /** The organization the call acts on, when one is selected (always for tokens). */
  membership: OrgMembership | null;
  /** Effective scopes: role ∩ token scopes ∩ organization ceiling. */
  scopes: readonly Scope[];
  locale: Locale;
  /** OAuth client id, for the audit log (`mint-token` for minted tokens). */
  clientId?: string;
  /** Token id (`jti`) or session id, for per-credential limits. */
  credentialId?: string;
}

/** The `client_id` of an API key caller, in the audit log and for the checks that tell keys from OAuth tokens. */
export const API_KEY_CLIENT_ID = 'api-key';

/**
 * Whether `caller` authenticated with an organization API key (rather than as a person: session or OAuth token).
 * It lives with the caller, not with the API key service: invoke's authorization asks it of every call, and the
 * chokepoint must not reach up into a service that stores keys.
 */
export function isApiKeyCaller(caller: Caller): boolean {
  return caller.kind === 'token' && caller.clientId === API_KEY_CLIENT_ID;
}

/**
 * The credential a caller presented: what a refusal tells it to get instead depends on it (a new access token from
 * the authorization server, a new API key, or a role from an admin: never the wrong one).
 */
export type Credential = 'session' | 'access-token' | 'api-key' | 'system';

export function credentialOf(caller: Caller): Credential {
  if (caller.kind === 'token') return isApiKeyCaller(caller) ? 'api-key' : 'access-token';
  return caller.kind;
}
