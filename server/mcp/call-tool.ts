// tools/call: each tool's call by its name; an unknown name is a JSON-RPC error naming the tools.
import type Koa from 'koa';
import type { Caller } from '../../runtime-api/index.ts';
import type { AppDeps } from '../deps.ts';
import { ErrorCode, rpcError, rpcResult, type JsonRpcRequest } from './protocol.ts';
import { executeTool } from './execute/call.ts';
import { callSearch } from './search-tool.ts';
import { contextTool } from './context-tool.ts';

export function toolCaller(deps: AppDeps) {
  const callExecute = executeTool(deps);
  const callContext = contextTool(deps);
  return async function callTool(ctx: Koa.Context, caller: Caller, id: JsonRpcRequest['id'], params: Record<string, unknown>) {
    const name = params.name as string;
    const args = (params.arguments ?? {}) as unknown;
    if (name === 'execute') return rpcResult(id, await callExecute(ctx, caller, args));
    if (name === 'search') return rpcResult(id, callSearch(caller, args));
    if (name === 'context') return rpcResult(id, await callContext(caller, args));
    return rpcError(id, ErrorCode.InvalidParams, `Unknown tool: ${name}. The tools are execute and search.`);
  };
}
