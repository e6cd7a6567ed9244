// POST /oauth/authorize: the consent decision. Same-origin, with the session-bound CSRF ticket of the consent page,
// answered by a 303 to the client with code, state and iss; a form that cannot be trusted gets an error page.
import type Koa from 'koa';
import * as v from 'valibot';
import type { AppDeps } from '../../deps.ts';
import { invokeDeps } from '../../deps.ts';
import { defineRoute, type RouteDef } from '../../http/route.ts';
import { type Caller, type ClientRow, type Locale, ServiceError, findClient, invoke, organization_create } from '../../../runtime-api/index.ts';
import { checkOrigin } from '../../middleware/origin.ts';
import { pageLocale } from '../../pages/layout.ts';
import { oauthConsentPage, oauthErrorPage } from '../../pages/oauth-pages.ts';
import { authorizationResponseUrl, openConsentTicket, type TicketClaims } from '../../oauth/authorize-request.ts';
import { approveConsent, consentOrganizations } from '../../oauth/consent.ts';
import { OAuthError } from '../../oauth/errors.ts';
import { readForm, type Form } from '../../oauth/form.ts';
import { OAUTH_PATHS } from '../../oauth/metadata.ts';
import { CONSENT_REFUSALS } from '../../oauth/messages.ts';
import { redirectToClient } from './redirect-to-client.ts';

const ConsentBody = v.object({
  csrf_token: v.pipe(v.string(), v.description('The signed, session-bound ticket from the consent page.')),
  decision: v.pipe(
    v.picklist(['approve', 'deny', 'create']),
    v.description('`create` makes a new organization (owned by the user) and shows the page again with it selected.'),
  ),
  organization_id: v.optional(v.pipe(v.string(), v.description('The organization the grant acts on (needed to approve).'))),
  new_organization_name: v.optional(v.pipe(v.string(), v.description("With decision=create: the new organization's name."))),
  new_organization_slug: v.optional(v.pipe(v.string(), v.description('With decision=create: its slug (lower-case letters, digits, inner hyphens).'))),
});

/** A consent form refused with an error page for the user, rather than a redirect to the client. */
class Refused extends Error {
  readonly code: string;
  readonly status: number;
  constructor(code: string, description: string, status = 400) {
    super(description);
    this.code = code;
    this.status = status;
  }
}

const forbidden = (description: string) => new Refused('access_denied', description, 403);

function requireThisSite(deps: AppDeps, ctx: Koa.Context, locale: Locale): void {
  try {
    checkOrigin(ctx, deps.config);
  } catch (err) {
    if (err instanceof ServiceError) throw forbidden(CONSENT_REFUSALS.notThisSite[locale]);
    throw err;
  }
}

async function readConsentForm(ctx: Koa.Context): Promise<Form> {
  try {
    return await readForm(ctx);
  } catch (err) {
    if (err instanceof OAuthError) throw new Refused(err.code, err.message);
    throw err;
  }
}

function signedIn(ctx: Koa.Context, locale: Locale): { sessionId: string; caller: Caller } {
  const session = ctx.state.session;
  const caller = ctx.state.caller;
  if (!session || caller?.kind !== 'session') {
    throw forbidden(CONSENT_REFUSALS.notSignedIn[locale]);
  }
  return { sessionId: session.id, caller };
}

/** The authorization request the consent page was shown for, carried by its CSRF ticket. */
async function openTicket(deps: AppDeps, form: Form, sessionId: string, locale: Locale): Promise<TicketClaims> {
  if (!form.csrf_token) throw forbidden(CONSENT_REFUSALS.noTicket[locale]);
  const ticket = await openConsentTicket(deps, form.csrf_token, sessionId);
  if (!ticket) throw forbidden(CONSENT_REFUSALS.badTicket[locale]);
  return ticket;
}

async function ticketClient(deps: AppDeps, ticket: TicketClaims, locale: Locale): Promise<ClientRow> {
  const client = await findClient(deps.sql, ticket.cid);
  if (!client) throw new Refused('invalid_client', CONSENT_REFUSALS.clientGone[locale]);
  return client;
}

