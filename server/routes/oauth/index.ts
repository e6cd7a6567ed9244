// Every route of the OAuth authorization server: the authorization endpoint and its consent decision, then the
// endpoints clients call directly. Protocol errors of the latter are `{error, error_description}` (RFC 6749 5.2).
import type { AppDeps } from '../../deps.ts';
import type { RouteDef } from '../../http/route.ts';
import { oauthLimiter } from '../../oauth/limits.ts';
import { authorizeRoute } from './authorize.ts';
import { consentDecisionRoute } from './consent-decision.ts';
import { jwksRoute } from './jwks.ts';
import { registerRoute } from './register.ts';
import { revokeRoute } from './revoke.ts';
import { tokenRoute } from './token.ts';

export function oauthRoutes(deps: AppDeps): RouteDef[] {
  // Registration and token requests count in one store (in memory, bounded as a whole).
  const limit = oauthLimiter(deps);
  return [authorizeRoute(deps), consentDecisionRoute(deps), registerRoute(deps, limit), tokenRoute(deps, limit), revokeRoute(deps), jwksRoute(deps)];
}
