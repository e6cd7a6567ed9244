// A stateless MCP server over Streamable HTTP with JSON responses (research/mcp.md B1-B2): one JSON-RPC message per
// POST, no sessions, no SSE. initialize, ping, tools/list and tools/call; notifications are accepted with 202.
// Everything the protocol defines comes from the SDK: versions, JSON-RPC error codes, the method names (read off its
// request schemas), the params schemas of initialize and tools/call, and the result types the replies are checked
// against at compile time. A protocol upgrade is a dependency bump; this file holds no protocol constant of its own.
import * as v from 'valibot';
import {
  CallToolRequestParamsSchema, CallToolRequestSchema, ErrorCode, InitializeRequestParamsSchema, InitializeRequestSchema,
  JSONRPC_VERSION, LATEST_PROTOCOL_VERSION, ListToolsRequestSchema, PingRequestSchema, SUPPORTED_PROTOCOL_VERSIONS,
} from '@modelcontextprotocol/sdk/types.js';
import type { CallToolResult, InitializeResult, ListToolsResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import { l10n, type Locale, type Localized } from '../../runtime-api/index.ts';

export { ErrorCode, JSONRPC_VERSION, LATEST_PROTOCOL_VERSION, SUPPORTED_PROTOCOL_VERSIONS };
export type { CallToolResult, InitializeResult, ListToolsResult, Tool };

/** The methods served, as the SDK names them. */
export const METHOD = {
  initialize: InitializeRequestSchema.shape.method.value,
  ping: PingRequestSchema.shape.method.value,
  listTools: ListToolsRequestSchema.shape.method.value,
  callTool: CallToolRequestSchema.shape.method.value,
} as const;

/** The params a method must carry, checked with the SDK's own schema (-32602 otherwise). */
const PARAMS_SCHEMA: Record<string, typeof CallToolRequestParamsSchema | typeof InitializeRequestParamsSchema> = {
  [METHOD.callTool]: CallToolRequestParamsSchema,
  [METHOD.initialize]: InitializeRequestParamsSchema,
};

const Id = v.union([v.string(), v.number()]);
export const JsonRpcMessage = v.looseObject({
  jsonrpc: v.literal(JSONRPC_VERSION),
  id: v.optional(v.nullable(Id)),
  method: v.pipe(v.string(), v.minLength(1)),
  params: v.optional(v.record(v.string(), v.unknown())),
});
export type JsonRpcRequest = v.InferOutput<typeof JsonRpcMessage>;

/**
 * A message JSON-RPC cannot process: answered as a JSON-RPC error (HTTP 400, as the Streamable HTTP transport does),
 * so that any JSON-RPC library can parse it. `data` carries our code and the localized resolution.
 */
export class RpcProblem extends Error {
  readonly rpcCode: number;
  readonly id: string | number | null;
  readonly resolution: Localized;
  constructor(rpcCode: number, resolution: Localized, id: unknown = null) {
    super(resolution['en-US']);
    this.rpcCode = rpcCode;
    this.id = typeof id === 'string' || typeof id === 'number' ? id : null;
    this.resolution = resolution;
  }

  toBody(locale: Locale) {
    const title = this.rpcCode === ErrorCode.ParseError ? 'Parse error' : this.rpcCode === ErrorCode.InvalidParams ? 'Invalid params' : 'Invalid Request';
    return rpcError(this.id, this.rpcCode, `${title}: ${this.resolution[locale]}`, { code: 'invalid_request', resolution: this.resolution[locale] });
  }
}

/** Parse the raw body as JSON-RPC text: bad UTF-8 or JSON is -32700. */
/** A body that is empty, not UTF-8 or not JSON: -32700. */
export function parseError(): RpcProblem {
  return new RpcProblem(ErrorCode.ParseError, l10n('The body is not valid JSON (UTF-8); send one JSON-RPC 2.0 object.',
    'O corpo não é JSON válido (UTF-8); envie um objeto JSON-RPC 2.0.'));
}

/** Envelope problems are -32600 (not a request) or -32602 (a request whose params are missing or wrong). */
export function checkEnvelope(body: unknown): JsonRpcRequest {
  const id = (body as { id?: unknown } | null)?.id;
  const bad = (en: string, pt: string, code: number = ErrorCode.InvalidRequest) => new RpcProblem(code, l10n(en, pt), id);
  if (Array.isArray(body)) throw bad('Send one JSON-RPC message per request; batches are not supported.', 'Envie uma mensagem JSON-RPC por requisição; lotes não são aceitos.');
  if (typeof body !== 'object' || body === null) {
    const example = JSON.stringify({ jsonrpc: JSONRPC_VERSION, id: 1, method: METHOD.listTools });
    throw bad(`Send a JSON-RPC ${JSONRPC_VERSION} object: ${example}.`, `Envie um objeto JSON-RPC ${JSONRPC_VERSION}: ${example}.`);
  }
  const msg = body as Record<string, unknown>;
  if (msg.jsonrpc !== JSONRPC_VERSION) throw bad(`Add "jsonrpc": "${JSONRPC_VERSION}" to the message.`, `Acrescente "jsonrpc": "${JSONRPC_VERSION}" à mensagem.`);
  if (typeof msg.method !== 'string' || !msg.method) {
    throw bad(`Add a "method" string (e.g. "${METHOD.listTools}" or "${METHOD.callTool}").`, `Acrescente uma string "method" (por exemplo "${METHOD.listTools}" ou "${METHOD.callTool}").`);
  }
  if (msg.params !== undefined && (typeof msg.params !== 'object' || msg.params === null || Array.isArray(msg.params))) {
    throw bad('"params" must be an object.', '"params" precisa ser um objeto.', ErrorCode.InvalidParams);
  }
  if (msg.id !== undefined && msg.id !== null && typeof msg.id !== 'string' && typeof msg.id !== 'number') {
    throw bad('"id" must be a string or a number.', '"id" precisa ser uma string ou um número.');
  }
  const paramsSchema = PARAMS_SCHEMA[msg.method];
  if (paramsSchema && msg.params === undefined) {
    const call = msg.method === METHOD.callTool;
    throw bad(`"${msg.method}" needs a "params" object${call ? ' with "name" and "arguments"' : ''}.`,
      `"${msg.method}" precisa de um objeto "params"${call ? ' com "name" e "arguments"' : ''}.`, ErrorCode.InvalidParams);
  }
  if (msg.method === METHOD.callTool && typeof (msg.params as Record<string, unknown>).name !== 'string') {
    throw bad('"params.name" must name the tool: "execute" or "search".', '"params.name" precisa nomear a ferramenta: "execute" ou "search".', ErrorCode.InvalidParams);
  }
  const checked = paramsSchema?.safeParse(msg.params);
  if (checked && !checked.success) {
    const problems = checked.error.issues.map((i) => `params.${i.path.join('.')}: ${i.message}`).join('; ');
    throw bad(`"params" of ${msg.method} does not match the protocol: ${problems}.`, `"params" de ${msg.method} não segue o protocolo: ${problems}.`, ErrorCode.InvalidParams);
  }
  return msg as JsonRpcRequest;
}

/** A reply; `result` is typed by the SDK's result type of its method (InitializeResult, CallToolResult, ...). */
export function rpcResult<R extends Record<string, unknown>>(id: JsonRpcRequest['id'], result: R) {
  return { jsonrpc: JSONRPC_VERSION, id: id ?? null, result };
}

export function rpcError(id: JsonRpcRequest['id'], code: number, message: string, data?: unknown) {
  return { jsonrpc: JSONRPC_VERSION, id: id ?? null, error: { code, message, ...(data !== undefined ? { data } : {}) } };
}

export function negotiateVersion(requested: unknown): string {
  return typeof requested === 'string' && (SUPPORTED_PROTOCOL_VERSIONS as readonly string[]).includes(requested) ? requested : LATEST_PROTOCOL_VERSION;
}
