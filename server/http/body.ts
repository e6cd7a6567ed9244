// Request bodies, read by koa-body: the media type, charset and encoding checked first (415), then koa-body counts
// the bytes on the stream, chunked included (413), decodes UTF-8 and parses; its failures become the spec's errors
// (400 invalid_request), localized; a parsed body is then validated with the route's valibot schema (400 invalid_input).
import type Koa from 'koa';
import { HttpMethodEnum, koaBody } from 'koa-body';
import * as v from 'valibot';
import { ServiceError, validateInput } from '../../runtime-api/index.ts';
import { bodyEmpty, bodyNotJson, bodyNotUtf8, bodyUnreadable, charsetRefused, contentEncodingRefused, jsonRequired, payloadTooLarge } from './messages.ts';

/** What an oversize body may still send, read and dropped, so its client reads the 413 instead of a reset. */
export const OVERFLOW_DRAIN_BYTES = 1024 * 1024;

const FORM_TYPE = 'application/x-www-form-urlencoded';

export function isJson(ctx: Koa.Context): boolean {
  const type = (ctx.get('content-type') || '').split(';')[0].trim().toLowerCase();
  return type === 'application/json' || (type.startsWith('application/') && type.endsWith('+json'));
}

export const isForm = (ctx: Koa.Context) => Boolean(ctx.is(FORM_TYPE));

type Kind = 'json' | 'form';
const parsers = new Map<string, Koa.Middleware>();

/**
 * One koa-body per kind and limit. JSON is parsed loosely (any JSON value: the route's schema, or the JSON-RPC
 * envelope, says what a scalar is worth) and keeps its text to tell an empty body from a bad one. A form is read
 * as text and split by URLSearchParams rather than koa-body's qs, which turns `a[b]=1` into nested objects and a
 * repeated name into an array: OAuth (RFC 6749 3.2) wants flat names and must see a repeat.
 */
function parserFor(kind: Kind, limit: number): Koa.Middleware {
  const key = `${kind}:${limit}`;
  let parser = parsers.get(key);
  if (!parser) {
    parser = koaBody({
      json: kind === 'json',
      text: kind === 'form',
      urlencoded: false,
      multipart: false,
      jsonStrict: false,
      jsonLimit: limit,
      textLimit: limit,
      includeUnparsed: kind === 'json',
      jsonTypes: ['application/json', '+json'],
      textTypes: [FORM_TYPE],
      parsedMethods: [HttpMethodEnum.POST, HttpMethodEnum.PUT, HttpMethodEnum.PATCH, HttpMethodEnum.DELETE],
    }) as unknown as Koa.Middleware;
    parsers.set(key, parser);
  }
  return parser;
}

/** koa-body decodes with replacement characters; a fatal decoder beside it sees the same bytes and refuses bad UTF-8. */
function watchUtf8(req: Koa.Context['req']): () => boolean {
  const decoder = new TextDecoder('utf-8', { fatal: true });
  let valid = true;
  const onData = (chunk: Buffer) => {
    if (!valid) return;
    try {
      decoder.decode(chunk, { stream: true });
    } catch {
      valid = false;
    }
  };
  req.on('data', onData);
  return () => {
    req.off('data', onData);
    if (valid)
      try {
        decoder.decode();
      } catch {
        valid = false;
      }
    return valid;
  };
}

/**
 * After a 413 koa-body has halted the stream mid-body. The rest is read and dropped, up to a bound, so the client
 * finishes sending and reads the 413 (closing at once would reset it mid-upload); past the bound the connection ends
 * once the reply is out.
 */
function drainOverflow(ctx: Koa.Context): void {
  const req = ctx.req;
  if (req.readableEnded) return;
  let dropped = 0;
  const onData = (chunk: Buffer) => {
    dropped += chunk.length;
    if (dropped <= OVERFLOW_DRAIN_BYTES) return;
    req.off('data', onData);
    req.pause();
    if (ctx.res.writableFinished) req.socket.destroy();
    else {
      ctx.res.shouldKeepAlive = false;
      ctx.res.once('finish', () => req.socket.destroy());
    }
  };
  req.on('data', onData);
  req.resume();
}

/** Why a body could not be used, before the route gives it meaning (a JSON-RPC endpoint answers those in its own shape). */
export type Malformed = 'empty' | 'json' | 'utf8';

const MALFORMED: Record<Malformed, () => ServiceError> = { empty: bodyEmpty, json: bodyNotJson, utf8: bodyNotUtf8 };

interface ReadOptions {
  limit: number;
  /** The error for a body that arrived whole but is not usable (default: 400 invalid_request). */
  malformed?: (why: Malformed) => Error;
}

async function read(ctx: Koa.Context, kind: Kind, { limit, malformed = (why) => MALFORMED[why]() }: ReadOptions): Promise<{ parsed: unknown; raw: string }> {
  const encoding = ctx.get('content-encoding').trim().toLowerCase();
  if (encoding && encoding !== 'identity') {
    throw contentEncodingRefused();
  }
  // Bodies are decoded as UTF-8 whatever the header says; a body declared in another charset would be misread.
  const charset = ctx.request.charset.toLowerCase();
  if (charset && charset !== 'utf-8' && charset !== 'utf8') {
    throw charsetRefused(charset);
  }
  const declared = ctx.get('content-length');
  if (declared && Number(declared) > limit) {
    if (Number(declared) - limit > OVERFLOW_DRAIN_BYTES) ctx.set('Connection', 'close');
    throw payloadTooLarge(limit);
  }
  const utf8Valid = watchUtf8(ctx.req);
  try {
    await parserFor(kind, limit)(ctx, async () => {});
  } catch (err) {
    const failure = err as { type?: string; status?: number; body?: unknown };
    const valid = utf8Valid();
    if (failure.type === 'entity.too.large') {
      drainOverflow(ctx);
      throw payloadTooLarge(limit);
    }
    if (err instanceof SyntaxError || (failure.status === 400 && typeof failure.body === 'string')) {
      if (!valid) throw malformed('utf8');
      throw malformed(typeof failure.body === 'string' && failure.body.trim() === '' ? 'empty' : 'json');
    }
    throw bodyUnreadable(err);
  }
  if (!utf8Valid()) throw malformed('utf8');
  const request = ctx.request as Koa.Request & { body?: unknown; rawBody?: string };
  const raw = kind === 'json' ? (request.rawBody ?? '') : String(request.body ?? '');
  if (kind === 'json' && raw.trim() === '') throw malformed('empty');
  return { parsed: request.body, raw };
}

/** Read and parse a JSON body (415 unless the type is JSON, 413 past `limit`, 400 when it is not JSON). */
export async function readJson(ctx: Koa.Context, limit: number, malformed?: ReadOptions['malformed']): Promise<unknown> {
  if (!isJson(ctx)) {
    throw jsonRequired();
  }
  return (await read(ctx, 'json', { limit, malformed })).parsed;
}

/**
 * The decoded text of an application/x-www-form-urlencoded body, to be split with URLSearchParams. The caller checks
 * the media type (each form endpoint words its own 415).
 */
export async function readFormText(ctx: Koa.Context, limit: number): Promise<string> {
  return (await read(ctx, 'form', { limit })).raw;
}

export function validate<S extends v.GenericSchema>(schema: S, value: unknown): v.InferOutput<S> {
  return validateInput(schema, value);
}

export async function parseJsonBody<S extends v.GenericSchema>(ctx: Koa.Context, schema: S, limit: number): Promise<v.InferOutput<S>> {
  return validate(schema, await readJson(ctx, limit));
}
