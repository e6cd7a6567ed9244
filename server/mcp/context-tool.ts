// The context tool, callable but unlisted: the `context` binding, for clients that want to know where they are
// before they write a script.
import { ServiceError, findBinding, invoke, type Caller } from '../../runtime-api/index.ts';
import { invokeDeps, type AppDeps } from '../deps.ts';
import type { CallToolResult } from './protocol.ts';
import { toolError } from './tool-error.ts';

export function contextTool(deps: AppDeps) {
  const contextBinding = findBinding('context')!;
  return async function callContext(caller: Caller, args: unknown): Promise<CallToolResult> {
    try {
      const out = await invoke(contextBinding, args, caller, invokeDeps(deps));
      return { content: [{ type: 'text', text: JSON.stringify(out) }], structuredContent: out } satisfies CallToolResult;
    } catch (err) {
      const e = err instanceof ServiceError ? err : new ServiceError('internal_error', { cause: err });
      if (e.status >= 500) throw e;
      return toolError(`${e.code}: ${e.resolutionFor(caller.locale) ?? e.message}`);
    }
  };
}
