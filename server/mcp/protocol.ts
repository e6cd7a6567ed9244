// A stateless MCP server over Streamable HTTP with JSON responses (research/mcp.md B1-B2): one JSON-RPC message per
// POST, no sessions, no SSE. initialize, ping, tools/list and tools/call; notifications are accepted with 202.
// Everything the protocol defines comes from the SDK: versions, JSON-RPC error codes, the method names (read off its
// request schemas), the params schemas of initialize and tools/call, and the result types the replies are checked
// against at compile time. A protocol upgrade is a dependency bump; this file holds no protocol constant of its own.
import * as v from 'valibot';
import {
  CallToolRequestParamsSchema,
  CallToolRequestSchema,
  ErrorCode,
  InitializeRequestParamsSchema,
  InitializeRequestSchema,
  JSONRPC_VERSION,
  LATEST_PROTOCOL_VERSION,
  ListToolsRequestSchema,
  PingRequestSchema,
  SUPPORTED_PROTOCOL_VERSIONS,
} from '@modelcontextprotocol/sdk/types.js';
import type { CallToolResult, InitializeResult, ListToolsResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import type { Locale, Localized } from '../../runtime-api/index.ts';
import { RPC_PROBLEMS, malformedRequest } from './messages.ts';

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
  return new RpcProblem(ErrorCode.ParseError, RPC_PROBLEMS.notJson);
}

/**
 * Envelope problems are -32600 (not a request) or -32602 (a request whose params are wrong), answered in JSON-RPC.
 * Spec section 7 fixes two cases itself, and they answer in its resolution shape (HTTP 400 `invalid_request`): a
 * request without the `params` its method needs, and a tools/call whose params are not `{name: string, arguments:
 * object}`, the one params shape the spec gives. An MCP client never reads an HTTP 400 body as a JSON-RPC reply.
 */
export function checkEnvelope(body: unknown): JsonRpcRequest {
  const id = (body as { id?: unknown } | null)?.id;
  const bad = (resolution: Localized, code: number = ErrorCode.InvalidRequest) => new RpcProblem(code, resolution, id);
  if (Array.isArray(body)) throw bad(RPC_PROBLEMS.batch);
  if (typeof body !== 'object' || body === null) {
    const example = JSON.stringify({ jsonrpc: JSONRPC_VERSION, id: 1, method: METHOD.listTools });
    throw bad(RPC_PROBLEMS.notAnObject(JSONRPC_VERSION, example));
  }
  const msg = body as Record<string, unknown>;
  if (msg.jsonrpc !== JSONRPC_VERSION) throw bad(RPC_PROBLEMS.noVersion(JSONRPC_VERSION));
  if (typeof msg.method !== 'string' || !msg.method) throw bad(RPC_PROBLEMS.noMethod(METHOD.listTools, METHOD.callTool));
  if (msg.id !== undefined && msg.id !== null && typeof msg.id !== 'string' && typeof msg.id !== 'number') {
    throw bad(RPC_PROBLEMS.badId);
  }
  const call = msg.method === METHOD.callTool;
  const paramsSchema = PARAMS_SCHEMA[msg.method];
  if (paramsSchema && msg.params === undefined) throw malformedRequest(msg.method, RPC_PROBLEMS.paramsMissing(msg.method, call));
  if (msg.params !== undefined && (typeof msg.params !== 'object' || msg.params === null || Array.isArray(msg.params))) {
    if (call) throw malformedRequest(msg.method, RPC_PROBLEMS.paramsNotObject);
    throw bad(RPC_PROBLEMS.paramsNotObject, ErrorCode.InvalidParams);
  }
  if (call && typeof (msg.params as Record<string, unknown>).name !== 'string') throw malformedRequest(msg.method, RPC_PROBLEMS.noToolName);
  const checked = paramsSchema?.safeParse(msg.params);
  if (checked && !checked.success) {
    const problems = checked.error.issues.map((i) => `params.${i.path.join('.')}: ${i.message}`).join('; ');
    if (call) throw malformedRequest(msg.method, RPC_PROBLEMS.paramsMismatch(msg.method, problems));
    throw bad(RPC_PROBLEMS.paramsMismatch(msg.method, problems), ErrorCode.InvalidParams);
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
