// Driving the OAuth authorization server headlessly over real HTTP: register a client, build a PKCE authorization
// request, answer the consent page as the signed-in user (session cookie) and exchange the code. The MCP SDK client
// can use `approveAuthorization` inside its provider's `redirectToAuthorization(url)`.
import { createHash, randomBytes } from 'node:crypto';
import type { TestApp } from './app.ts';
import { http, type JsonResponse } from './http.ts';
import type { SmtpCatcher } from './smtp-catcher.ts';
import { signIn, sessionCookieOf } from './session.ts';
import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import type { OAuthClientInformationMixed, OAuthClientMetadata, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';

export interface RegisteredClient {
  client_id: string;
  redirect_uris: string[];
  [member: string]: unknown;
}

export interface Pkce {
  verifier: string;
  challenge: string;
}

export interface AuthorizationResult {
  /** Status of the authorize GET (200 = consent page shown; 302 = redirected at once, with an error). */
  authorizeStatus: number;
  /** The consent page's HTML (empty when the request was redirected at once). */
  consentPage: string;
  /** Where the browser is sent back to, with its parameters. */
  location: URL;
  code?: string;
  state?: string;
  iss?: string;
  error?: string;
}

export interface TokenSet {
  access_token: string;
  token_type: string;
  expires_in: number;
  scope: string;
  refresh_token?: string;
}

export const DEFAULT_REDIRECT_URI = 'http://127.0.0.1:53682/callback';

export function pkce(): Pkce {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

/** A random client address: with TRUST_PROXY=true, each registration counts against its own 5/min budget. */
export function randomClientIp(): string {
  const b = randomBytes(3);
  return `10.${b[0]}.${b[1]}.${b[2]}`;
}

/**
 * Dynamic registration. Sends a random X-Forwarded-For (only honoured when the app runs with TRUST_PROXY=true),
 * so that tests registering many clients stay under the 5/min/IP limit.
 */
export async function registerClient(app: Pick<TestApp, 'url'>, metadata: Record<string, unknown> = {}): Promise<RegisteredClient> {
  const res = await http(`${app.url}/oauth/register`, {
    json: { client_name: 'Test client', redirect_uris: [DEFAULT_REDIRECT_URI], ...metadata },
    headers: { 'x-forwarded-for': randomClientIp() },
  });
  if (res.status !== 201) throw new Error(`registration answered ${res.status}: ${res.text}`);
  return res.body;
}

/** An authorization request URL. `extra` values of `null` drop a default parameter. */
export function authorizeUrl(
  app: Pick<TestApp, 'url'>,
  params: {
    clientId: string;
    redirectUri?: string;
    challenge: string;
    state?: string;
    scope?: string;
    resource?: string;
    extra?: Record<string, string | null>;
  },
): string {
  const url = new URL('/oauth/authorize', app.url);
  const all: Record<string, string | null | undefined> = {
    response_type: 'code',
    client_id: params.clientId,
    redirect_uri: params.redirectUri ?? DEFAULT_REDIRECT_URI,
    code_challenge: params.challenge,
    code_challenge_method: 'S256',
    state: params.state ?? randomBytes(12).toString('base64url'),
    scope: params.scope,
    resource: params.resource ?? `${app.url}/v1/mcp`,
    ...params.extra,
  };
  for (const [k, val] of Object.entries(all)) if (val !== undefined && val !== null) url.searchParams.set(k, val);
  return url.toString();
}

/** Hidden csrf_token and the organizations offered (id, enabled, checked) on a consent page. */
export function parseConsentPage(html: string): { csrfToken: string | null; organizations: { id: string; disabled: boolean; checked: boolean }[] } {
  const csrfToken = /name="csrf_token" value="([^"]*)"/.exec(html)?.[1] ?? null;
  const organizations = [...html.matchAll(/<input type="radio" name="organization_id" value="([^"]*)"([^>]*)>/g)].map((m) => ({
    id: m[1],
    disabled: m[2].includes('disabled'),
    checked: m[2].includes('checked'),
  }));
  return { csrfToken, organizations };
}

function resultOf(authorizeStatus: number, consentPage: string, location: string): AuthorizationResult {
  const url = new URL(location);
  const get = (name: string) => url.searchParams.get(name) ?? undefined;
  return { authorizeStatus, consentPage, location: url, code: get('code'), state: get('state'), iss: get('iss'), error: get('error') };
}

