// The service as the CLI sees it: MCP tools (execute, search) over JSON-RPC, bindings run through `execute`
// scripts, and /app/v1/execute for plan and apply.
import { Api } from './http.ts';
import { CliError, errorFromBody } from './errors.ts';
import { t } from './i18n.ts';

export const MCP_PROTOCOL_VERSION = '2025-06-18';

export interface ExecuteError {
  type: string;
  code?: string;
  message: string;
  line?: number;
  resolution?: string;
}

export interface ExecuteContent {
  ok: boolean;
  result?: unknown;
  logs: unknown[];
  error?: ExecuteError;
  truncated: boolean;
  resolution?: string;
  stats: { wallMs: number; cpuMs: number; hostCalls: number; queueMs: number };
  operations?: { index: number; binding: string; input: unknown }[];
  planToken?: string;
  applied?: boolean;
}

let nextId = 1;

/** One `tools/call`; the server is stateless, so no session is set up first. */
export async function callTool(api: Api, name: string, args: Record<string, unknown>): Promise<{ isError: boolean; structuredContent: any; text: string }> {
  const res = await api.json('/v1/mcp', {
    headers: { accept: 'application/json, text/event-stream', 'mcp-protocol-version': MCP_PROTOCOL_VERSION },
    json: { jsonrpc: '2.0', id: nextId++, method: 'tools/call', params: { name, arguments: args } },
  });
  const body = res.body ?? {};
  if (body.error) throw new CliError(String(body.error.data?.code ?? body.error.code), String(body.error.message), { resolution: body.error.data?.resolution });
  const result = body.result ?? {};
  const text = Array.isArray(result.content)
    ? result.content
        .filter((c: any) => c?.type === 'text')
        .map((c: any) => c.text)
        .join('\n')
    : '';
  return { isError: result.isError === true, structuredContent: result.structuredContent, text };
}

export async function execute(api: Api, script: string): Promise<ExecuteContent> {
  const out = await callTool(api, 'execute', { script });
  const content = out.structuredContent as ExecuteContent | undefined;
  if (!content || typeof content.ok !== 'boolean') throw new CliError('http_error', t('badResponse', { status: 200 }), { resolution: t('badResponseHelp') });
  // Servers before the whole-result fix put a preview in structuredContent too: never pass it off as the result.
  const preview = content.result as { preview?: unknown; originalBytes?: unknown } | null | undefined;
  if (content.ok && content.resolution && typeof preview?.preview === 'string' && typeof preview.originalBytes === 'number') {
    throw new CliError('result_truncated', t('resultCut', { bytes: preview.originalBytes }), { resolution: t('resultCutHelp') });
  }
  return content;
}

/** The error of a failed execution, as a CliError (binding errors keep their code and resolution). */
export function executionError(content: ExecuteContent): CliError {
  const e = content.error;
  if (!e) return new CliError('script_error', t('scriptFailed'), { resolution: content.resolution });
  const where = e.line ? ` (line ${e.line})` : '';
  return new CliError(e.code ?? e.type, `${e.message}${where}`, { resolution: e.resolution ?? content.resolution, details: { type: e.type } });
}

/**
 * Run one binding with `input` and return its output. The input travels as a JSON literal inside the script
 * (JSON is valid JavaScript), so no value can turn into code.
 */
export async function callBinding<T = any>(api: Api, name: string, input: Record<string, unknown>): Promise<T> {
  if (!/^[a-z_]+$/.test(name)) throw new Error(`not a binding name: ${name}`);
  const content = await execute(api, `return await ${name}(${JSON.stringify(input)});`);
  if (!content.ok) throw executionError(content);
  return content.result as T;
}

/** Every item of a list binding: its pages are walked inside one execution, so a long list is still one request. */
export async function callList<T = any>(api: Api, name: string, input: Record<string, unknown>): Promise<T[]> {
  if (!/^[a-z_]+$/.test(name)) throw new Error(`not a binding name: ${name}`);
  const content = await execute(
    api,
    `const items = [];
let cursor = null;
do {
  const page = await ${name}({ ...${JSON.stringify(input)}, cursor });
  items.push(...page.items);
  cursor = page.nextCursor;
} while (cursor);
return items;`,
  );
  if (!content.ok) throw executionError(content);
  return content.result as T[];
}

export interface BatchOutcome<T> {
  id: string;
  ok: boolean;
  value?: T;
  error?: { code: string; message: string; resolution?: string };
}

/** Ids per execution: well inside the engine's host-call cap (1000), source size (100 KB) and wall time (5 s). */
export const IDS_PER_EXECUTION = 200;

/**
 * One binding over many ids, IDS_PER_EXECUTION per execution; each id succeeds or fails on its own. Only `fields`
 * of each value come back (all when omitted), so the answer stays small whatever the binding returns.
 */
