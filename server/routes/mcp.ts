// POST /v1/mcp and its alias /mcp: the MCP endpoint (server/mcp/endpoint.ts), declared for both paths with what
// /openapi.json says of it. GET and DELETE answer 405.
import { defineRoute, type RouteDef } from '../http/route.ts';
import type { AppDeps } from '../deps.ts';
import { ErrorCode, JSONRPC_VERSION, METHOD, SUPPORTED_PROTOCOL_VERSIONS } from '../mcp/protocol.ts';
import { mcpMethodNotAllowed, mcpPost } from '../mcp/endpoint.ts';
import { SERVICE_VERSION } from './openapi.ts';

const rpcBody = {
  contentType: 'application/json',
  jsonSchema: {
    type: 'object',
    required: ['jsonrpc', 'method'],
    properties: { jsonrpc: { const: JSONRPC_VERSION }, id: { type: ['string', 'integer', 'null'] }, method: { type: 'string' }, params: { type: 'object' } },
  },
};
const rpcResponse = {
  type: 'object',
  required: ['jsonrpc'],
  properties: { jsonrpc: { const: JSONRPC_VERSION }, id: {}, result: {}, error: { type: 'object' } },
};
const rpcErrorResponse = {
  type: 'object',
  required: ['jsonrpc', 'id', 'error'],
  properties: {
    jsonrpc: { const: JSONRPC_VERSION },
    id: { type: ['string', 'integer', 'null'] },
    error: {
      type: 'object',
      required: ['code', 'message'],
      properties: {
        code: { type: 'integer' },
        message: { type: 'string' },
        data: { type: 'object', properties: { code: { const: 'invalid_request' }, resolution: { type: 'string' } } },
      },
    },
  },
};
/** Spec section 7: a request without the params its method needs, or a tools/call whose params are malformed. */
const specInvalidRequest = {
  allOf: [{ $ref: '#/components/schemas/ResolutionError' }, { properties: { error: { properties: { code: { const: 'invalid_request' } } } } }],
};

export function mcpRoutes(deps: AppDeps): RouteDef[] {
  const handlePost = mcpPost(deps, SERVICE_VERSION);
  return ['/v1/mcp', '/mcp'].flatMap((path): RouteDef[] => [
    defineRoute({
      method: 'POST',
      path,
      operationId: path === '/mcp' ? 'mcpAlias' : 'mcp',
      summary: path === '/mcp' ? 'MCP endpoint (alias of /v1/mcp)' : 'MCP endpoint (Streamable HTTP, stateless, JSON responses)',
      description: `JSON-RPC ${JSONRPC_VERSION}, one message per request: ${METHOD.initialize}, ${METHOD.ping}, ${METHOD.listTools} (execute and search), ${METHOD.callTool}. Notifications answer 202. Tool failures are results with isError. A message without the params its method needs, or a ${METHOD.callTool} whose params are not {name: string, arguments?: object}, is HTTP 400 in the spec's resolution shape {error: {code: "invalid_request", message, resolution}}. Other malformed JSON (${ErrorCode.ParseError}) and envelope problems (${ErrorCode.InvalidRequest}, ${ErrorCode.InvalidParams}) are HTTP 400 with a JSON-RPC error whose data holds {code: "invalid_request", resolution}. Protocol versions: ${SUPPORTED_PROTOCOL_VERSIONS.join(', ')}.`,
      tags: ['mcp'],
      // The Origin is checked first (a forged one is refused as such), then the handler asks for the token.
      auth: 'bearer',
      authCheck: 'handler',
      origin: 'always',
      body: rpcBody,
      responses: {
        200: { description: 'The JSON-RPC response.', jsonSchema: rpcResponse },
        202: { description: 'A notification was accepted.' },
        400: {
          description: `Missing params, or malformed ${METHOD.callTool} params: \`invalid_request\` in the resolution shape. Malformed JSON (${ErrorCode.ParseError}), not a JSON-RPC request (${ErrorCode.InvalidRequest}), wrong params of another method (${ErrorCode.InvalidParams}), or an unsupported MCP-Protocol-Version: a JSON-RPC error.`,
          jsonSchema: { oneOf: [specInvalidRequest, rpcErrorResponse] },
        },
      },
      errors: [
        'unauthorized',
        'ORIGIN_NOT_ALLOWED',
        'MCP_ACCESS_REVOKED',
        'INSUFFICIENT_SCOPE',
        'ORGANIZATION_MEMBERSHIP_REQUIRED',
        'payload_too_large',
        'unsupported_media_type',
        'engine_busy',
        'engine_quarantined',
      ],
      handle: handlePost,
    }),
    defineRoute({
      method: 'GET',
      path,
      operationId: path === '/mcp' ? 'mcpAliasGet' : 'mcpGet',
      summary: 'Not supported: no SSE stream (405)',
      tags: ['mcp'],
      auth: 'none',
      origin: 'always',
      responses: {},
      errors: ['method_not_allowed', 'ORIGIN_NOT_ALLOWED'],
      handle: mcpMethodNotAllowed,
      refusal: true,
    }),
    defineRoute({
      method: 'DELETE',
      path,
      operationId: path === '/mcp' ? 'mcpAliasDelete' : 'mcpDelete',
      summary: 'Not supported: no session (405)',
      tags: ['mcp'],
      auth: 'none',
      origin: 'always',
      responses: {},
      errors: ['method_not_allowed', 'ORIGIN_NOT_ALLOWED'],
      handle: mcpMethodNotAllowed,
      refusal: true,
    }),
  ]);
}
