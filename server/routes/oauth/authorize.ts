// /oauth/authorize: GET validates the request (bad client or redirect URI → an error page, never a redirect;
// other errors → redirect with error, state and iss), then shows the sign-in page (no session; the magic link
// resumes this very request) or the consent page with an organization picker. POST is the consent decision:
// same-origin, with the session-bound CSRF ticket, answered by a 303 to the client with code, state and iss.
import type Koa from 'koa';
import * as v from 'valibot';
import type { AppDeps } from '../../deps.ts';
import { defineRoute, type RouteDef } from '../../http/route.ts';
import { ServiceError, tr, findMembership, mcpAccess, listUserOrganizations, findClient, invoke, organization_create } from '../../../runtime-api/index.ts';
import { checkOrigin } from '../../middleware/origin.ts';
import { pageLocale } from '../../pages/layout.ts';
import { oauthConsentPage, oauthErrorPage, oauthSignInPage, type ConsentOrganization } from '../../pages/oauth-pages.ts';
import {
  AuthorizePageError, AuthorizeRedirectError, authorizationResponseUrl, consentTicket, openConsentTicket, parseAuthorizeRequest,
} from '../../oauth/authorize-request.ts';
import { OAuthError } from '../../oauth/errors.ts';
import { readForm } from '../../oauth/form.ts';
import { createAuthorization, grantableScopes } from '../../oauth/grants.ts';
import { OAUTH_PATHS } from '../../oauth/metadata.ts';
import { invokeDeps } from '../../deps.ts';

const AuthorizeQuery = v.object({
  response_type: v.pipe(v.literal('code'), v.description('Only `code`.')),
  client_id: v.pipe(v.string(), v.description('From dynamic registration (POST /oauth/register).')),
  redirect_uri: v.pipe(v.string(), v.description('Exactly as registered; the port of an http loopback URI may differ.')),
  code_challenge: v.pipe(v.string(), v.description('PKCE: base64url SHA-256 of the code verifier.')),
  code_challenge_method: v.pipe(v.literal('S256'), v.description('Only `S256`.')),
  state: v.optional(v.pipe(v.string(), v.description('Echoed in the redirect.'))),
  scope: v.optional(v.pipe(v.string(), v.description('Space-separated; defaults to every grantable scope. Capped at consent by the role and the organization\'s maxScopes.'))),
  resource: v.optional(v.pipe(v.string(), v.description('RFC 8707: `{base}/v1/mcp` (default) or `{base}/mcp`; becomes the access token audience.'))),
  prompt: v.optional(v.pipe(v.string(), v.description('`none` fails with login_required or consent_required; anything else shows the pages.'))),
  lang: v.optional(v.pipe(v.picklist(['en-US', 'pt-BR']), v.description('Page language (else x-service-locale, then Accept-Language).'))),
});

const ConsentBody = v.object({
  csrf_token: v.pipe(v.string(), v.description('The signed, session-bound ticket from the consent page.')),
  decision: v.pipe(v.picklist(['approve', 'deny', 'create']), v.description('`create` makes a new organization (owned by the user) and shows the page again with it selected.')),
  organization_id: v.optional(v.pipe(v.string(), v.description('The organization the grant acts on (needed to approve).'))),
  new_organization_name: v.optional(v.pipe(v.string(), v.description('With decision=create: the new organization\'s name.'))),
  new_organization_slug: v.optional(v.pipe(v.string(), v.description('With decision=create: its slug (lower-case letters, digits, inner hyphens).'))),
});

function redirect(ctx: Koa.Context, location: string, status: 302 | 303): void {
  ctx.set('Cache-Control', 'no-store');
  ctx.set('Referrer-Policy', 'no-referrer');
  ctx.redirect(location);
  ctx.status = status;
}

export async function consentOrganizations(deps: Pick<AppDeps, 'sql'>, userId: string, requested: readonly string[]): Promise<ConsentOrganization[]> {
  const orgs = await listUserOrganizations(deps.sql, userId);
  return Promise.all(orgs.map(async (o) => {
    const access = await mcpAccess(deps.sql, o.id);
    return { id: o.id, name: o.name, role: o.role, scopes: grantableScopes(requested, o.role, access.maxScopes), mcpRevoked: access.state === 'revoked' };
  }));
}

