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
