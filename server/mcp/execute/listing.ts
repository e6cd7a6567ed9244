// The execute tool as tools/list shows it: the sandbox contract, the limits of this deployment, plan and apply, and a
// compact index of the bindings (marking those the caller cannot call). Its input and output schemas are generated
// from the ones /app/v1/execute validates with and answers in.
import { ERROR_TYPES, MAX_RESULT_DEPTH } from '../../../engine/index.ts';
import {
  ExecuteInput,
  jsonSchemaOf,
  tokenScopeOf,
  LIST_CONVENTION,
  NAMING_CONVENTION,
  recordSheet,
  refusalOf,
  type Binding,
  type Caller,
  type RefusalReason,
} from '../../../runtime-api/index.ts';
import type { Config } from '../../config.ts';
import type { Tool } from '../protocol.ts';
import { ExecuteToolOutput } from './result.ts';

/** What a caller refused for `reason` lacks, in a few words (the tool text is English, like the declarations). */
function needs(b: Binding, reason: RefusalReason): string {
  switch (reason) {
    case 'session':
      return 'a signed-in session';
    case 'api_key':
      return 'a person signed in, not an API key';
    case 'organization':
      return 'an organization selected';
    case 'role':
      return 'the owner or admin role';
    default:
      return tokenScopeOf(b) ?? 'another grant';
  }
}

function bindingIndex(bindings: readonly Binding[], caller: Caller | null): string {
  return bindings
    .map((b) => {
      const line = `- ${b.name}: ${b.summary.split(/(?<=\.)\s/)[0]}`;
      const refusal = caller ? refusalOf(b, caller) : null;
      return refusal ? `${line} [not callable with your grant: needs ${needs(b, refusal.reason)}]` : line;
    })
    .join('\n');
}

/** The arguments' schema, with the deployment's source cap (enforced by the engine, answered as limit_exceeded). */
function inputSchema(maxSourceBytes: number): Tool['inputSchema'] {
  const schema = jsonSchemaOf(ExecuteInput, 'input');
  schema.properties.script = { ...schema.properties.script, maxLength: maxSourceBytes };
  return schema as Tool['inputSchema'];
}

/** The execute tool as `caller` sees it (null: an unknown caller). */
export function executeListing(bindings: readonly Binding[], config: Config, caller: Caller | null): Tool {
  const e = config.engine;
  return {
    name: 'execute',
    title: 'Run a script against the workspace',
    description: `Runs JavaScript in an isolated sandbox against this workspace, as you, in the organization of your token.
Contract: the script is the body of an async function; \`return\` a JSON-serializable value. JavaScript or TypeScript: erasable TypeScript (type annotations, interfaces, type aliases, \`as\`, generics) is stripped before the run with line numbers kept; enums, namespaces and parameter properties are refused as syntax errors. No import/require, no fetch, no timers beyond await. A misspelt binding name fails with a ReferenceError that names the close bindings. Bindings are async globals taking one options object, e.g. \`const { items } = await files_list({ state: "active", limit: 50 }); return items.map(f => f.name);\`. ${LIST_CONVENTION} A failing binding throws an Error with \`code\` and \`resolution\`; catch it or let the script fail. console.log/info/warn/error are captured.
Limits: ${e.wallMs} ms wall time, ${e.cpuMs} ms CPU, ${e.memoryMb} MB memory, ${e.maxHostCalls} binding calls (${e.maxInFlight} run at once; more wait their turn, so Promise.all over many calls works), source ${e.maxSourceBytes} bytes, result ${e.maxResultBytes} bytes (nested at most ${MAX_RESULT_DEPTH} levels deep), all of it in structuredContent; the text content is shortened to about 24 KB, saying so.
On failure \`error.type\` says why: ${ERROR_TYPES.join(', ')} (\`crashed\`: the sandbox process failed, often from runaway memory; simplify the script).
Plan and apply (for batch edits you want to review): call with \`mode: "plan"\` to run the script with every write recorded instead of performed (a write returns \`{planned: true, index}\`); the result lists \`operations\` and a \`planToken\` valid 15 minutes. Then call again with the same script, \`mode: "apply"\` and that \`planToken\`: the script re-runs in one transaction and commits only if its writes equal the plan (\`applied: true\`); otherwise nothing changes and the result is an error saying why. A plan token applies once: applying it again is the error \`plan_already_applied\` (its writes are already in; nothing runs).
Use \`search\` for exact signatures; the \`context\` tool (empty arguments) or the \`context()\` binding tells your organization, role and scopes.
Bindings:
${bindingIndex(bindings, caller)}
Records: ${NAMING_CONVENTION} The shapes the common bindings return, each line ending with the bindings that return it (a list wraps them in \`{ items, nextCursor }\`):
${recordSheet(bindings)}`,
    inputSchema: inputSchema(e.maxSourceBytes),
    outputSchema: jsonSchemaOf(ExecuteToolOutput, 'output') as Tool['outputSchema'],
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
  };
}
