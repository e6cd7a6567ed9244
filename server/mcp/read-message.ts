// The JSON-RPC message of a POST: the body read as JSON within the size limit, the MCP-Protocol-Version header
// checked, the envelope checked. A message JSON-RPC cannot process is answered here, as a JSON-RPC error.
import type Koa from 'koa';
import { readJson } from '../http/body.ts';
import { checkEnvelope, ErrorCode, parseError, RpcProblem, SUPPORTED_PROTOCOL_VERSIONS, type JsonRpcRequest } from './protocol.ts';
import { RPC_PROBLEMS } from './messages.ts';

/** The message, or null when a JSON-RPC error was already written (malformed JSON or envelope). */
export async function readMessage(ctx: Koa.Context, limit: number): Promise<JsonRpcRequest | null> {
  try {
    const body = await readJson(ctx, limit, parseError);
    const version = ctx.get('mcp-protocol-version');
    if (version && !(SUPPORTED_PROTOCOL_VERSIONS as readonly string[]).includes(version)) {
      throw new RpcProblem(ErrorCode.InvalidRequest, RPC_PROBLEMS.unsupportedVersion(version, SUPPORTED_PROTOCOL_VERSIONS));
    }
    return checkEnvelope(body);
  } catch (err) {
    if (!(err instanceof RpcProblem)) throw err;
    ctx.status = 400;
    ctx.body = err.toBody(ctx.state.locale);
    return null;
  }
}
