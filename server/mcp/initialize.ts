// initialize: the protocol version agreed, what this server can do, and instructions a client may show its model.
import { negotiateVersion, type InitializeResult } from './protocol.ts';

const INSTRUCTIONS =
  'Workspace tools: `search` finds the bindings (with TypeScript signatures) that `execute` scripts can call; `execute` runs a JavaScript async-function body against your organization. An unlisted `context` tool (empty arguments) returns your organization, role and scopes.';

export function initializeResult(params: Record<string, unknown> | undefined, serviceVersion: string): InitializeResult {
  return {
    protocolVersion: negotiateVersion(params?.protocolVersion),
    capabilities: { tools: { listChanged: false } },
    serverInfo: { name: 'siglata', title: 'Siglata workspace', version: serviceVersion },
    instructions: INSTRUCTIONS,
  };
}
