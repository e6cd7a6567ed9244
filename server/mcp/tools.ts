// The MCP tools: `execute` and `search` are listed; `context` is callable but unlisted. Their descriptions carry
// the sandbox contract and a compact index of the bindings, generated from the registry.
import { tokenScopeOf, type Binding, LIST_CONVENTION } from '../../runtime-api/index.ts';
import type { Config } from '../config.ts';
import { ERROR_TYPES, MAX_RESULT_DEPTH } from '../../engine/index.ts';
import { canCall } from './search.ts';
import type { Tool } from './protocol.ts';

export const TEXT_CAP_BYTES = 24 * 1024;

/** What `error.type` of an execution can be, for the execute tool's and /app/v1/execute's descriptions. */
export const ERROR_TYPE_DOC = `Why the script failed: one of ${ERROR_TYPES.join(', ')}. \`crashed\`: the sandbox process running it failed (a fatal engine error, its memory cap, or it hung); nothing else was affected and an apply was rolled back. \`quarantined\`: this organization's scripts crashed the sandbox repeatedly and are refused for a cool-down (HTTP 429 engine_quarantined with Retry-After).`;

function bindingIndex(bindings: readonly Binding[], scopes: readonly string[] | null): string {
  return bindings.map((b) => {
    const line = `- ${b.name}: ${b.summary.split(/(?<=\.)\s/)[0]}`;
    return canCall(b, scopes) ? line : `${line} [not callable with your grant: needs ${b.sessionOnly ? 'a signed-in session' : tokenScopeOf(b)}]`;
  }).join('\n');
}

/** The tools as a caller holding `scopes` sees them: bindings it cannot call are marked in the index. */
export function listedTools(bindings: readonly Binding[], config: Config, scopes: readonly string[] | null = null): Tool[] {
  const e = config.engine;
  return [
    {
      name: 'execute',
      title: 'Run a script against the workspace',
      description: `Runs JavaScript in an isolated sandbox against this workspace, as you, in the organization of your token.
Contract: the script is the body of an async function; \`return\` a JSON-serializable value. JavaScript or TypeScript: erasable TypeScript (type annotations, interfaces, type aliases, \`as\`, generics) is stripped before the run with line numbers kept; enums, namespaces and parameter properties are refused as syntax errors. No import/require, no fetch, no timers beyond await. A misspelt binding name fails with a ReferenceError that names the close bindings. Bindings are async globals taking one options object, e.g. \`const { items } = await files_list({ state: "active", limit: 50 }); return items.map(f => f.name);\`. ${LIST_CONVENTION} A failing binding throws an Error with \`code\` and \`resolution\`; catch it or let the script fail. console.log/info/warn/error are captured.
Limits: ${e.wallMs} ms wall time, ${e.cpuMs} ms CPU, ${e.memoryMb} MB memory, ${e.maxHostCalls} binding calls (${e.maxInFlight} run at once; more wait their turn, so Promise.all over many calls works), source ${e.maxSourceBytes} bytes, result ${e.maxResultBytes} bytes (nested at most ${MAX_RESULT_DEPTH} levels deep), all of it in structuredContent; the text content is shortened to about 24 KB, saying so.
On failure \`error.type\` says why: ${ERROR_TYPES.join(', ')} (\`crashed\`: the sandbox process failed, often from runaway memory; simplify the script).
Plan and apply (for batch edits you want to review): call with \`mode: "plan"\` to run the script with every write recorded instead of performed (a write returns \`{planned: true, index}\`); the result lists \`operations\` and a \`planToken\` valid 15 minutes. Then call again with the same script, \`mode: "apply"\` and that \`planToken\`: the script re-runs in one transaction and commits only if its writes equal the plan (\`applied: true\`); otherwise nothing changes and the result is an error saying why.
Use \`search\` for exact signatures; the \`context\` tool (empty arguments) or the \`context()\` binding tells your organization, role and scopes.
Bindings:
${bindingIndex(bindings, scopes)}`,
      inputSchema: {
        type: 'object',
        properties: {
          script: { type: 'string', minLength: 1, maxLength: e.maxSourceBytes, description: 'The body of an async function, in JavaScript or erasable TypeScript.' },
          mode: { type: 'string', enum: ['run', 'plan', 'apply'], default: 'run', description: '"run" performs the writes; "plan" records them and returns operations and a planToken; "apply" re-runs the planned script atomically.' },
          planToken: { type: 'string', maxLength: 8192, description: 'With mode "apply": the planToken from the plan result.' },
        },
        required: ['script'],
        additionalProperties: false,
      },
      outputSchema: {
        type: 'object',
        properties: {
          ok: { type: 'boolean' },
          result: {},
          logs: { type: 'array' },
          error: { type: 'object', properties: { type: { type: 'string', description: ERROR_TYPE_DOC } } },
          truncated: { type: 'boolean' },
          stats: { type: 'object' },
          operations: { type: 'array', description: 'plan/apply: the write calls in order ({index, binding, input}).' },
          operationsOmitted: { type: 'integer' },
          planToken: { type: 'string' },
          applied: { type: 'boolean' },
        },
        required: ['ok', 'logs', 'truncated', 'stats'],
      },
      annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
    },
    {
      name: 'search',
      title: 'Find bindings and their TypeScript signatures',
      description: `Searches the bindings available to \`execute\` scripts and returns their TypeScript declarations (generated from the same schemas the sandbox enforces) with scopes and examples. An empty query lists every binding. detail: "names", "summary" (declarations, the default) or "full" (with examples).`,
      inputSchema: {
        type: 'object',
        properties: {
          query: { type: 'string', maxLength: 500 },
          limit: { type: 'integer', minimum: 1, maximum: 50, default: 10 },
          detail: { type: 'string', enum: ['names', 'summary', 'full'], default: 'summary' },
        },
        required: ['query'],
        additionalProperties: false,
      },
      annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    },
  ];
}