/**
 * Open an authorization URL as the signed-in user (`cookie`) and answer the consent page: approve (default) for
 * `organizationId` (default: the organization the page preselects) or deny. Returns where the browser is sent back.
 */
export async function approveAuthorization(
  authorizationUrl: string | URL,
  options: {
    cookie: string;
    organizationId?: string;
    decision?: 'approve' | 'deny';
    locale?: string;
  },
): Promise<AuthorizationResult> {
  const url = new URL(authorizationUrl);
  const headers: Record<string, string> = { cookie: options.cookie, accept: 'text/html', ...(options.locale ? { 'x-service-locale': options.locale } : {}) };
  const page = await http(url.toString(), { headers });
  if (page.status === 302 || page.status === 303) return resultOf(page.status, '', String(page.headers.location));
  if (page.status !== 200) throw new Error(`authorize answered ${page.status}: ${page.text.slice(0, 300)}`);
  const { csrfToken, organizations } = parseConsentPage(page.text);
  if (!csrfToken) throw new Error(`no consent form (not signed in?): ${page.text.slice(0, 300)}`);
  const organizationId = options.organizationId ?? organizations.find((o) => o.checked)?.id ?? organizations.find((o) => !o.disabled)?.id;
  const form = new URLSearchParams({
    csrf_token: csrfToken,
    decision: options.decision ?? 'approve',
    ...(organizationId ? { organization_id: organizationId } : {}),
  });
  const res = await http(`${url.origin}/oauth/authorize`, {
    method: 'POST',
    body: form.toString(),
    headers: { ...headers, origin: url.origin, 'content-type': 'application/x-www-form-urlencoded' },
  });
  if (res.status !== 303) throw new Error(`consent answered ${res.status}: ${res.text.slice(0, 300)}`);
  return resultOf(200, page.text, String(res.headers.location));
}

export async function tokenRequest(
  app: Pick<TestApp, 'url'>,
  params: Record<string, string | undefined>,
  headers: Record<string, string> = {},
): Promise<JsonResponse<any>> {
  const body = new URLSearchParams(Object.entries(params).filter((e): e is [string, string] => e[1] !== undefined)).toString();
  return http(`${app.url}/oauth/token`, { method: 'POST', body, headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers } });
}

export async function exchangeCode(
  app: Pick<TestApp, 'url'>,
  params: { clientId: string; code: string; verifier: string; redirectUri?: string; resource?: string },
): Promise<JsonResponse<any>> {
  return tokenRequest(app, {
    grant_type: 'authorization_code',
    client_id: params.clientId,
    code: params.code,
    code_verifier: params.verifier,
    redirect_uri: params.redirectUri ?? DEFAULT_REDIRECT_URI,
    resource: params.resource,
  });
}

export async function refreshGrant(
  app: Pick<TestApp, 'url'>,
  params: { clientId: string; refreshToken: string; scope?: string; resource?: string },
): Promise<JsonResponse<any>> {
  return tokenRequest(app, {
    grant_type: 'refresh_token',
    client_id: params.clientId,
    refresh_token: params.refreshToken,
    scope: params.scope,
    resource: params.resource,
  });
}

export async function revokeRequest(app: Pick<TestApp, 'url'>, params: { clientId: string; token: string; hint?: string }): Promise<JsonResponse<any>> {
  const body = new URLSearchParams({ client_id: params.clientId, token: params.token, ...(params.hint ? { token_type_hint: params.hint } : {}) }).toString();
  return http(`${app.url}/oauth/revoke`, { method: 'POST', body, headers: { 'content-type': 'application/x-www-form-urlencoded' } });
}

/** The magic link of the latest mail to `email` in the app's memory mailer (no SMTP_URL configured). */
export function memoryMagicLink(app: TestApp, email: string): string {
  const sent = (app.deps.mailer as unknown as { sent?: { to: string; text: string }[] }).sent;
  if (!sent) throw new Error('the app does not use the memory mailer; pass the SMTP catcher');
  const mail = [...sent].reverse().find((m) => m.to.toLowerCase() === email.toLowerCase());
  const link = mail && /https?:\/\/\S+\/auth\/magic-link\?\S+/.exec(mail.text)?.[0];
  if (!link) throw new Error(`no sign-in mail to ${email}`);
  return link;
}

/**
 * Sign in through the real magic-link flow and return the session cookie (`name=value`). Uses the SMTP catcher
 * when given (identity's helper), else the app's memory mailer.
 */
