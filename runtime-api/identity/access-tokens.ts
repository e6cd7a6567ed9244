// Access tokens: ES256 JWTs per RFC 9068 (`typ: at+jwt`), audience = the MCP resource, carrying the user,
// organization, client and scopes. Every Bearer request goes through verifyAccessToken; nothing bypasses it.
import { SignJWT, jwtVerify, decodeProtectedHeader, errors as joseErrors } from 'jose';
import { LRUCache } from 'lru-cache';
import type { Clock } from '../clock.ts';
import { newId } from '../ids.ts';
import type { SigningKeys } from './signing-keys.ts';

export interface AccessTokenClaims {
  sub: string;
  org: string;
  scope: string;
  client_id: string;
  jti: string;
  /** OAuth grant id, when the token came from a grant (revoking the grant revokes the token). */
  gid?: string;
  iat: number;
  exp: number;
}

export interface TokenSettings {
  issuer: string;
  /** Accepted audiences: the MCP resource and its `/mcp` alias. The first is the default. */
  audiences: readonly string[];
  ttlSeconds: number;
}

export function mcpAudiences(publicBaseUrl: string): string[] {
  return [`${publicBaseUrl}/v1/mcp`, `${publicBaseUrl}/mcp`];
}

export async function issueAccessToken(
  keys: SigningKeys,
  settings: TokenSettings,
  clock: Clock,
  claims: { userId: string; orgId: string; scopes: readonly string[]; clientId: string; grantId?: string; audience?: string; ttlSeconds?: number },
): Promise<{ token: string; jti: string; expiresIn: number }> {
  const key = keys.active();
  const now = Math.floor(clock.now().getTime() / 1000);
  const ttl = claims.ttlSeconds ?? settings.ttlSeconds;
  const jti = newId('at');
  const token = await new SignJWT({
    org: claims.orgId,
    scope: claims.scopes.join(' '),
    client_id: claims.clientId,
    ...(claims.grantId ? { gid: claims.grantId } : {}),
  })
    .setProtectedHeader({ alg: 'ES256', typ: 'at+jwt', kid: key.kid })
    .setIssuer(settings.issuer)
    .setSubject(claims.userId)
    .setAudience(claims.audience ?? settings.audiences[0])
    .setIssuedAt(now)
    .setExpirationTime(now + ttl)
    .setJti(jti)
    .sign(key.privateKey);
  return { token, jti, expiresIn: ttl };
}

export class InvalidTokenError extends Error {}

/** Verify signature, algorithm, type, issuer, audience and expiry. Throws InvalidTokenError with the reason. */
/**
 * Tokens whose signature this process already verified, per key set: an ES256 verification costs more CPU than the
 * rest of a request's authentication. Expiry is still checked on every use (against the injected clock); revocation
 * and membership are checked per request by the caller, never cached.
 */
const verifiedTokens = new WeakMap<SigningKeys, LRUCache<string, { claims: AccessTokenClaims; kid: string }>>();

export async function verifyAccessToken(keys: SigningKeys, settings: TokenSettings, clock: Clock, token: string): Promise<AccessTokenClaims> {
  let cache = verifiedTokens.get(keys);
  if (!cache) {
    cache = new LRUCache<string, { claims: AccessTokenClaims; kid: string }>({ max: 5000 });
    verifiedTokens.set(keys, cache);
  }
  const known = cache.get(token);
  // A hit still needs its signing key published (a key past its retirement window takes its tokens with it).
  if (known && keys.has(known.kid)) {
    if (known.claims.exp * 1000 <= clock.now().getTime()) {
      cache.delete(token);
      throw new InvalidTokenError('token expired');
    }
    return known.claims;
  }
  const { claims, kid } = await verifySignedToken(keys, settings, clock, token);
  cache.set(token, { claims, kid });
  return claims;
}

async function verifySignedToken(keys: SigningKeys, settings: TokenSettings, clock: Clock, token: string): Promise<{ claims: AccessTokenClaims; kid: string }> {
  let kid: string | undefined;
  try {
    const header = decodeProtectedHeader(token);
    if (header.alg !== 'ES256' || header.typ !== 'at+jwt') throw new InvalidTokenError('unexpected token type');
    kid = header.kid;
  } catch (err) {
    if (err instanceof InvalidTokenError) throw err;
    throw new InvalidTokenError('malformed token');
  }
  const key = kid ? await keys.find(kid) : undefined;
  if (!key) throw new InvalidTokenError('unknown signing key');
  try {
    const { payload } = await jwtVerify(token, key.publicKey, {
      algorithms: ['ES256'],
      typ: 'at+jwt',
      issuer: settings.issuer,
      audience: [...settings.audiences],
      currentDate: clock.now(),
      requiredClaims: ['sub', 'exp', 'iat', 'jti'],
    });
    if (typeof payload.org !== 'string' || typeof payload.scope !== 'string' || typeof payload.client_id !== 'string') {
      throw new InvalidTokenError('missing claims');
    }
    return { claims: payload as unknown as AccessTokenClaims, kid: key.kid };
  } catch (err) {
    if (err instanceof InvalidTokenError) throw err;
    if (err instanceof joseErrors.JWTExpired) throw new InvalidTokenError('token expired');
    throw new InvalidTokenError('token verification failed');
  }
}
