// GET /oauth/authorize: validates the request (bad client or redirect URI → an error page, never a redirect; other
// errors → redirect with error, state and iss), then shows the sign-in page (no session; the magic link resumes this
// very request) or the consent page with an organization picker.
import type Koa from 'koa';
import * as v from 'valibot';
import type { AppDeps } from '../../deps.ts';
import { defineRoute, type RouteDef } from '../../http/route.ts';
import { oauthConsentPage, oauthErrorPage, oauthSignInPage } from '../../pages/oauth-pages.ts';
import {
  AuthorizePageError,
  AuthorizeRedirectError,
  authorizationResponseUrl,
  consentTicket,
  parseAuthorizeRequest,
  type AuthorizeRequest,
} from '../../oauth/authorize-request.ts';
import { consentOrganizations } from '../../oauth/consent.ts';
import { OAUTH_PATHS } from '../../oauth/metadata.ts';
import { redirectToClient } from './redirect-to-client.ts';
import { callerOf } from '../../http/request-state.ts';

const AuthorizeQuery = v.object({
  response_type: v.pipe(v.literal('code'), v.description('Only `code`.')),
  client_id: v.pipe(v.string(), v.description('From dynamic registration (POST /oauth/register).')),
  redirect_uri: v.pipe(v.string(), v.description('Exactly as registered; the port of an http loopback URI may differ.')),
  code_challenge: v.pipe(v.string(), v.description('PKCE: base64url SHA-256 of the code verifier.')),
  code_challenge_method: v.pipe(v.literal('S256'), v.description('Only `S256`.')),
  state: v.optional(v.pipe(v.string(), v.description('Echoed in the redirect.'))),
  scope: v.optional(
    v.pipe(v.string(), v.description("Space-separated; defaults to every grantable scope. Capped at consent by the role and the organization's maxScopes.")),
  ),
  resource: v.optional(v.pipe(v.string(), v.description('RFC 8707: `{base}/v1/mcp` (default) or `{base}/mcp`; becomes the access token audience.'))),
  prompt: v.optional(v.pipe(v.string(), v.description('`none` fails with login_required or consent_required; anything else shows the pages.'))),
  lang: v.optional(v.pipe(v.picklist(['en-US', 'pt-BR']), v.description('Page language (else x-service-locale, then Accept-Language).'))),
});

/** The validated request, or null once its error has been answered (a page, or a redirect to the client). */
async function parseRequest(deps: AppDeps, ctx: Koa.Context): Promise<AuthorizeRequest | null> {
  try {
    return await parseAuthorizeRequest(deps, ctx);
  } catch (err) {
    if (err instanceof AuthorizePageError) {
      oauthErrorPage(ctx, err.code, err.message);
      return null;
    }
    if (err instanceof AuthorizeRedirectError) {
      redirectToClient(ctx, err.location, 302);
      return null;
    }
    throw err;
  }
}

/** `prompt=none` asks for an answer without any page: the client hears why one would have been needed. */
function failSilently(deps: AppDeps, ctx: Koa.Context, req: AuthorizeRequest, error: 'login_required' | 'consent_required', description: string): void {
  redirectToClient(ctx, authorizationResponseUrl(deps.config.publicBaseUrl, req.redirectUri, { error, error_description: description, state: req.state }), 302);
}

async function showConsent(deps: AppDeps, ctx: Koa.Context, req: AuthorizeRequest, sessionId: string): Promise<void> {
  const caller = callerOf(ctx);
  const organizations = await consentOrganizations(deps, caller.userId, req.scopes);
  oauthConsentPage(ctx, {
    clientName: req.client.clientName ?? req.client.clientId,
    redirectUri: req.redirectUri,
    email: caller.email,
    ticket: await consentTicket(deps, sessionId, req),
    organizations,
    selected: caller.membership?.orgId ?? null,
  });
}

export function authorizeRoute(deps: AppDeps): RouteDef {
  return defineRoute({
    method: 'GET',
    path: OAUTH_PATHS.authorize,
    operationId: 'oauthAuthorize',
    summary: 'OAuth authorization endpoint: sign-in and consent pages',
    description:
      "Authorization code flow with PKCE (S256 only). An unknown client or unregistered redirect URI shows an error page (400) and never redirects. Other request errors redirect to the client with `error`, `state` and `iss`. Without a session the sign-in page asks for a magic link that resumes this request; with one, the consent page lets the user pick an organization. Pages: `frame-ancestors 'none'`, localized by `lang`, `x-service-locale` or Accept-Language.",
    tags: ['oauth'],
    auth: 'session',
    authCheck: 'optional',
    query: AuthorizeQuery,
    responses: {
      200: { description: 'The sign-in page (no session) or the consent page.', contentType: 'text/html' },
      302: {
        description: 'An error sent back to the client: `error`, `error_description`, `state`, `iss`.',
        headers: { Location: "The client's redirect URI with the error." },
      },
      400: { description: 'Unknown client or redirect URI mismatch (not redirected).', contentType: 'text/html' },
    },
    errors: [],
    async handle(ctx) {
      const req = await parseRequest(deps, ctx);
      if (!req) return;
      const session = ctx.state.session;
      if (!session || ctx.state.caller?.kind !== 'session') {
        if (req.prompt === 'none') return failSilently(deps, ctx, req, 'login_required', 'the user is not signed in');
        return oauthSignInPage(ctx, {
          clientName: req.client.clientName ?? req.client.clientId,
          returnTo: ctx.originalUrl,
          expired: ctx.state.sessionProblem === 'expired',
        });
      }
      if (req.prompt === 'none') return failSilently(deps, ctx, req, 'consent_required', 'consent is always asked');
      await showConsent(deps, ctx, req, session.id);
    },
  });
}