export function authorizeRoutes(deps: AppDeps): RouteDef[] {
  const issuer = deps.config.publicBaseUrl;
  return [
    defineRoute({
      method: 'GET',
      path: OAUTH_PATHS.authorize,
      operationId: 'oauthAuthorize',
      summary: 'OAuth authorization endpoint: sign-in and consent pages',
      description: 'Authorization code flow with PKCE (S256 only). An unknown client or unregistered redirect URI shows an error page (400) and never redirects. Other request errors redirect to the client with `error`, `state` and `iss`. Without a session the sign-in page asks for a magic link that resumes this request; with one, the consent page lets the user pick an organization. Pages: `frame-ancestors \'none\'`, localized by `lang`, `x-service-locale` or Accept-Language.',
      tags: ['oauth'],
      auth: 'none',
      query: AuthorizeQuery,
      responses: {
        200: { description: 'The sign-in page (no session) or the consent page.', contentType: 'text/html' },
        302: { description: 'An error sent back to the client: `error`, `error_description`, `state`, `iss`.', headers: { Location: 'The client\'s redirect URI with the error.' } },
        400: { description: 'Unknown client or redirect URI mismatch (not redirected).', contentType: 'text/html' },
      },
      errors: [],
      async handle(ctx) {
        let req;
        try {
          req = await parseAuthorizeRequest(deps, ctx);
        } catch (err) {
          if (err instanceof AuthorizePageError) return oauthErrorPage(ctx, err.code, err.message);
          if (err instanceof AuthorizeRedirectError) return redirect(ctx, err.location, 302);
          throw err;
        }
        const session = ctx.state.session as { id: string } | undefined;
        const caller = ctx.state.caller;
        const clientName = req.client.clientName ?? req.client.clientId;
        if (!session || caller?.kind !== 'session') {
          if (req.prompt === 'none') {
            return redirect(ctx, authorizationResponseUrl(issuer, req.redirectUri, { error: 'login_required', error_description: 'the user is not signed in', state: req.state }), 302);
          }
          return oauthSignInPage(ctx, { clientName, returnTo: ctx.originalUrl, expired: ctx.state.sessionProblem === 'expired' });
        }
        if (req.prompt === 'none') {
          return redirect(ctx, authorizationResponseUrl(issuer, req.redirectUri, { error: 'consent_required', error_description: 'consent is always asked', state: req.state }), 302);
        }
        const organizations = await consentOrganizations(deps, caller.userId, req.scopes);
        oauthConsentPage(ctx, {
          clientName, redirectUri: req.redirectUri, email: caller.email, ticket: await consentTicket(deps, session.id, req),
          organizations, selected: caller.membership?.orgId ?? null,
        });
      },
    }),
    defineRoute({
      method: 'POST',
      path: OAUTH_PATHS.authorize,
      operationId: 'oauthConsent',
      summary: 'OAuth consent decision (form post from the consent page)',
      description: 'Needs the session cookie, a same-origin request and the page\'s `csrf_token` (bound to the session, valid 10 minutes). Approve: 303 to the client with `code` (single use, 2 minutes), `state` and `iss`. Deny: 303 with `error=access_denied`.',
      tags: ['oauth'],
      auth: 'none',
      body: { contentType: 'application/x-www-form-urlencoded', schema: ConsentBody },
      responses: {
        303: { description: 'Back to the client: `code`, `state`, `iss` (or `error=access_denied`).', headers: { Location: 'The client\'s redirect URI with the response.' } },
        400: { description: 'The form is malformed, or the organization cannot be used.', contentType: 'text/html' },
        403: { description: 'No session, a missing, forged or expired CSRF ticket, a ticket of another session, or a cross-origin post.', contentType: 'text/html' },
      },
      errors: [],
      async handle(ctx) {
        const locale = pageLocale(ctx);
        const forbidden = (description: string) => oauthErrorPage(ctx, 'access_denied', description, 403);
        try {
          checkOrigin(ctx, deps.config);
        } catch (err) {
          if (err instanceof ServiceError) return forbidden(tr(locale, 'The consent form must be sent from this site.', 'O formulário de consentimento precisa ser enviado deste site.'));
          throw err;
        }
        let form;
        try {
          form = await readForm(ctx);
        } catch (err) {
          if (err instanceof OAuthError) return oauthErrorPage(ctx, err.code, err.message);
          throw err;
        }
        const session = ctx.state.session as { id: string } | undefined;
        const caller = ctx.state.caller;
        if (!session || caller?.kind !== 'session') {
          return forbidden(tr(locale, 'You are not signed in (or your session ended); go back to the application and start again.', 'Você não está conectado (ou sua sessão terminou); volte ao aplicativo e comece de novo.'));
        }
        if (!form.csrf_token) return forbidden(tr(locale, 'The consent form is missing its security token.', 'Falta o token de segurança do formulário de consentimento.'));
        const ticket = await openConsentTicket(deps, form.csrf_token, session.id);
        if (!ticket) return forbidden(tr(locale, 'The consent form is invalid or expired, or belongs to another session; go back to the application and start again.', 'O formulário de consentimento é inválido, expirou ou pertence a outra sessão; volte ao aplicativo e comece de novo.'));
        const client = await findClient(deps.sql, ticket.cid);
        if (!client) return oauthErrorPage(ctx, 'invalid_client', 'this client is no longer registered');
        const back = (params: Parameters<typeof authorizationResponseUrl>[2]) => redirect(ctx, authorizationResponseUrl(issuer, ticket.ruri, { ...params, state: ticket.st }), 303);
        if (form.decision === 'deny') return back({ error: 'access_denied', error_description: 'the user denied the request' });
        if (form.decision === 'create') {
          // A newcomer with no organization creates one here (the organization_create binding, as this session) and
          // continues with it selected: the same ticket, the same request.
          const page = { clientName: client.clientName ?? client.clientId, redirectUri: ticket.ruri, email: caller.email, ticket: form.csrf_token };
          let created: { id: string } | null = null;
          let error: string | undefined;
          try {
            created = await invoke(organization_create, { name: form.new_organization_name ?? '', slug: form.new_organization_slug ?? '' }, caller, invokeDeps(deps));
          } catch (err) {
            if (!(err instanceof ServiceError) || err.status >= 500) throw err;
            const body = err.toBody(locale) as { error?: { message: string; resolution: string }; message?: string };
            error = body.error ? `${body.error.message} ${body.error.resolution}` : String(body.message);
          }
          const organizations = await consentOrganizations(deps, caller.userId, ticket.scp.split(' '));
          return oauthConsentPage(ctx, { ...page, organizations, selected: created?.id ?? null, error });
        }
        if (form.decision !== 'approve') return oauthErrorPage(ctx, 'invalid_request', 'decision must be approve or deny');
        const orgId = form.organization_id ?? '';
        const membership = orgId ? await findMembership(deps.sql, caller.userId, orgId) : null;
        if (!membership) return oauthErrorPage(ctx, 'invalid_request', tr(locale, 'Choose an organization you belong to.', 'Escolha uma organização da qual você faz parte.'));
        const access = await mcpAccess(deps.sql, orgId);
        if (access.state === 'revoked') return back({ error: 'access_denied', error_description: 'MCP access of the chosen organization is revoked' });
        const scopes = grantableScopes(ticket.scp.split(' '), membership.role, access.maxScopes);
        if (!scopes.length) return back({ error: 'access_denied', error_description: 'none of the requested scopes can be granted in the chosen organization' });
        const code = await createAuthorization(deps, {
          client, userId: caller.userId, orgId, scopes, resource: ticket.res, redirectUri: ticket.ruri, codeChallenge: ticket.cc,
        });
        back({ code });
      },
    }),
  ];
}
