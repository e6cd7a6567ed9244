// POST /ask: the public NLWeb 0.54 search (spec 2.6, 2.7, 4.1; research/nlweb.md B1-B5). No authentication, CORS open
// to any origin without credentials. Checks run 415 → 413 → 400 → 503, and every failure is an NLWeb Failure body
// written here (never the service's error shapes), with its real status even when streaming was asked.
import type Koa from 'koa';
import { randomUUID } from 'node:crypto';
import * as v from 'valibot';
import { defineRoute, type RouteDef } from '../http/route.ts';
import { readJson } from '../http/body.ts';
import { ServiceError } from '../../runtime-api/index.ts';
import type { AppDeps } from '../deps.ts';
import type { AskIndex } from '../ask/index.ts';
import { answerBody, failureBody, FAILURE_STATUS, sseFrame } from '../ask/answer.ts';
import {
  AskAnswerSchema,
  AskFailureSchema,
  AskRequestSchema,
  askRequestJsonSchema,
  describeAskIssue,
  MAX_BODY_BYTES,
  type AskErrorCode,
} from '../ask/schema.ts';
import { langOf } from '../ask/text.ts';

const CORS_HEADERS = {
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Expose-Headers': 'x-request-id, Retry-After, RateLimit-Limit, RateLimit-Remaining, RateLimit-Reset, RateLimit-Policy',
};

/** Every spelling the router matches to /ask (it ignores case and a trailing slash). */
export function isAskPath(path: string): boolean {
  return /^\/ask\/?$/i.test(path);
}

/** CORS for /ask: headers on every response and the OPTIONS preflight (the route table has no OPTIONS). Mount it
 * before the router. No credentials: `*` is only valid without them, and /ask needs none. */
export function askCors(): Koa.Middleware {
  return async function askCorsMiddleware(ctx, next) {
    if (!isAskPath(ctx.path)) return next();
    ctx.set(CORS_HEADERS);
    if (ctx.method !== 'OPTIONS') return next();
    const requested = ctx.get('access-control-request-headers');
    ctx.set('Access-Control-Allow-Methods', 'POST, OPTIONS');
    ctx.set('Access-Control-Allow-Headers', /^[\w-]+(\s*,\s*[\w-]+)*$/.test(requested) ? requested : 'Content-Type');
    ctx.set('Access-Control-Max-Age', '600');
    ctx.vary('Access-Control-Request-Headers');
    ctx.status = 204;
  };
}

class AskFailureError extends Error {
  readonly code: AskErrorCode;
  readonly pointer: string | undefined;
  readonly headers: Record<string, string>;
  constructor(code: AskErrorCode, message: string, options: { pointer?: string; headers?: Record<string, string> } = {}) {
    super(message);
    this.code = code;
    this.pointer = options.pointer;
    this.headers = options.headers ?? {};
  }
}

const fail = (code: AskErrorCode, message: string, options?: { pointer?: string; headers?: Record<string, string> }) =>
  new AskFailureError(code, message, options);

function checkContentType(ctx: Koa.Context): void {
  // The charset and Content-Encoding are the shared body reader's to refuse.
  if ((ctx.get('content-type') || '').split(';')[0].trim().toLowerCase() !== 'application/json') {
    throw fail('UNSUPPORTED_MEDIA_TYPE', 'Send the body as Content-Type: application/json (UTF-8).');
  }
}

/** The service's body errors, in the NLWeb Failure shape this route answers with (its messages stay English). */
const ASK_CODES: Partial<Record<string, AskErrorCode>> = {
  payload_too_large: 'PAYLOAD_TOO_LARGE',
  unsupported_media_type: 'UNSUPPORTED_MEDIA_TYPE',
  invalid_request: 'INVALID_REQUEST',
};

async function readRequest(ctx: Koa.Context): Promise<unknown> {
  try {
    return await readJson(ctx, MAX_BODY_BYTES);
  } catch (err) {
    const code = err instanceof ServiceError ? ASK_CODES[err.code] : undefined;
    if (!code || !(err instanceof ServiceError)) throw err;
    const message = code === 'PAYLOAD_TOO_LARGE' ? `The body must be at most ${MAX_BODY_BYTES} bytes.` : (err.resolutionFor('en-US') ?? err.message);
    throw fail(code, message);
  }
}