/** A refusal of the binding as the page says it: its message and resolution, in either error shape. */
function refusalText(err: ServiceError, locale: Locale): string {
  const body = err.toBody(locale) as { error?: { message: string; resolution: string }; message?: string };
  return body.error ? `${body.error.message} ${body.error.resolution}` : String(body.message);
}

/**
 * A newcomer with no organization creates one here (the organization_create binding, as this session) and
 * continues with it selected: the same ticket, the same request.
 */
async function createOrganizationAndAskAgain(
  deps: AppDeps,
  ctx: Koa.Context,
  d: { form: Form; ticket: TicketClaims; client: ClientRow; caller: Caller; locale: Locale },
): Promise<void> {
  const { form, ticket, client, caller } = d;
  const page = { clientName: client.clientName ?? client.clientId, redirectUri: ticket.ruri, email: caller.email, ticket: form.csrf_token };
  let created: { id: string } | null = null;
  let error: string | undefined;
  try {
    created = await invoke(organization_create, { name: form.new_organization_name ?? '', slug: form.new_organization_slug ?? '' }, caller, invokeDeps(deps));
  } catch (err) {
    if (!(err instanceof ServiceError) || err.status >= 500) throw err;
    error = refusalText(err, d.locale);
  }
  const organizations = await consentOrganizations(deps, caller.userId, ticket.scp.split(' '));
  oauthConsentPage(ctx, { ...page, organizations, selected: created?.id ?? null, error });
}

async function decide(deps: AppDeps, ctx: Koa.Context, locale: Locale): Promise<void> {
  requireThisSite(deps, ctx, locale);
  const form = await readConsentForm(ctx);
  const { sessionId, caller } = signedIn(ctx, locale);
  const ticket = await openTicket(deps, form, sessionId, locale);
  const client = await ticketClient(deps, ticket, locale);
  const back = (params: Parameters<typeof authorizationResponseUrl>[2]) =>
    redirectToClient(ctx, authorizationResponseUrl(deps.config.publicBaseUrl, ticket.ruri, { ...params, state: ticket.st }), 303);
  if (form.decision === 'deny') return back({ error: 'access_denied', error_description: 'the user denied the request' });
  if (form.decision === 'create') return createOrganizationAndAskAgain(deps, ctx, { form, ticket, client, caller, locale });
  if (form.decision !== 'approve') throw new Refused('invalid_request', CONSENT_REFUSALS.badDecision[locale]);
  const approval = await approveConsent(deps, {
    client,
    userId: caller.userId,
    orgId: form.organization_id ?? '',
    requested: ticket.scp.split(' '),
    resource: ticket.res,
    redirectUri: ticket.ruri,
    codeChallenge: ticket.cc,
  });
  if ('notMember' in approval) throw new Refused('invalid_request', CONSENT_REFUSALS.notMember[locale]);
  if ('denied' in approval) return back({ error: 'access_denied', error_description: approval.denied });
  back({ code: approval.code });
}

export function consentDecisionRoute(deps: AppDeps): RouteDef {
  return defineRoute({
    method: 'POST',
    path: OAUTH_PATHS.authorize,
    operationId: 'oauthConsent',
    summary: 'OAuth consent decision (form post from the consent page)',
    description:
      "Needs the session cookie, a same-origin request and the page's `csrf_token` (bound to the session, valid 10 minutes). Approve: 303 to the client with `code` (single use, 2 minutes), `state` and `iss`. Deny: 303 with `error=access_denied`.",
    tags: ['oauth'],
    auth: 'session',
    authCheck: 'handler',
    body: { contentType: 'application/x-www-form-urlencoded', schema: ConsentBody },
    responses: {
      303: {
        description: 'Back to the client: `code`, `state`, `iss` (or `error=access_denied`).',
        headers: { Location: "The client's redirect URI with the response." },
      },
      400: { description: 'The form is malformed, or the organization cannot be used.', contentType: 'text/html' },
      403: {
        description: 'No session, a missing, forged or expired CSRF ticket, a ticket of another session, or a cross-origin post.',
        contentType: 'text/html',
      },
    },
    errors: [],
    async handle(ctx) {
      try {
        await decide(deps, ctx, pageLocale(ctx));
      } catch (err) {
        if (err instanceof Refused) return oauthErrorPage(ctx, err.code, err.message, err.status);
        throw err;
      }
    },
  });
}
