// The MCP endpoint's handlers (research/mcp.md B1). POST takes one JSON-RPC message from a token caller, checks its
// body and envelope, and dispatches it; GET and DELETE answer 405 (stateless: no SSE stream, no session to delete).
// The origin, the token and the organization's MCP access state were checked before, by the origin guard and the
// Bearer middleware.
import type Koa from 'koa';
import type { Caller } from '../../runtime-api/index.ts';
import type { AppDeps } from '../deps.ts';
import { wwwAuthenticate } from '../auth/token-caller.ts';
import { ErrorCode, METHOD, rpcError, rpcResult, type ListToolsResult } from './protocol.ts';
import { readMessage } from './read-message.ts';
import { initializeResult } from './initialize.ts';
import { toolLister } from './tools.ts';
import { toolCaller } from './call-tool.ts';
import { statelessMethodNotAllowed, tokenRequired } from './messages.ts';

/** Only an access token calls MCP: anything else is told where to get one. */
function tokenCallerOf(deps: AppDeps, ctx: Koa.Context): Caller {
  const token = ctx.state.token;
  const caller = ctx.state.caller;
  if (token && caller && caller.kind === 'token') return caller;
  throw tokenRequired(wwwAuthenticate(deps, '', ctx.path));
}

export function mcpPost(deps: AppDeps, serviceVersion: string): Koa.Middleware {
  const toolsFor = toolLister(deps.config);
  const callTool = toolCaller(deps);
  return async function handlePost(ctx) {
    const caller = tokenCallerOf(deps, ctx);
    const msg = await readMessage(ctx, deps.config.jsonBodyMaxBytes);
    if (!msg) return;
    ctx.type = 'application/json';
    if (msg.id === undefined) {
      // a notification
      ctx.body = ''; // an empty body, then the status: a notification is 202 Accepted with nothing to say
      ctx.status = 202;
      ctx.remove('Content-Type');
      return;
    }
    switch (msg.method) {
      case METHOD.initialize:
        ctx.body = rpcResult(msg.id, initializeResult(msg.params, serviceVersion));
        return;
      case METHOD.ping:
        ctx.body = rpcResult(msg.id, {});
        return;
      case METHOD.listTools:
        ctx.body = rpcResult(msg.id, { tools: toolsFor(caller) } satisfies ListToolsResult);
        return;
      case METHOD.callTool:
        ctx.body = await callTool(ctx, caller, msg.id, msg.params!);
        return;
      default:
        ctx.body = rpcError(msg.id, ErrorCode.MethodNotFound, `Method not found: ${msg.method}`);
    }
  };
}

export function mcpMethodNotAllowed(ctx: Koa.Context): never {
  ctx.set('Allow', 'POST');
  throw statelessMethodNotAllowed();
}
