// The authorization request (GET /oauth/authorize) validated once, and carried to the consent POST inside a signed,
// short-lived ticket bound to the browser session: the ticket is the consent form's CSRF token (another session,
// or a forged or stale form, cannot produce one that verifies).
import type Koa from 'koa';
import { SignJWT, jwtVerify, decodeProtectedHeader } from 'jose';
import type { AppDeps } from '../deps.ts';
import { findClient, type ClientRow } from '../../runtime-api/index.ts';
import { OAuthError, type OAuthErrorCode } from './errors.ts';
import { queryParam } from './form.ts';
import { canonicalResource, OAUTH_LIFETIMES } from './metadata.ts';
import { CHALLENGE_PATTERN } from './pkce.ts';
import { matchRedirectUri, withResponseParams } from './redirect-uris.ts';
import { parseScopeParam } from './grants.ts';

export interface AuthorizeRequest {
  client: ClientRow;
  redirectUri: string;
  state?: string;
  scopes: string[];
  codeChallenge: string;
  resource: string;
  prompt?: string;
}

/** An error that must be shown to the user, never redirected (bad client_id or redirect_uri: RFC 6749 4.1.2.1). */
export class AuthorizePageError extends Error {
  readonly code: string;
  constructor(code: string, description: string) {
    super(description);
    this.code = code;
  }
}

/** An error sent back to the client's redirect URI, with `state` and `iss` (RFC 9207). */
export class AuthorizeRedirectError extends Error {
  readonly location: string;
  constructor(location: string, description: string) {
    super(description);
    this.location = location;
  }
}

export function authorizationResponseUrl(
  issuer: string,
  redirectUri: string,
  params: { code?: string; error?: OAuthErrorCode; error_description?: string; state?: string },
): string {
  return withResponseParams(redirectUri, { ...params, iss: issuer });
}

/** Validate the query of an authorization request. Throws AuthorizePageError or AuthorizeRedirectError. */
export async function parseAuthorizeRequest(deps: Pick<AppDeps, 'sql' | 'config'>, ctx: Koa.Context): Promise<AuthorizeRequest> {
  const issuer = deps.config.publicBaseUrl;
  let clientId: string | undefined;
  let redirectUri: string | undefined;
  try {
    clientId = queryParam(ctx, 'client_id');
    redirectUri = queryParam(ctx, 'redirect_uri');
  } catch (err) {
    throw new AuthorizePageError('invalid_request', (err as Error).message);
  }
  if (!clientId) throw new AuthorizePageError('invalid_request', 'client_id is missing');
  const client = await findClient(deps.sql, clientId);
  if (!client) throw new AuthorizePageError('invalid_client', 'this client_id is not registered');
  if (!redirectUri) throw new AuthorizePageError('invalid_request', 'redirect_uri is missing');
  if (!matchRedirectUri(client.redirectUris, redirectUri)) throw new AuthorizePageError('invalid_request', 'redirect_uri is not one this client registered');

  let state: string | undefined;
  try {
    state = queryParam(ctx, 'state');
  } catch {
    /* a repeated state is reported below without echoing it */
  }
  const fail = (error: OAuthErrorCode, description: string) =>
    new AuthorizeRedirectError(authorizationResponseUrl(issuer, redirectUri, { error, error_description: description, state }), description);
  try {
    queryParam(ctx, 'state');
    const responseType = queryParam(ctx, 'response_type');
    if (!responseType) throw new OAuthError('invalid_request', 'response_type is missing');
    if (responseType !== 'code') throw new OAuthError('unsupported_response_type', 'only response_type=code is supported');
    if (!client.responseTypes.includes('code')) throw new OAuthError('unauthorized_client', 'this client may not use response_type=code');
    const challenge = queryParam(ctx, 'code_challenge');
    const method = queryParam(ctx, 'code_challenge_method');
    if (!challenge) throw new OAuthError('invalid_request', 'code_challenge is required (PKCE with S256)');
    if (method !== 'S256') throw new OAuthError('invalid_request', 'code_challenge_method must be S256 (plain is not supported)');
    if (!CHALLENGE_PATTERN.test(challenge)) throw new OAuthError('invalid_request', 'code_challenge must be 43 base64url characters (S256)');
    const scopes = parseScopeParam(queryParam(ctx, 'scope'));
    const resourceParam = queryParam(ctx, 'resource');
    const resource = resourceParam === undefined ? `${issuer}/v1/mcp` : canonicalResource(issuer, resourceParam);
    if (!resource) throw new OAuthError('invalid_target', `resource must be ${issuer}/v1/mcp or ${issuer}/mcp`);
    if (queryParam(ctx, 'request') || queryParam(ctx, 'request_uri')) throw new OAuthError('invalid_request', 'request objects are not supported');
    return { client, redirectUri, state, scopes, codeChallenge: challenge, resource, prompt: queryParam(ctx, 'prompt') };
  } catch (err) {
    if (err instanceof OAuthError) throw fail(err.code, err.message);
    throw err;
  }
}

export interface TicketClaims {
  sid: string;
  cid: string;
  ruri: string;
  st?: string;
  scp: string;
  cc: string;
  res: string;
}

const TICKET_TYPE = 'oauth-consent+jwt';

/** Sign the validated request for the consent form, bound to the session. */
export async function consentTicket(deps: Pick<AppDeps, 'keys' | 'config' | 'clock'>, sessionId: string, req: AuthorizeRequest): Promise<string> {
  const key = deps.keys.active();
  const now = Math.floor(deps.clock.now().getTime() / 1000);
  const claims: TicketClaims = {
    sid: sessionId,
    cid: req.client.clientId,
    ruri: req.redirectUri,
    scp: req.scopes.join(' '),
    cc: req.codeChallenge,
    res: req.resource,
    ...(req.state !== undefined ? { st: req.state } : {}),
  };
  return new SignJWT({ ...claims })
    .setProtectedHeader({ alg: 'ES256', typ: TICKET_TYPE, kid: key.kid })
    .setIssuer(deps.config.publicBaseUrl)
    .setAudience(`${deps.config.publicBaseUrl}/oauth/authorize#consent`)
    .setIssuedAt(now)
    .setExpirationTime(now + OAUTH_LIFETIMES.consentTicketSeconds)
    .sign(key.privateKey);
}

/** The ticket's request, or null when it is forged, stale, or bound to another session. */
export async function openConsentTicket(deps: Pick<AppDeps, 'keys' | 'config' | 'clock'>, ticket: string, sessionId: string): Promise<TicketClaims | null> {
  try {
    const { kid, typ } = decodeProtectedHeader(ticket);
    if (typ !== TICKET_TYPE || !kid) return null;
    const key = await deps.keys.find(kid);
    if (!key) return null;
    const { payload } = await jwtVerify(ticket, key.publicKey, {
      algorithms: ['ES256'],
      typ: TICKET_TYPE,
      issuer: deps.config.publicBaseUrl,
      audience: `${deps.config.publicBaseUrl}/oauth/authorize#consent`,
      currentDate: deps.clock.now(),
    });
    const claims = payload as unknown as TicketClaims;
    return claims.sid === sessionId ? claims : null;
  } catch {
    return null;
  }
}
