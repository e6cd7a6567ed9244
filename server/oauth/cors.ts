// CORS for browser-based OAuth clients (e.g. a web MCP inspector), including OPTIONS preflights, on the discovery
// documents, the JWKS and the token, registration and revocation endpoints. The public documents allow any origin
// (they carry no credentials); the endpoints that issue or revoke tokens admit only allowed origins (spec
// section 5.8: 403 ORIGIN_NOT_ALLOWED). No cookies are ever allowed cross-origin.
import type Koa from 'koa';
import type { AppDeps } from '../deps.ts';
import { originNotAllowed } from '../http/messages.ts';
import { isAllowedOrigin } from '../middleware/origin.ts';
import { OAUTH_PATHS } from './metadata.ts';

const PUBLIC_PATHS = new Set([
  '/.well-known/oauth-authorization-server',
  '/.well-known/openid-configuration',
  '/.well-known/oauth-protected-resource/v1/mcp',
  '/.well-known/oauth-protected-resource/mcp',
  OAUTH_PATHS.jwks,
]);
// The MCP endpoint is here too (research/mcp.md B3): browser clients from allowed origins, WWW-Authenticate exposed.
const ORIGIN_CHECKED_PATHS = new Set<string>([OAUTH_PATHS.token, OAUTH_PATHS.register, OAUTH_PATHS.revoke, '/v1/mcp', '/mcp']);

const ALLOW_HEADERS = 'Authorization, Content-Type, MCP-Protocol-Version, X-Service-Locale';
const EXPOSE_HEADERS = 'WWW-Authenticate, Retry-After, RateLimit-Limit, RateLimit-Remaining, RateLimit-Reset, RateLimit-Policy, x-request-id';

export function isOAuthCorsPath(path: string): boolean {
  return PUBLIC_PATHS.has(path) || ORIGIN_CHECKED_PATHS.has(path);
}

export function oauthCors(deps: Pick<AppDeps, 'config'>): Koa.Middleware {
  return async function oauthCorsMiddleware(ctx, next) {
    // The router matches paths whatever their case and trailing slash: so do the CORS answers.
    const path = ctx.path.length > 1 ? ctx.path.toLowerCase().replace(/\/+$/, '') : ctx.path;
    const isPublic = PUBLIC_PATHS.has(path);
    if (!isPublic && !ORIGIN_CHECKED_PATHS.has(path)) return next();
    const origin = ctx.get('origin');
    const methods = isPublic ? 'GET, OPTIONS' : 'POST, OPTIONS';
    if (origin) {
      if (!isPublic && !isAllowedOrigin(deps.config, origin)) throw originNotAllowed(ctx.state.locale, origin);
      ctx.set('Access-Control-Allow-Origin', isPublic ? '*' : origin);
      if (!isPublic) ctx.vary('Origin');
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
