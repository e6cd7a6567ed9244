// The MCP tools: `execute` and `search` are listed; `context` is callable but unlisted. Their descriptions carry
// the sandbox contract and a compact index of the bindings, generated from the registry.
import { BINDINGS, type Binding } from '../../runtime-api/index.ts';
import type { Config } from '../config.ts';
import type { Tool } from './protocol.ts';
import { executeListing } from './execute/listing.ts';
import { searchListing } from './search-tool.ts';

/** The tools as a caller holding `scopes` sees them: bindings it cannot call are marked in the index. */
export function listedTools(bindings: readonly Binding[], config: Config, scopes: readonly string[] | null = null): Tool[] {
  return [executeListing(bindings, config, scopes), searchListing];
}

/** tools/list for a caller's scopes, built once per distinct scope set (a handful). */
export function toolLister(config: Config): (scopes: readonly string[]) => Tool[] {
  const byScopes = new Map<string, Tool[]>();
  return (scopes) => {
    const key = [...scopes].sort().join(' ');
    let tools = byScopes.get(key);
    if (!tools) byScopes.set(key, (tools = listedTools(BINDINGS, config, scopes)));
    return tools;
  };
}
