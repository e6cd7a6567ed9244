// Passwordless sign-in over HTTP: request a link, the landing page the mail opens, verify (GET per spec, or the
// landing page's POST), and the sign-in page.
import type { AppDeps } from '../../../deps.ts';
import type { RouteDef } from '../../../http/route.ts';
import { landingRoute } from './landing.ts';
import { magicLinkRoute } from './magic-link.ts';
import { signInPageRoute } from './sign-in-page.ts';
import { verifyPostRoute, verifyRoute } from './verify.ts';

export function signInRoutes(deps: AppDeps): RouteDef[] {
  return [magicLinkRoute(deps), landingRoute(), verifyRoute(deps), verifyPostRoute(deps), signInPageRoute(deps)];
}
