// The MCP protocol as the SDK defines it: the endpoint's versions, error codes, method names and params checks come
// from @modelcontextprotocol/sdk (a protocol upgrade is a dependency bump), and no protocol constant is hand-copied
// into the MCP code. Checked on the wire against the SDK's own values, and by reading the MCP sources.
import t from 'tap';
import { readFile, readdir } from 'node:fs/promises';
import {
  CallToolResultSchema,
  ErrorCode,
  InitializeResultSchema,
  JSONRPC_VERSION,
  LATEST_PROTOCOL_VERSION,
  ListToolsResultSchema,
  SUPPORTED_PROTOCOL_VERSIONS,
} from '@modelcontextprotocol/sdk/types.js';
import { startTestApp } from '../helpers/app.ts';
import { http } from '../helpers/http.ts';

const rpc = (method: string, params?: unknown) => ({ jsonrpc: JSONRPC_VERSION, id: 1, method, ...(params !== undefined ? { params } : {}) });
const clientInfo = { name: 'protocol-test', version: '1' };

t.test("the endpoint speaks the SDK's protocol", async (t) => {
  const app = await startTestApp(t, { env: { RATE_LIMIT_MAX: '100000' } });
  const token = await app.token({ email: 'protocol@example.com' });
  const call = (body: unknown, headers: Record<string, string> = {}) => http(`${app.url}/v1/mcp`, { json: body, token, headers });

  t.test("every protocol version the SDK supports is negotiated; another gets the SDK's latest", async (t) => {
    for (const version of SUPPORTED_PROTOCOL_VERSIONS) {
      const init = await call(rpc('initialize', { protocolVersion: version, capabilities: {}, clientInfo }));
      t.equal(init.body.result?.protocolVersion, version, version);
      t.ok(InitializeResultSchema.safeParse(init.body.result).success, `${version}: an InitializeResult by the SDK's schema`);
      t.equal((await call(rpc('ping'), { 'mcp-protocol-version': version })).status, 200, `${version} accepted as MCP-Protocol-Version`);
    }
    const other = await call(rpc('initialize', { protocolVersion: '2023-01-01', capabilities: {}, clientInfo }));
    t.equal(other.body.result.protocolVersion, LATEST_PROTOCOL_VERSION);
  });

  t.test("replies parse with the SDK's result schemas", async (t) => {
    const list = await call(rpc('tools/list'));
    const parsed = ListToolsResultSchema.safeParse(list.body.result);
    t.ok(parsed.success, parsed.success ? 'a ListToolsResult' : JSON.stringify(parsed.error.issues));
    for (const [name, args] of [
      ['execute', { script: 'return 1' }],
      ['execute', { script: 'throw new Error("x")' }],
      ['search', { query: 'files' }],
      ['execute', {}],
    ] as const) {
      const res = await call(rpc('tools/call', { name, arguments: args }));
      const r = CallToolResultSchema.safeParse(res.body.result);
      t.ok(r.success, `${name} ${JSON.stringify(args)}: a CallToolResult`);
    }
  });

  t.test("params that break the SDK's request schemas are -32602, naming each field (tools/call's are the spec's invalid_request)", async (t) => {
    for (const [body, field] of [
      [rpc('initialize', { protocolVersion: '2025-06-18', capabilities: {} }), 'params.clientInfo'],
      [rpc('initialize', { capabilities: {}, clientInfo }), 'params.protocolVersion'],
    ] as const) {
      const res = await call(body);
      t.equal(res.status, 400, JSON.stringify(body));
      t.equal(res.body.jsonrpc, JSONRPC_VERSION);
      t.equal(res.body.error?.code, ErrorCode.InvalidParams, `${field}: InvalidParams`);
      t.match(res.body.error?.data?.resolution, field, `${field} is named`);
    }
    for (const body of [rpc('tools/call', { name: 'execute', arguments: 'return 1' }), rpc('tools/call', { name: 'execute', arguments: [] })]) {
      const res = await call(body);
      t.equal(res.status, 400);
      t.equal(res.body.error?.code, 'invalid_request', 'spec section 7: the resolution shape');
      t.match(res.body.error?.resolution, 'params.arguments', 'the field is named');
    }
    const pt = await call(rpc('initialize', { protocolVersion: '2025-06-18', capabilities: {} }), { 'x-service-locale': 'pt-BR' });
    t.match(pt.body.error.data.resolution, /não segue o protocolo/);
    t.equal((await call(rpc('resources/list'))).body.error?.code, ErrorCode.MethodNotFound, "an undeclared capability's method");
  });
});

t.test('the MCP sources hold no hand-copied protocol constant', async (t) => {
  const root = new URL('../../server/', import.meta.url);
  const files = [...(await readdir(new URL('mcp/', root), { recursive: true })).map((f) => `mcp/${f}`), 'routes/mcp.ts'].filter((f) => f.endsWith('.ts'));
  for (const file of files) {
    // Comments may name codes and versions; code may not.
    const code = (await readFile(new URL(file, root), 'utf8')).replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
    t.notMatch(code, /['"`]2\.0['"`]/, `${file}: the JSON-RPC version comes from the SDK`);
    t.notMatch(code, /['"`]20\d\d-\d\d-\d\d['"`]/, `${file}: protocol versions come from the SDK`);
    t.notMatch(code, /-?\b32[0-9]{3}\b/, `${file}: JSON-RPC error codes come from the SDK (ErrorCode)`);
    t.notMatch(code, /['"`](initialize|ping|tools\/list|tools\/call)['"`]/, `${file}: method names come from the SDK's request schemas`);
  }
});
