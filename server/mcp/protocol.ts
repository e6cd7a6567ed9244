// A stateless MCP server over Streamable HTTP with JSON responses (research/mcp.md B1-B2): one JSON-RPC message per
// POST, no sessions, no SSE. initialize, ping, tools/list and tools/call; notifications are accepted with 202.
import * as v from 'valibot';
import { ServiceError, l10n } from '../../runtime-api/errors.ts';

export const SUPPORTED_PROTOCOL_VERSIONS = ['2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05'] as const;
export const LATEST_PROTOCOL_VERSION = SUPPORTED_PROTOCOL_VERSIONS[0];

const Id = v.union([v.string(), v.number()]);
export const JsonRpcMessage = v.looseObject({
  jsonrpc: v.literal('2.0'),
  id: v.optional(v.nullable(Id)),
  method: v.pipe(v.string(), v.minLength(1)),
  params: v.optional(v.record(v.string(), v.unknown())),
});
export type JsonRpcRequest = v.InferOutput<typeof JsonRpcMessage>;

/** Envelope problems answer 400 invalid_request in the resolution shape, with a resolution that names the fix. */
export function checkEnvelope(body: unknown): JsonRpcRequest {
  const bad = (en: string, pt: string) => new ServiceError('invalid_request', { resolution: l10n(en, pt) });
  if (Array.isArray(body)) throw bad('Send one JSON-RPC message per request; batches are not supported.', 'Envie uma mensagem JSON-RPC por requisição; lotes não são aceitos.');
  if (typeof body !== 'object' || body === null) {
    throw bad('Send a JSON-RPC 2.0 object: {"jsonrpc":"2.0","id":1,"method":"tools/list"}.', 'Envie um objeto JSON-RPC 2.0: {"jsonrpc":"2.0","id":1,"method":"tools/list"}.');
  }
  const msg = body as Record<string, unknown>;
  if (msg.jsonrpc !== '2.0') throw bad('Add "jsonrpc": "2.0" to the message.', 'Acrescente "jsonrpc": "2.0" à mensagem.');
  if (typeof msg.method !== 'string' || !msg.method) {
    throw bad('Add a "method" string (e.g. "tools/list" or "tools/call").', 'Acrescente uma string "method" (por exemplo "tools/list" ou "tools/call").');
  }
  if (msg.params !== undefined && (typeof msg.params !== 'object' || msg.params === null || Array.isArray(msg.params))) {
    throw bad('"params" must be an object.', '"params" precisa ser um objeto.');
  }
  if (msg.id !== undefined && msg.id !== null && typeof msg.id !== 'string' && typeof msg.id !== 'number') {
    throw bad('"id" must be a string or a number.', '"id" precisa ser uma string ou um número.');
  }
  const needsParams = msg.method === 'tools/call' || msg.method === 'initialize';
  if (needsParams && msg.params === undefined) {
    const call = msg.method === 'tools/call';
    throw bad(`"${msg.method}" needs a "params" object${call ? ' with "name" and "arguments"' : ''}.`,
      `"${msg.method}" precisa de um objeto "params"${call ? ' com "name" e "arguments"' : ''}.`);
  }
  if (msg.method === 'tools/call' && typeof (msg.params as Record<string, unknown>).name !== 'string') {
    throw bad('"params.name" must name the tool: "execute" or "search".', '"params.name" precisa nomear a ferramenta: "execute" ou "search".');
  }
  return msg as JsonRpcRequest;
}

export function rpcResult(id: JsonRpcRequest['id'], result: unknown) {
  return { jsonrpc: '2.0' as const, id: id ?? null, result };
}

export function rpcError(id: JsonRpcRequest['id'], code: number, message: string, data?: unknown) {
  return { jsonrpc: '2.0' as const, id: id ?? null, error: { code, message, ...(data !== undefined ? { data } : {}) } };
}

export function negotiateVersion(requested: unknown): string {
  return typeof requested === 'string' && (SUPPORTED_PROTOCOL_VERSIONS as readonly string[]).includes(requested) ? requested : LATEST_PROTOCOL_VERSION;
}
