// Request bodies: Content-Type checked (415), bytes counted on the raw stream, chunked included (413),
// JSON parsed (400 invalid_request), then validated with the route's valibot schema (400 invalid_input).
import type Koa from 'koa';
import getRawBody from 'raw-body';
import * as v from 'valibot';
import { ServiceError } from '../../runtime-api/errors.ts';
import { describeIssues } from '../../runtime-api/invoke.ts';

export function isJson(ctx: Koa.Context): boolean {
  const type = (ctx.get('content-type') || '').split(';')[0].trim().toLowerCase();
  return type === 'application/json' || (type.startsWith('application/') && type.endsWith('+json'));
}

export async function readRawBody(ctx: Koa.Context, limit: number): Promise<Buffer> {
  const declared = ctx.get('content-length');
  if (declared && Number(declared) > limit) {
    throw new ServiceError('payload_too_large', { resolution: `Send at most ${limit} bytes.` });
  }
  try {
    return await getRawBody(ctx.req, { limit, length: declared ? Number(declared) : undefined });
  } catch (err) {
    const type = (err as { type?: string }).type;
    if (type === 'entity.too.large') throw new ServiceError('payload_too_large', { resolution: `Send at most ${limit} bytes.` });
    throw new ServiceError('invalid_request', { resolution: 'The request body could not be read completely.', cause: err });
  }
}

/** Read and parse a JSON body. `limit` defaults to the configured JSON body limit. */
export async function readJson(ctx: Koa.Context, limit: number): Promise<unknown> {
  if (!isJson(ctx)) {
    throw new ServiceError('unsupported_media_type', { resolution: 'Send the body as Content-Type: application/json.' });
  }
  const raw = await readRawBody(ctx, limit);
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(raw);
  } catch {
    throw new ServiceError('invalid_request', { resolution: 'The body is not valid UTF-8.' });
  }
  if (text.trim() === '') throw new ServiceError('invalid_request', { resolution: 'The body is empty; send a JSON object.' });
  try {
    return JSON.parse(text);
  } catch {
    throw new ServiceError('invalid_request', { resolution: 'The body is not valid JSON.' });
  }
}

export function validate<S extends v.GenericSchema>(schema: S, value: unknown): v.InferOutput<S> {
  const parsed = v.safeParse(schema, value);
  if (!parsed.success) throw new ServiceError('invalid_input', { resolution: describeIssues(parsed.issues) });
  return parsed.output;
}

export async function parseJsonBody<S extends v.GenericSchema>(ctx: Koa.Context, schema: S, limit: number): Promise<v.InferOutput<S>> {
  return validate(schema, await readJson(ctx, limit));
}
