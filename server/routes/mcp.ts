// POST /v1/mcp and its alias /mcp: the MCP endpoint pipeline (research/mcp.md B1) — origin, bearer token, the
// organization's MCP access state, method, body and envelope, scope gate — then JSON-RPC dispatch to the tools.
// GET and DELETE answer 405 (stateless: no SSE stream, no session to delete).
import type Koa from 'koa';
import * as v from 'valibot';
import { defineRoute, type RouteDef } from '../http/route.ts';
import { readJson } from '../http/body.ts';
import { ServiceError, l10n, BINDINGS, findBinding, invoke, executeInMode, type ExecuteOutcome, describeIssues, type Caller } from '../../runtime-api/index.ts';
import type { AppDeps } from '../deps.ts';
import { invokeDeps } from '../deps.ts';
import { wwwAuthenticate, type TokenCaller } from '../auth/token-caller.ts';
import { checkEnvelope, ErrorCode, JSONRPC_VERSION, METHOD, negotiateVersion, parseError, RpcProblem, rpcError, rpcResult, SUPPORTED_PROTOCOL_VERSIONS } from '../mcp/protocol.ts';
import type { CallToolResult, InitializeResult, JsonRpcRequest, ListToolsResult } from '../mcp/protocol.ts';
import { listedTools } from '../mcp/tools.ts';
import { searchBindings, searchText, type SearchDetail } from '../mcp/search.ts';
import { shapeExecuteResult } from '../mcp/execute-result.ts';
import { SERVICE_VERSION } from './openapi.ts';

/** Executions one token may have running at once (a per-token tool-call limit besides the global rate limit). */
const MAX_CONCURRENT_PER_TOKEN = 16;

const ExecuteArgs = v.strictObject({
  script: v.pipe(v.string(), v.minLength(1)),
  mode: v.optional(v.picklist(['run', 'plan', 'apply']), 'run'),
  planToken: v.optional(v.pipe(v.string(), v.maxLength(8192))),
});
/** Planned operations listed in a tool result at most (the plan token covers them all). */
const MAX_LISTED_OPERATIONS = 100;
const SearchArgs = v.strictObject({
  query: v.pipe(v.string(), v.maxLength(500)),
  limit: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(50)), 10),
  detail: v.optional(v.picklist(['names', 'summary', 'full']), 'summary'),
});

const INSTRUCTIONS = 'Workspace tools: `search` finds the bindings (with TypeScript signatures) that `execute` scripts can call; `execute` runs a JavaScript async-function body against your organization. An unlisted `context` tool (empty arguments) returns your organization, role and scopes.';

/** What plan and apply add to a result: the operations (the first MAX_LISTED_OPERATIONS), the token, applied. */
function planFields(result: ExecuteOutcome): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (result.operations) {
    out.operations = result.operations.slice(0, MAX_LISTED_OPERATIONS);
    if (result.operations.length > MAX_LISTED_OPERATIONS) out.operationsOmitted = result.operations.length - MAX_LISTED_OPERATIONS;
  }
  if (result.planToken) out.planToken = result.planToken;
  if (result.applied !== undefined) out.applied = result.applied;
  return out;
}

function toolError(text: string, extra: Record<string, unknown> = {}): CallToolResult {
  return { content: [{ type: 'text', text }], structuredContent: { ok: false, ...extra }, isError: true };
}

function insufficientScope(deps: AppDeps, path: string, held: readonly string[], needed: string): ServiceError {
  const scope = [...new Set([...held, needed])].join(' ');
  return new ServiceError('INSUFFICIENT_SCOPE', {
    resolution: l10n(`This call needs the scope ${needed}; request a token with scope "${scope}" (within the organization's maxScopes).`,
      `Esta chamada exige o escopo ${needed}; peça um token com scope "${scope}" (dentro do maxScopes da organização).`),
    headers: { 'WWW-Authenticate': wwwAuthenticate(deps, `, error="insufficient_scope", scope="${scope}"`, path) },
  });
}

