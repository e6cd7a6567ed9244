// The MCP tools: `execute` and `search` are listed; `context` is callable but unlisted. Their descriptions carry
// the sandbox contract and a compact index of the bindings, generated from the registry.
import type { Binding } from '../../runtime-api/define.ts';
import type { Config } from '../config.ts';
import { MAX_RESULT_DEPTH } from '../../engine/prelude.ts';
import { ERROR_TYPES } from '../../engine/result.ts';

export const TEXT_CAP_BYTES = 24 * 1024;

/** What `error.type` of an execution can be, for the execute tool's and /app/v1/execute's descriptions. */
export const ERROR_TYPE_DOC = `Why the script failed: one of ${ERROR_TYPES.join(', ')}. \`crashed\`: the sandbox process running it failed (a fatal engine error, its memory cap, or it hung); nothing else was affected and an apply was rolled back. \`quarantined\`: this organization's scripts crashed the sandbox repeatedly and are refused for a cool-down (HTTP 429 engine_quarantined with Retry-After).`;

function bindingIndex(bindings: readonly Binding[]): string {
  return bindings.map((b) => `- ${b.name}: ${b.summary.split(/(?<=\.)\s/)[0]}`).join('\n');
}

export function listedTools(bindings: readonly Binding[], config: Config) {
  const e = config.engine;
  return [
    {
      name: 'execute',
      title: 'Run a script against the workspace',
      description: `Runs JavaScript in an isolated sandbox against this workspace, as you, in the organization of your token.
Contract: the script is the body of an async function; \`return\` a JSON-serializable value. Plain JavaScript (no TypeScript syntax, no import/require, no fetch, no timers beyond await). Bindings are async globals taking one options object, e.g. \`const { items } = await files_list({ state: "active", limit: 50 }); return items.map(f => f.name);\`. A failing binding throws an Error with \`code\` and \`resolution\`; catch it or let the script fail. console.log/info/warn/error are captured.
Limits: ${e.wallMs} ms wall time, ${e.cpuMs} ms CPU, ${e.memoryMb} MB memory, ${e.maxHostCalls} binding calls (${e.maxInFlight} at once), source ${e.maxSourceBytes} bytes, result ${e.maxResultBytes} bytes (nested at most ${MAX_RESULT_DEPTH} levels deep), all of it in structuredContent; the text content is shortened to about 24 KB, saying so.
On failure \`error.type\` says why: ${ERROR_TYPES.join(', ')} (\`crashed\`: the sandbox process failed, often from runaway memory; simplify the script).
Use \`search\` for exact signatures; the \`context\` tool (empty arguments) or the \`context()\` binding tells your organization, role and scopes.
Bindings:
${bindingIndex(bindings)}`,
      inputSchema: {
        type: 'object',
        properties: { script: { type: 'string', minLength: 1, maxLength: e.maxSourceBytes, description: 'The body of an async function.' } },
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
