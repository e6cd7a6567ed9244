// Every route of the OAuth authorization server.
import type { AppDeps } from '../../deps.ts';
import type { RouteDef } from '../../http/route.ts';
import { authorizeRoutes } from './authorize.ts';
import { oauthEndpointRoutes } from './endpoints.ts';

export function oauthRoutes(deps: AppDeps): RouteDef[] {
  return [...authorizeRoutes(deps), ...oauthEndpointRoutes(deps)];
}
