// OAuth protocol errors: `{error, error_description}` (RFC 6749 section 5.2, RFC 7591 section 3.2.2, RFC 8707),
// written by the OAuth routes themselves; everything else keeps the service's own error shapes.
import type Koa from 'koa';
import * as v from 'valibot';

export type OAuthErrorCode =
  | 'invalid_request'
  | 'invalid_client'
  | 'invalid_grant'
  | 'unauthorized_client'
  | 'unsupported_grant_type'
  | 'invalid_scope'
  | 'invalid_target'
  | 'unsupported_token_type'
  | 'invalid_redirect_uri'
  | 'invalid_client_metadata'
  | 'access_denied'
  | 'unsupported_response_type'
  | 'login_required'
  | 'consent_required'
  | 'server_error';

export class OAuthError extends Error {
  readonly code: OAuthErrorCode;
  readonly status: number;
  constructor(code: OAuthErrorCode, description: string, status = code === 'invalid_client' ? 401 : 400) {
    super(description);
    this.name = 'OAuthError';
    this.code = code;
    this.status = status;
  }
}

/** The JSON body schema, for /openapi.json. */
export const OAuthErrorSchema = v.object({
  error: v.string(),
  error_description: v.optional(v.string()),
});

/** A protocol error response as a route declares it. */
export const oauthErrorDoc = (description: string) => ({ description, schema: OAuthErrorSchema });

export function writeOAuthError(ctx: Koa.Context, err: OAuthError): void {
  ctx.status = err.status;
  ctx.set('Cache-Control', 'no-store');
  ctx.set('Pragma', 'no-cache');
  ctx.body = { error: err.code, error_description: err.message };
}

/** Run an OAuth handler: OAuthErrors become protocol error responses; anything else goes to the error middleware. */
export async function oauthResponse(ctx: Koa.Context, handler: () => Promise<void>): Promise<void> {
  try {
    await handler();
  } catch (err) {
    if (err instanceof OAuthError) return writeOAuthError(ctx, err);
    throw err;
  }
}