export async function signInCookie(app: TestApp, email: string, smtp?: SmtpCatcher): Promise<string> {
  if (smtp) return (await signIn(app, smtp, email)).cookie;
  const req = await http(`${app.url}/auth/sign-in/magic-link`, { json: { email }, headers: { origin: app.url } });
  if (req.status !== 200) throw new Error(`sign-in request answered ${req.status}: ${req.text}`);
  const token = new URL(memoryMagicLink(app, email)).searchParams.get('token')!;
  const verify = await http(`${app.url}/auth/magic-link/verify?token=${encodeURIComponent(token)}`);
  const cookie = sessionCookieOf(verify);
  if (!cookie) throw new Error(`verify answered ${verify.status} without a session cookie`);
  return `${cookie.name}=${cookie.value}`;
}

/** Create an organization as the signed-in user; returns its id. */
export async function createOrganization(app: Pick<TestApp, 'url'>, cookie: string, slug: string): Promise<string> {
  const res = await http(`${app.url}/auth/organization/create`, { json: { name: slug.toUpperCase(), slug }, headers: { cookie, origin: app.url } });
  if (res.status !== 201) throw new Error(`organization create answered ${res.status}: ${res.text}`);
  return res.body.id;
}

export interface OAuthFlow {
  client: RegisteredClient;
  pkce: Pkce;
  redirectUri: string;
  authorization: AuthorizationResult;
  tokens: TokenSet;
  response: JsonResponse<any>;
}

/** The whole flow for a signed-in user: register, authorize + consent, exchange. Throws unless tokens come back. */
export async function oauthFlow(
  app: Pick<TestApp, 'url'>,
  options: {
    cookie: string;
    scope?: string;
    resource?: string;
    organizationId?: string;
    client?: RegisteredClient;
    redirectUri?: string;
  },
): Promise<OAuthFlow> {
  const redirectUri = options.redirectUri ?? DEFAULT_REDIRECT_URI;
  const client = options.client ?? (await registerClient(app, { redirect_uris: [redirectUri] }));
  const pair = pkce();
  const url = authorizeUrl(app, {
    clientId: client.client_id,
    redirectUri,
    challenge: pair.challenge,
    scope: options.scope ?? 'files:read files:write org:read org:admin offline_access',
    resource: options.resource,
  });
  const authorization = await approveAuthorization(url, { cookie: options.cookie, organizationId: options.organizationId });
  if (!authorization.code) throw new Error(`no code: ${authorization.location}`);
  const response = await exchangeCode(app, {
    clientId: client.client_id,
    code: authorization.code,
    verifier: pair.verifier,
    redirectUri,
    resource: options.resource,
  });
  if (response.status !== 200) throw new Error(`token exchange answered ${response.status}: ${response.text}`);
  return { client, pkce: pair, redirectUri, authorization, tokens: response.body, response };
}

/**
 * An in-memory MCP SDK OAuthClientProvider whose "browser" is approveAuthorization with the user's session cookie:
 * the SDK's own discovery, registration, PKCE and token code run against our server, headlessly.
 */
export function headlessProvider(cookie: string, options: { redirectUrl?: string; state?: string; clientName?: string } = {}) {
  const redirectUrl = options.redirectUrl ?? 'http://127.0.0.1:61234/callback';
  const state: {
    client?: OAuthClientInformationMixed;
    tokens?: OAuthTokens;
    verifier?: string;
    authorizationUrl?: URL;
    result?: AuthorizationResult;
    redirects: number;
  } = { redirects: 0 };
  const provider: OAuthClientProvider = {
    get redirectUrl() {
      return redirectUrl;
    },
    get clientMetadata(): OAuthClientMetadata {
      return {
        client_name: options.clientName ?? 'SDK headless',
        redirect_uris: [redirectUrl],
        grant_types: ['authorization_code', 'refresh_token'],
        response_types: ['code'],
        token_endpoint_auth_method: 'none',
      };
    },
    state: () => options.state ?? 'sdk-state',
    clientInformation: () => state.client,
    saveClientInformation: (info) => {
      state.client = info;
    },
    tokens: () => state.tokens,
    saveTokens: (tokens) => {
      state.tokens = tokens;
    },
    saveCodeVerifier: (verifier) => {
      state.verifier = verifier;
    },
    codeVerifier: () => state.verifier!,
    redirectToAuthorization: async (url) => {
      state.redirects++;
      state.authorizationUrl = url;
      state.result = await approveAuthorization(url, { cookie });
    },
  };
  return { provider, state };
}
