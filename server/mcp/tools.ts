// The MCP tools: `execute` and `search` are listed; `context` is callable but unlisted. Their descriptions carry
// the sandbox contract and a compact index of the bindings, generated from the registry.
import { BINDINGS, refusalOf, type Binding, type Caller } from '../../runtime-api/index.ts';
import type { Config } from '../config.ts';
import type { Tool } from './protocol.ts';
import { executeListing } from './execute/listing.ts';
import { searchListing } from './search-tool.ts';

/** The tools as `caller` sees them (null: an unknown caller): bindings it cannot call are marked in the index, with why. */
export function listedTools(bindings: readonly Binding[], config: Config, caller: Caller | null = null): Tool[] {
  return [executeListing(bindings, config, caller), searchListing];
}

/** tools/list for a caller, built once per distinct set of refusals (a handful: by scopes, role and kind of credential). */
export function toolLister(config: Config): (caller: Caller) => Tool[] {
  const byRefusals = new Map<string, Tool[]>();
  return (caller) => {
    const key = BINDINGS.map((b) => refusalOf(b, caller)?.reason ?? '').join(',');
    let tools = byRefusals.get(key);
    if (!tools) byRefusals.set(key, (tools = listedTools(BINDINGS, config, caller)));
    return tools;
  };
}