function writeFailure(ctx: Koa.Context, requestId: string, err: AskFailureError): void {
  ctx.status = FAILURE_STATUS[err.code];
  ctx.set(err.headers);
  ctx.body = failureBody(err.code, err.message, requestId, err.pointer);
}

/** `index` may be a function so the corpus can be (re)loaded, or emptied, after the routes are built. */
export function askRoutes(deps: Pick<AppDeps, 'logger'>, index: AskIndex | null | (() => AskIndex | null)): RouteDef[] {
  const currentIndex = typeof index === 'function' ? index : () => index;
  return [
    defineRoute({
      method: 'POST',
      path: '/ask',
      operationId: 'ask',
      summary: 'Natural-language search over the public site and documentation (NLWeb 0.54, list / conv_search)',
      description:
        'Public and unauthenticated. With `prefer.streaming: false` the answer is JSON; otherwise it is ' +
        '`text/event-stream` carrying exactly one `data:` event with the same JSON, then the stream ends. ' +
        'Failures are NLWeb Failure bodies (always JSON) with real statuses: 415, then 413, then 400, then 503.',
      tags: ['search'],
      auth: 'none',
      // Spec 9.3: the public search endpoint's own description is version 1.0.0 of the NLWeb 0.54 profile.
      extensions: { 'x-api-version': '1.0.0', 'x-nlweb': { version: '0.54', modes: ['list'], response_formats: ['conv_search'] } },
      body: { contentType: 'application/json', jsonSchema: askRequestJsonSchema() },
      responses: {
        200: { description: 'Answer (application/json, or text/event-stream with one data event holding this object).', schema: AskAnswerSchema },
        400: { description: 'Invalid or unsupported query fields.', schema: AskFailureSchema },
        413: { description: 'Body over 8192 bytes.', schema: AskFailureSchema },
        415: { description: 'Content-Type is not application/json.', schema: AskFailureSchema },
        503: {
          description: 'The public corpus is not loaded (GET /api then reports status "degraded" and components.ask "unavailable").',
          schema: AskFailureSchema,
        },
      },
      errors: [],
      writeError(ctx, error) {
        ctx.set(CORS_HEADERS);
        writeFailure(
          ctx,
          ctx.state.requestId ?? randomUUID(),
          fail('METHOD_NOT_ALLOWED', `${error.resolutionFor('en-US') ?? error.message} /ask takes a POST with a JSON body.`),
        );
      },
      async handle(ctx) {
        const requestId: string = ctx.state.requestId ?? randomUUID();
        ctx.set(CORS_HEADERS);
        try {
          checkContentType(ctx);
          const json = await readRequest(ctx);
          const parsed = v.safeParse(AskRequestSchema, json);
          if (!parsed.success) {
            const { message, pointer } = describeAskIssue(parsed.issues);
            throw fail('INVALID_REQUEST', message, { pointer });
          }
          const request = parsed.output;
          const idx = currentIndex();
          // No Retry-After: the corpus is loaded at start-up, so retrying soon would not help; GET /api says the same.
          if (!idx || idx.size === 0)
            throw fail(
              'CORPUS_UNAVAILABLE',
              'The public corpus is not loaded on this server, so /ask cannot answer; an operator must restore it (GET /api reports components.ask).',
            );
          const outcome = idx.search({
            text: request.query.text,
            site: request.query.site,
            maxResults: request.query.max_results,
            lang: langOf(request.prefer?.['accept-language']),
          });
          const body = answerBody(request, outcome, requestId);
          ctx.status = 200;
          if (request.prefer?.streaming === false) {
            ctx.body = body;
          } else {
            ctx.set({ 'Content-Type': 'text/event-stream; charset=utf-8', 'Cache-Control': 'no-cache', 'X-Accel-Buffering': 'no' });
            ctx.body = sseFrame(body);
          }
        } catch (err) {
          if (err instanceof AskFailureError) return writeFailure(ctx, requestId, err);
          if (ctx.headerSent) throw err;
          deps.logger.error('ask failed', { requestId, err });
          writeFailure(ctx, requestId, fail('INTERNAL_ERROR', 'Internal error; report the request id if it persists.'));
        }
      },
    }),
  ];
}
