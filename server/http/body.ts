// Request bodies: Content-Type checked (415), bytes counted on the raw stream, chunked included (413),
// JSON parsed (400 invalid_request), then validated with the route's valibot schema (400 invalid_input).
import type Koa from 'koa';
import getRawBody from 'raw-body';
import * as v from 'valibot';
import { ServiceError, l10n } from '../../runtime-api/errors.ts';
import { describeIssues } from '../../runtime-api/invoke.ts';

export function isJson(ctx: Koa.Context): boolean {
  const type = (ctx.get('content-type') || '').split(';')[0].trim().toLowerCase();
  return type === 'application/json' || (type.startsWith('application/') && type.endsWith('+json'));
}

export async function readRawBody(ctx: Koa.Context, limit: number): Promise<Buffer> {
  const declared = ctx.get('content-length');
  if (declared && Number(declared) > limit) {
    throw new ServiceError('payload_too_large', { resolution: l10n(`Send at most ${limit} bytes.`, `Envie no máximo ${limit} bytes.`) });
  }
  try {
    return await getRawBody(ctx.req, { limit, length: declared ? Number(declared) : undefined });
  } catch (err) {
    const type = (err as { type?: string }).type;
    if (type === 'entity.too.large') throw new ServiceError('payload_too_large', { resolution: l10n(`Send at most ${limit} bytes.`, `Envie no máximo ${limit} bytes.`) });
    throw new ServiceError('invalid_request', { resolution: l10n('The request body could not be read completely.', 'Não foi possível ler o corpo da requisição por completo.'), cause: err });
  }
}

/** Read and parse a JSON body. `limit` defaults to the configured JSON body limit. */
export async function readJson(ctx: Koa.Context, limit: number): Promise<unknown> {
  if (!isJson(ctx)) {
    throw new ServiceError('unsupported_media_type', { resolution: l10n('Send the body as Content-Type: application/json.', 'Envie o corpo com Content-Type: application/json.') });
  }
  const raw = await readRawBody(ctx, limit);
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(raw);
  } catch {
    throw new ServiceError('invalid_request', { resolution: l10n('The body is not valid UTF-8.', 'O corpo não é UTF-8 válido.') });
  }
  if (text.trim() === '') throw new ServiceError('invalid_request', { resolution: l10n('The body is empty; send a JSON object.', 'O corpo está vazio; envie um objeto JSON.') });
  try {
    return JSON.parse(text);
  } catch {
    throw new ServiceError('invalid_request', { resolution: l10n('The body is not valid JSON.', 'O corpo não é JSON válido.') });
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
