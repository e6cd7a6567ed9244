// application/x-www-form-urlencoded bodies of the token, revocation and consent endpoints (RFC 6749 section 3.2):
// size-capped, UTF-8, a parameter sent twice is an error, and an empty value counts as absent.
import type Koa from 'koa';
import { isForm, readFormText } from '../http/body.ts';
import { ServiceError } from '../../runtime-api/index.ts';
import { OAuthError } from './errors.ts';

export const FORM_MAX_BYTES = 16 * 1024;

export type Form = Record<string, string>;

export function parseForm(text: string): Form {
  const out: Form = {};
  for (const [key, value] of new URLSearchParams(text)) {
    if (Object.hasOwn(out, key)) throw new OAuthError('invalid_request', `the parameter ${key} was sent more than once`);
    if (value !== '') out[key] = value;
  }
  return out;
}

/** Read the request's form body, as OAuthErrors (so the endpoint answers in the protocol's shape). */
export async function readForm(ctx: Koa.Context): Promise<Form> {
  if (!isForm(ctx)) {
    throw new OAuthError('invalid_request', 'send the parameters as Content-Type: application/x-www-form-urlencoded');
  }
  try {
    return parseForm(await readFormText(ctx, FORM_MAX_BYTES));
  } catch (err) {
    if (!(err instanceof ServiceError)) throw err;
    if (err.code === 'payload_too_large') throw new OAuthError('invalid_request', `the body is too large (at most ${FORM_MAX_BYTES} bytes)`);
    throw new OAuthError('invalid_request', `the body could not be read: ${err.resolutionFor('en-US') ?? err.code}`);
  }
}

/** A single query parameter: undefined when absent or empty; an OAuthError when repeated. */
export function queryParam(ctx: Koa.Context, name: string): string | undefined {
  const value = ctx.query[name];
  if (Array.isArray(value)) throw new OAuthError('invalid_request', `the parameter ${name} was sent more than once`);
  return value === undefined || value === '' ? undefined : value;
}
