// CORS for browser-based OAuth clients (a web MCP inspector, a single-page app), including OPTIONS preflights. Three
// kinds of path:
// - the public documents (discovery, JWKS): GET from any origin;
// - the endpoints of public clients (registration, token, revocation): POST from any web origin. No cookie ever
//   authenticates them (a public client holds no secret: a code is bound to its PKCE verifier, a refresh token to
//   its client), so a foreign page gains nothing a server-side script would not have, and PKCE is meant for
//   browsers. The Origin is still validated as a web origin; an opaque or malformed one is 403 ORIGIN_NOT_ALLOWED;
// - the MCP endpoint (research/mcp.md B3): allowed origins only (spec section 5.8), WWW-Authenticate exposed.
// The authorization page is none of these: it is navigated to, never fetched, and it acts on the session cookie.
// `Access-Control-Allow-Credentials` is never sent: no cookie crosses origins here.
import type Koa from 'koa';
import type { AppDeps } from '../deps.ts';
import { notAWebOrigin, originNotAllowed } from '../http/messages.ts';
import { isAllowedOrigin, isWebOrigin } from '../middleware/origin.ts';
import { OAUTH_PATHS } from './metadata.ts';

const PUBLIC_PATHS = new Set([
  '/.well-known/oauth-authorization-server',
  '/.well-known/openid-configuration',
  '/.well-known/oauth-protected-resource/v1/mcp',
  '/.well-known/oauth-protected-resource/mcp',
  OAUTH_PATHS.jwks,
]);
const PUBLIC_CLIENT_PATHS = new Set<string>([OAUTH_PATHS.token, OAUTH_PATHS.register, OAUTH_PATHS.revoke]);
const ORIGIN_CHECKED_PATHS = new Set<string>(['/v1/mcp', '/mcp']);

const ALLOW_HEADERS = 'Authorization, Content-Type, MCP-Protocol-Version, X-Service-Locale';
const EXPOSE_HEADERS = 'WWW-Authenticate, Retry-After, RateLimit-Limit, RateLimit-Remaining, RateLimit-Reset, RateLimit-Policy, x-request-id';

type Kind = 'document' | 'public-client' | 'allowed-origins';

function kindOf(path: string): Kind | null {
  if (PUBLIC_PATHS.has(path)) return 'document';
  if (PUBLIC_CLIENT_PATHS.has(path)) return 'public-client';
  if (ORIGIN_CHECKED_PATHS.has(path)) return 'allowed-origins';
  return null;
}

export function isOAuthCorsPath(path: string): boolean {
  return kindOf(path) !== null;
}

export function oauthCors(deps: Pick<AppDeps, 'config'>): Koa.Middleware {
  return async function oauthCorsMiddleware(ctx, next) {
    // The router matches paths whatever their case and trailing slash: so do the CORS answers.
    const kind = kindOf(ctx.path.length > 1 ? ctx.path.toLowerCase().replace(/\/+$/, '') : ctx.path);
    if (!kind) return next();
    const origin = ctx.get('origin');
    const methods = kind === 'document' ? 'GET, OPTIONS' : 'POST, OPTIONS';
    if (origin) {
      if (kind === 'public-client' && !isWebOrigin(origin)) throw notAWebOrigin(ctx.state.locale, origin);
      if (kind === 'allowed-origins' && !isAllowedOrigin(deps.config, origin)) throw originNotAllowed(ctx.state.locale, origin);
      if (kind === 'allowed-origins') {
        ctx.set('Access-Control-Allow-Origin', origin);
        ctx.vary('Origin');
      } else {
        ctx.set('Access-Control-Allow-Origin', '*');
      }
    }
    if (ctx.method === 'OPTIONS') {
      ctx.set('Access-Control-Allow-Methods', methods);
      ctx.set('Access-Control-Allow-Headers', ALLOW_HEADERS);
      ctx.set('Access-Control-Max-Age', '600');
      ctx.set('Allow', methods);
      ctx.status = 204;
      return;
    }
    if (origin) ctx.set('Access-Control-Expose-Headers', EXPOSE_HEADERS);
    await next();
  };
}