/** The scopes the token was granted (offline_access included, so a step-up keeps the refresh token). */
function held(ctx: Koa.Context): string[] {
  return ((ctx.state.token as TokenCaller | undefined)?.claims.scope ?? '').split(' ').filter(Boolean);
}

export function mcpRoutes(deps: AppDeps): RouteDef[] {
  const inFlight = new Map<string, number>();
  // One tool list per distinct scope set (a handful): the index marks what the caller cannot call.
  const toolsByScopes = new Map<string, ReturnType<typeof listedTools>>();
  const toolsFor = (scopes: readonly string[]) => {
    const key = [...scopes].sort().join(' ');
    let tools = toolsByScopes.get(key);
    if (!tools) toolsByScopes.set(key, tools = listedTools(BINDINGS, deps.config, scopes));
    return tools;
  };
  const contextBinding = findBinding('context')!;

  async function callTool(ctx: Koa.Context, caller: Caller, id: JsonRpcRequest['id'], params: Record<string, unknown>) {
    const name = params.name as string;
    const args = (params.arguments ?? {}) as unknown;
    if (name === 'execute') {
      const parsed = v.safeParse(ExecuteArgs, args);
      if (!parsed.success) {
        const why = describeIssues(parsed.issues, caller.locale);
        return rpcResult(id, toolError(`execute needs {"script": "<the body of an async function>", "mode"?: "run"|"plan"|"apply", "planToken"?: string}: ${why}`, { error: { type: 'invalid_input', message: why } }));
      }
      const key = caller.credentialId ?? caller.userId;
      const running = inFlight.get(key) ?? 0;
      if (running >= MAX_CONCURRENT_PER_TOKEN) {
        throw new ServiceError('rate_limited', {
          resolution: l10n(`At most ${MAX_CONCURRENT_PER_TOKEN} executions may run at once per token; wait for one to finish.`,
            `No máximo ${MAX_CONCURRENT_PER_TOKEN} execuções podem rodar ao mesmo tempo por token; espere uma terminar.`),
          headers: { 'Retry-After': '1' } });
      }
      inFlight.set(key, running + 1);
      try {
        let result: ExecuteOutcome;
        try {
          result = await executeInMode({
            engine: deps.engine, deps: invokeDeps(deps), keys: deps.keys, via: 'mcp',
            // An uncaught scope refusal is a 403 step-up: the header names the scope to ask for.
            scopeError: (refusal) => typeof refusal.details?.requiredScope === 'string' ? insufficientScope(deps, ctx.path, held(ctx), refusal.details.requiredScope) : refusal,
          }, caller, parsed.output);
        } catch (err) {
          // A refused plan (bad token, writes changed: 400/409) is the tool's answer, not a transport failure.
          if (!(err instanceof ServiceError) || err.status >= 500 || err.status === 403 || err.status === 401 || err.status === 429) throw err;
          const message = err.toBody(caller.locale) as { message?: string; error?: { message: string } };
          const resolution = err.resolutionFor(caller.locale);
          return rpcResult(id, toolError(`${err.code}: ${message.error?.message ?? message.message}${resolution ? ` ${resolution}` : ''}`,
            { error: { type: 'tool_error', code: err.code, message: message.error?.message ?? message.message, ...(resolution ? { resolution } : {}) } }));
        }
        const { structured, text } = shapeExecuteResult(result, planFields(result));
        return rpcResult(id, { content: [{ type: 'text', text }], structuredContent: { ...structured }, isError: !result.ok } satisfies CallToolResult);
      } finally {
        const left = (inFlight.get(key) ?? 1) - 1;
        if (left <= 0) inFlight.delete(key); else inFlight.set(key, left);
      }
    }
    if (name === 'search') {
      const parsed = v.safeParse(SearchArgs, args);
      if (!parsed.success) return rpcResult(id, toolError('search needs {"query": string, "limit"?: 1..50, "detail"?: "names"|"summary"|"full"}.'));
      const found = searchBindings(BINDINGS, parsed.output.query, parsed.output.limit, parsed.output.detail as SearchDetail, caller.scopes);
      return rpcResult(id, { content: [{ type: 'text', text: searchText(found.results, found.total) }], structuredContent: { ...found } } satisfies CallToolResult);
    }
    if (name === 'context') {
      try {
        const out = await invoke(contextBinding, args, caller, invokeDeps(deps));
        return rpcResult(id, { content: [{ type: 'text', text: JSON.stringify(out) }], structuredContent: out } satisfies CallToolResult);
      } catch (err) {
        const e = err instanceof ServiceError ? err : new ServiceError('internal_error', { cause: err });
        if (e.status >= 500) throw e;
        return rpcResult(id, toolError(`${e.code}: ${e.resolutionFor(caller.locale) ?? e.message}`));
      }
    }
    return rpcError(id, ErrorCode.InvalidParams, `Unknown tool: ${name}. The tools are execute and search.`);
  }

  /** The JSON-RPC message, or null when a JSON-RPC error was already written (malformed JSON or envelope). */
  async function readMessage(ctx: Koa.Context): Promise<JsonRpcRequest | null> {
    try {
      const body = await readJson(ctx, deps.config.jsonBodyMaxBytes, parseError);
      const version = ctx.get('mcp-protocol-version');
      if (version && !(SUPPORTED_PROTOCOL_VERSIONS as readonly string[]).includes(version)) {
        throw new RpcProblem(ErrorCode.InvalidRequest, l10n(`Unsupported MCP-Protocol-Version ${version}; supported: ${SUPPORTED_PROTOCOL_VERSIONS.join(', ')}.`,
          `MCP-Protocol-Version ${version} não suportada; suportadas: ${SUPPORTED_PROTOCOL_VERSIONS.join(', ')}.`));
      }
      return checkEnvelope(body);
    } catch (err) {
      if (!(err instanceof RpcProblem)) throw err;
      ctx.status = 400;
      ctx.body = err.toBody(ctx.state.locale);
      return null;
    }
  }

  async function handlePost(ctx: Koa.Context) {
    const token = ctx.state.token as TokenCaller | undefined;
    const caller = ctx.state.caller as Caller | undefined;
    if (!token || !caller || caller.kind !== 'token') {
      throw new ServiceError('unauthorized', {
        resolution: l10n('Send an OAuth access token as Authorization: Bearer <token>; discover the authorization server from the resource metadata.',
          'Envie um token de acesso OAuth como Authorization: Bearer <token>; descubra o servidor de autorização pelos metadados do recurso.'),
        headers: { 'WWW-Authenticate': wwwAuthenticate(deps, '', ctx.path) },
      });
    }
    const msg = await readMessage(ctx);
    if (!msg) return;
    ctx.type = 'application/json';
    if (msg.id === undefined) { // a notification
      ctx.body = ''; // an empty body, then the status: a notification is 202 Accepted with nothing to say
      ctx.status = 202;
      ctx.remove('Content-Type');
      return;
    }
    switch (msg.method) {
      case METHOD.initialize:
        ctx.body = rpcResult(msg.id, {
          protocolVersion: negotiateVersion(msg.params?.protocolVersion),
          capabilities: { tools: { listChanged: false } },
          serverInfo: { name: 'siglata', title: 'Siglata workspace', version: SERVICE_VERSION },
          instructions: INSTRUCTIONS,
        } satisfies InitializeResult);
        return;
      case METHOD.ping:
        ctx.body = rpcResult(msg.id, {});
        return;
      case METHOD.listTools:
        ctx.body = rpcResult(msg.id, { tools: toolsFor(caller.scopes) } satisfies ListToolsResult);
        return;
      case METHOD.callTool:
        ctx.body = await callTool(ctx, caller, msg.id, msg.params!);
        return;
      default:
        ctx.body = rpcError(msg.id, ErrorCode.MethodNotFound, `Method not found: ${msg.method}`);
    }
  }

  function methodNotAllowed(ctx: Koa.Context) {
    ctx.set('Allow', 'POST');
    throw new ServiceError('method_not_allowed', {
      resolution: l10n('This MCP endpoint is stateless: send JSON-RPC messages with POST; there is no SSE stream or session to open or delete.',
        'Este endpoint MCP não guarda estado: envie mensagens JSON-RPC com POST; não há fluxo SSE nem sessão para abrir ou excluir.'),
    });
  }

  const rpcBody = { contentType: 'application/json', jsonSchema: { type: 'object', required: ['jsonrpc', 'method'], properties: { jsonrpc: { const: JSONRPC_VERSION }, id: { type: ['string', 'integer', 'null'] }, method: { type: 'string' }, params: { type: 'object' } } } };
  const rpcResponse = { type: 'object', required: ['jsonrpc'], properties: { jsonrpc: { const: JSONRPC_VERSION }, id: {}, result: {}, error: { type: 'object' } } };
  const rpcErrorResponse = {
    type: 'object', required: ['jsonrpc', 'id', 'error'],
    properties: {
      jsonrpc: { const: JSONRPC_VERSION }, id: { type: ['string', 'integer', 'null'] },
      error: { type: 'object', required: ['code', 'message'], properties: { code: { type: 'integer' }, message: { type: 'string' }, data: { type: 'object', properties: { code: { const: 'invalid_request' }, resolution: { type: 'string' } } } } },
    },
  };
  return ['/v1/mcp', '/mcp'].flatMap((path): RouteDef[] => [
    defineRoute({
      method: 'POST', path, operationId: path === '/mcp' ? 'mcpAlias' : 'mcp',
      summary: path === '/mcp' ? 'MCP endpoint (alias of /v1/mcp)' : 'MCP endpoint (Streamable HTTP, stateless, JSON responses)',
      description: `JSON-RPC ${JSONRPC_VERSION}, one message per request: ${METHOD.initialize}, ${METHOD.ping}, ${METHOD.listTools} (execute and search), ${METHOD.callTool}. Notifications answer 202. Tool failures are results with isError; malformed JSON (${ErrorCode.ParseError}) and envelope problems (${ErrorCode.InvalidRequest}, ${ErrorCode.InvalidParams}) are HTTP 400 with a JSON-RPC error whose data holds {code: "invalid_request", resolution}. Protocol versions: ${SUPPORTED_PROTOCOL_VERSIONS.join(', ')}.`,
      tags: ['mcp'], auth: 'none', origin: 'always', body: rpcBody,
      responses: {
        200: { description: 'The JSON-RPC response.', jsonSchema: rpcResponse },
        202: { description: 'A notification was accepted.' },
        400: { description: `Malformed JSON (${ErrorCode.ParseError}), not a JSON-RPC request (${ErrorCode.InvalidRequest}), missing or wrong params (${ErrorCode.InvalidParams}), or an unsupported MCP-Protocol-Version: a JSON-RPC error.`, jsonSchema: rpcErrorResponse },
      },
      errors: ['unauthorized', 'ORIGIN_NOT_ALLOWED', 'MCP_ACCESS_REVOKED', 'INSUFFICIENT_SCOPE', 'ORGANIZATION_MEMBERSHIP_REQUIRED', 'payload_too_large', 'unsupported_media_type', 'engine_busy', 'engine_quarantined'],
      handle: handlePost,
    }),
    defineRoute({
      method: 'GET', path, operationId: path === '/mcp' ? 'mcpAliasGet' : 'mcpGet', summary: 'Not supported: no SSE stream (405)',
      tags: ['mcp'], auth: 'none', origin: 'always', responses: {}, errors: ['method_not_allowed', 'ORIGIN_NOT_ALLOWED'], handle: methodNotAllowed, refusal: true,
    }),
    defineRoute({
      method: 'DELETE', path, operationId: path === '/mcp' ? 'mcpAliasDelete' : 'mcpDelete', summary: 'Not supported: no session (405)',
      tags: ['mcp'], auth: 'none', origin: 'always', responses: {}, errors: ['method_not_allowed', 'ORIGIN_NOT_ALLOWED'], handle: methodNotAllowed, refusal: true,
    }),
  ]);
}