export async function callBindingForEach<T = any>(api: Api, name: string, key: string, ids: string[], fields?: readonly string[]): Promise<BatchOutcome<T>[]> {
  if (!/^[a-z_]+$/.test(name) || !/^[a-zA-Z]+$/.test(key)) throw new Error('bad binding call');
  const out: BatchOutcome<T>[] = [];
  for (let i = 0; i < ids.length; i += IDS_PER_EXECUTION) {
    const script = `const out = [];
const keep = ${JSON.stringify(fields ?? null)};
const pick = (v) => keep && v && typeof v === 'object' ? Object.fromEntries(keep.map((k) => [k, v[k]])) : v;
for (const id of ${JSON.stringify(ids.slice(i, i + IDS_PER_EXECUTION))}) {
  try { out.push({ id, ok: true, value: pick(await ${name}({ ${key}: id })) }); }
  catch (e) { out.push({ id, ok: false, error: { code: e.code ?? 'error', message: e.message, resolution: e.resolution } }); }
}
return out;`;
    const content = await execute(api, script);
    if (!content.ok) throw executionError(content);
    const outcomes = content.result;
    // A reply of another shape (an older or newer server) is reported, never half-read.
    if (!Array.isArray(outcomes) || !outcomes.every((o) => typeof o?.id === 'string' && typeof o.ok === 'boolean')) {
      throw new CliError('http_error', t('badResponse', { status: 200 }), { resolution: t('badResponseHelp') });
    }
    out.push(...(outcomes as BatchOutcome<T>[]));
  }
  return out;
}

/** POST /app/v1/execute: run, plan, or apply a plan. */
export async function appExecute(api: Api, body: { script: string; mode: 'run' | 'plan' | 'apply'; planToken?: string }): Promise<ExecuteContent> {
  return (await api.json<ExecuteContent>('/app/v1/execute', { json: body })).body;
}

/** POST /ask (JSON answer). */
export async function ask(api: Api, text: string, maxResults?: number): Promise<any> {
  const res = await api.json('/ask', {
    auth: false,
    accept: [400, 413, 415, 503],
    json: { query: { text, ...(maxResults ? { max_results: maxResults } : {}) }, prefer: { streaming: false } },
  });
  if (res.status !== 200) throw errorFromBody(res.status, res.body);
  return res.body;
}

export interface Call {
  binding: string;
  input: Record<string, unknown>;
}

/**
 * Binding calls per execution: inside the engine's 1,000 host calls, and few enough for 5 s of wall time even though
 * writes to an organization's files take its lock one at a time.
 */
export const CALLS_PER_EXECUTION = 200;

/**
 * Many binding calls, CALLS_PER_EXECUTION per execution (a few in flight at once), each succeeding or failing on its
 * own; outcomes in the order of `calls`. Inputs travel as JSON literals, as in callBinding.
 */
export async function callMany(api: Api, calls: readonly Call[]): Promise<{ ok: boolean; error?: { code: string; message: string; resolution?: string } }[]> {
  for (const c of calls) if (!/^[a-z_]+$/.test(c.binding)) throw new Error(`not a binding name: ${c.binding}`);
  const out: { ok: boolean; error?: { code: string; message: string; resolution?: string } }[] = [];
  for (let i = 0; i < calls.length; i += CALLS_PER_EXECUTION) {
    const group = calls.slice(i, i + CALLS_PER_EXECUTION);
    const bindings = [...new Set(group.map((c) => c.binding))];
    const script = `const calls = ${JSON.stringify(group.map((c) => [bindings.indexOf(c.binding), c.input]))};
const fns = [${bindings.join(', ')}];
const out = new Array(calls.length);
let next = 0;
const worker = async () => {
  for (let i = next++; i < calls.length; i = next++) {
    try { await fns[calls[i][0]](calls[i][1]); out[i] = { ok: true }; }
    catch (e) { out[i] = { ok: false, error: { code: e.code ?? 'error', message: e.message, resolution: e.resolution } }; }
  }
};
await Promise.all([worker(), worker(), worker(), worker()]);
return out;`;
    // A group whose execution failed (a time limit met under load) leaves its calls' fate unknown: each says so, with
    // the reason, and the next group still runs.
    let result: unknown[] = [];
    let why = '';
    try {
      const content = await appExecute(api, { script, mode: 'run' });
      if (!content.ok) throw executionError(content);
      if (Array.isArray(content.result)) result = content.result;
    } catch (err) {
      if (!(err instanceof CliError)) throw err;
      why = `: ${err.code}: ${err.message}`;
    }
    for (let j = 0; j < group.length; j++) {
      const o = result[j] as { ok?: unknown } | undefined;
      out.push(
        typeof o?.ok === 'boolean' ? (o as { ok: boolean }) : { ok: false, error: { code: 'unknown_outcome', message: `${t('unknownOutcome')}${why}` } },
      );
    }
  }
  return out;
}
