// Dynamic client registration (RFC 7591) for public clients: redirect URIs checked one by one, PKCE-only
// (`token_endpoint_auth_method: none`; a secret-based method asked for is replaced, as RFC 7591 section 3.2.1 allows),
// code + refresh_token grants only, unknown members ignored.
import type { Sql } from 'postgres';
import { type Clock, newId, GRANTABLE_SCOPES, insertClient, type ClientRow } from '../../runtime-api/index.ts';
import { OAuthError } from './errors.ts';
import { MAX_REDIRECT_URIS, redirectUriProblem } from './redirect-uris.ts';

export const REGISTRATION_MAX_BYTES = 16 * 1024;

const GRANT_TYPES = ['authorization_code', 'refresh_token'];
const URL_MEMBERS = ['client_uri', 'logo_uri', 'tos_uri', 'policy_uri'] as const;
const TEXT_MEMBERS = ['software_id', 'software_version'] as const;

function metadataError(description: string): OAuthError {
  return new OAuthError('invalid_client_metadata', description);
}

function optionalText(body: Record<string, unknown>, name: string, max: number): string | undefined {
  const value = body[name];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string' || value.length > max) throw metadataError(`${name} must be a string of at most ${max} characters`);
  return value;
}

function stringList(body: Record<string, unknown>, name: string, fallback: string[], allowed: readonly string[]): string[] {
  const value = body[name];
  if (value === undefined || value === null) return fallback;
  if (!Array.isArray(value) || value.length === 0 || value.length > 10 || !value.every((x) => typeof x === 'string')) {
    throw metadataError(`${name} must be a non-empty array of strings`);
  }
  const bad = value.find((x) => !allowed.includes(x));
  if (bad !== undefined) throw metadataError(`${name}: ${bad} is not supported (supported: ${allowed.join(', ')})`);
  return [...new Set(value as string[])];
}

/** Validate a registration request body and store the client. */
export async function registerClient(sql: Sql, clock: Clock, body: unknown): Promise<ClientRow> {
  if (!body || typeof body !== 'object' || Array.isArray(body)) throw metadataError('the body must be a JSON object of client metadata');
  const input = body as Record<string, unknown>;

  const uris = input.redirect_uris;
  if (!Array.isArray(uris) || uris.length === 0) throw new OAuthError('invalid_redirect_uri', 'redirect_uris must be a non-empty array');
  if (uris.length > MAX_REDIRECT_URIS) throw new OAuthError('invalid_redirect_uri', `at most ${MAX_REDIRECT_URIS} redirect URIs may be registered`);
  for (const uri of uris) {
    const problem = redirectUriProblem(uri);
    if (problem) throw new OAuthError('invalid_redirect_uri', problem);
  }

  const grantTypes = stringList(input, 'grant_types', GRANT_TYPES, GRANT_TYPES);
  if (!grantTypes.includes('authorization_code')) throw metadataError('grant_types must include authorization_code');
  const responseTypes = stringList(input, 'response_types', ['code'], ['code']);
  const applicationType = input.application_type ?? 'native';
  if (applicationType !== 'native' && applicationType !== 'web') throw metadataError('application_type must be native or web');
  const method = input.token_endpoint_auth_method;
  if (method !== undefined && typeof method !== 'string') throw metadataError('token_endpoint_auth_method must be a string');

  const clientName = optionalText(input, 'client_name', 200) ?? null;
  const scopeText = optionalText(input, 'scope', 1000);
  const scope =
    scopeText === undefined
      ? null
      : scopeText
          .split(/\s+/)
          .filter((s) => (GRANTABLE_SCOPES as readonly string[]).includes(s))
          .join(' ') || null;

  const metadata: Record<string, unknown> = {};
  for (const name of URL_MEMBERS) {
    const value = optionalText(input, name, 2000);
    if (value === undefined) continue;
    let url: URL | null = null;
    try {
      url = new URL(value);
    } catch {
      /* below */
    }
    if (!url || (url.protocol !== 'https:' && url.protocol !== 'http:')) throw metadataError(`${name} must be an http(s) URL`);
    metadata[name] = value;
  }
  for (const name of TEXT_MEMBERS) {
    const value = optionalText(input, name, 200);
    if (value !== undefined) metadata[name] = value;
  }
  if (input.contacts !== undefined) {
    const contacts = input.contacts;
    if (!Array.isArray(contacts) || contacts.length > 10 || !contacts.every((c) => typeof c === 'string' && c.length <= 320)) {
      throw metadataError('contacts must be an array of at most 10 e-mail addresses');
    }
    metadata.contacts = contacts;
  }

  return insertClient(sql, {
    clientId: newId('cli'),
    clientName,
    redirectUris: uris as string[],
    grantTypes,
    responseTypes,
    applicationType,
    scope,
    metadata,
    createdAt: clock.now(),
  });
}

/** The RFC 7591 registration response (no secret: public client). */
export function clientInformation(client: ClientRow) {
  return {
    client_id: client.clientId,
    client_id_issued_at: Math.floor(client.createdAt.getTime() / 1000),
    ...(client.clientName ? { client_name: client.clientName } : {}),
    redirect_uris: client.redirectUris,
    grant_types: client.grantTypes,
    response_types: client.responseTypes,
    token_endpoint_auth_method: client.tokenEndpointAuthMethod,
    application_type: client.applicationType,
    ...(client.scope ? { scope: client.scope } : {}),
    ...client.metadata,
  };
}
