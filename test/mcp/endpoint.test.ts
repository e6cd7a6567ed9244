// The MCP endpoint over real HTTP: the B1 pipeline order, the tools, truncation, scopes and access state.
import t from 'tap';
import { request } from 'undici';
import { startTestApp } from '../helpers/app.ts';
import { http } from '../helpers/http.ts';

const rpc = (method: string, params?: unknown, id: number | undefined = 1) => ({
  jsonrpc: '2.0',
  ...(id !== undefined ? { id } : {}),
  method,
  ...(params !== undefined ? { params } : {}),
});

t.test('MCP endpoint', async (t) => {
  const app = await startTestApp(t, { env: { RATE_LIMIT_MAX: '100000' } });
  const token = await app.token({ email: 'mcp@example.com' });
  const call = (body: unknown, opts: { token?: string; path?: string; headers?: Record<string, string> } = {}) =>
    http(`${app.url}${opts.path ?? '/v1/mcp'}`, { json: body, token: opts.token ?? token, headers: opts.headers });
  const execute = (script: string, tok = token) => call(rpc('tools/call', { name: 'execute', arguments: { script } }), { token: tok });

  t.test('401 with the resource metadata of the path that was hit', async (t) => {
    for (const path of ['/v1/mcp', '/mcp']) {
      const res = await http(`${app.url}${path}`, { json: rpc('tools/list') });
      t.equal(res.status, 401);
      t.equal(res.headers['www-authenticate'], `Bearer resource_metadata="${app.url}/.well-known/oauth-protected-resource${path}"`);
      t.equal(res.body.error.code, 'unauthorized');
      const bad = await http(`${app.url}${path}`, { json: rpc('tools/list'), token: 'garbage' });
      t.equal(bad.status, 401);
      t.match(bad.headers['www-authenticate'], `resource_metadata="${app.url}/.well-known/oauth-protected-resource${path}", error="invalid_token"`);
    }
  });

  t.test('a disallowed Origin is 403 ORIGIN_NOT_ALLOWED; an allowed one passes', async (t) => {
    const res = await call(rpc('tools/list'), { headers: { origin: 'https://evil.example' } });
    t.equal(res.status, 403);
    t.equal(res.body.error.code, 'ORIGIN_NOT_ALLOWED');
    t.equal((await call(rpc('tools/list'), { headers: { origin: app.url } })).status, 200);
  });

  t.test('GET and DELETE are 405 with Allow: POST', async (t) => {
    for (const method of ['GET', 'DELETE']) {
      const res = await http(`${app.url}/v1/mcp`, { method, token });
      t.equal(res.status, 405);
      t.equal(res.headers.allow, 'POST');
      t.equal(res.body.error.code, 'method_not_allowed');
    }
  });

  t.test('body and envelope checks answer in the resolution shape', async (t) => {
    const text = await http(`${app.url}/v1/mcp`, { body: JSON.stringify(rpc('tools/list')), token, headers: { 'content-type': 'text/plain' } });
    t.equal(text.status, 415);
    const big = await http(`${app.url}/v1/mcp`, {
      body: JSON.stringify({ ...rpc('tools/list'), pad: 'x'.repeat(1024 * 1024) }),
      token,
      headers: { 'content-type': 'application/json' },
    });
    t.equal(big.status, 413);
    t.equal(big.body.error.code, 'payload_too_large');
  });

  t.test('malformed JSON-RPC is answered in JSON-RPC with HTTP 400', async (t) => {
    const raw = (body: string, headers: Record<string, string> = {}) =>
      http(`${app.url}/v1/mcp`, { body, token, headers: { 'content-type': 'application/json', ...headers } });
    for (const body of ['{"jsonrpc":"2.0","id":1,"method":"tools/li', '', 'not json', '\u00ff']) {
      const res = await raw(body);
      t.equal(res.status, 400, `truncated/invalid: ${JSON.stringify(body)}`);
      t.match(res.body, { jsonrpc: '2.0', id: null, error: { code: -32700, message: String, data: { code: 'invalid_request' } } });
    }
    for (const [body, code, id, why] of [
      [[rpc('tools/list')], -32600, null, /batch/i],
      [{ id: 7, method: 'tools/list' }, -32600, 7, /jsonrpc/],
      [{ jsonrpc: '1.0', id: 'a', method: 'tools/list' }, -32600, 'a', /jsonrpc/],
      [{ jsonrpc: '2.0', id: 3 }, -32600, 3, /method/],
      [{ jsonrpc: '2.0', id: { x: 1 }, method: 'ping' }, -32600, null, /id/],
      [42, -32600, null, /object/],
      [{ jsonrpc: '2.0', id: 2, method: 'ping', params: [1] }, -32602, 2, /params/],
    ] as const) {
      const res = await call(body);
      t.equal(res.status, 400, JSON.stringify(body));
      t.equal(res.body.jsonrpc, '2.0');
      t.equal(res.body.id, id);
      t.equal(res.body.error.code, code);
      t.match(res.body.error.data.resolution, why);
    }
    const version = await call(rpc('tools/list'), { headers: { 'mcp-protocol-version': '1999-01-01' } });
    t.equal(version.status, 400);
    t.match(version.body, { jsonrpc: '2.0', id: null, error: { code: -32600, message: /1999-01-01/ } });
  });

  t.test("a tools/call without params, or with params not shaped {name, arguments}, is the spec's 400 invalid_request", async (t) => {
    for (const [body, why] of [
      [rpc('tools/call'), /needs a "params" object with "name" and "arguments"/],
      [rpc('tools/call', [1]), /"params" must be an object/],
      [rpc('tools/call', 'execute'), /"params" must be an object/],
      [{ ...rpc('tools/call'), params: null }, /"params" must be an object/],
      [rpc('tools/call', { arguments: {} }), /params\.name/],
      [rpc('tools/call', { name: 7, arguments: {} }), /params\.name/],
      [rpc('tools/call', { name: 'execute', arguments: 'return 1' }), /params\.arguments/],
      [rpc('tools/call', { name: 'execute', arguments: [] }), /params\.arguments/],
      [rpc('initialize'), /"initialize" needs a "params" object/],
    ] as const) {
      const res = await call(body);
      t.equal(res.status, 400, JSON.stringify(body));
      t.same(Object.keys(res.body), ['error'], 'the resolution shape, nothing else');
      t.same(Object.keys(res.body.error).sort(), ['code', 'message', 'resolution']);
      t.equal(res.body.error.code, 'invalid_request');
      t.match(res.body.error.message, /request is malformed/);
      t.match(res.body.error.resolution, why);
    }
    const pt = await call(rpc('tools/call'), { headers: { 'x-service-locale': 'pt-BR' } });
    t.match(pt.body, { error: { code: 'invalid_request', message: /está malformada/, resolution: /precisa de um objeto "params"/ } });
  });

  t.test('initialize negotiates; notifications are 202; tools/list is exactly execute and search', async (t) => {
    const init = await call(rpc('initialize', { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } }));
    t.equal(init.status, 200);
    t.equal(init.body.result.protocolVersion, '2025-06-18');
    t.match(init.body.result.capabilities, { tools: {} });
    const note = await call({ jsonrpc: '2.0', method: 'notifications/initialized' });
    t.equal(note.status, 202);
    t.equal(note.text, '');
    const list = await call(rpc('tools/list'));
    t.same(
      list.body.result.tools.map((x: { name: string }) => x.name),
      ['execute', 'search'],
    );
    t.match(list.body.result.tools[0].description, /files_list/, 'execute carries the binding index');
    t.equal(list.headers['mcp-session-id'], undefined, 'stateless');
  });

  t.test("execute runs the script as the token's user and organization", async (t) => {
    const res = await execute('const c = await context(); console.log("hi", c.role); return { org: c.organization.slug, n: 1 + 1 };');
    t.equal(res.status, 200);
    const r = res.body.result;
    t.equal(r.isError, false);
    t.match(r.structuredContent, { ok: true, result: { org: 'org-mcp', n: 2 }, truncated: false, stats: { hostCalls: 1 } });
    t.same(JSON.parse(r.content[0].text), r.structuredContent, 'the same JSON as text');
    t.ok(r.structuredContent.logs.length === 1);
  });

  t.test('a failing script is an isError result with the error type', async (t) => {
    const res = await execute('await files_get({ fileId: "fil_aaaaaaaaaaaaaaaaaaaaaaaaaa" });');
    t.equal(res.status, 200);
    t.equal(res.body.result.isError, true);
    t.match(res.body.result.structuredContent.error, { type: 'tool_error', code: 'not_found' });
    const syntax = await execute('return 1 +;');
    t.match(syntax.body.result.structuredContent.error, { type: 'syntax_error', line: 1 });
  });

  t.test('structuredContent carries the whole result up to the result limit; only the text is shortened, saying so', async (t) => {
    for (const [length, pad] of [
      [5000, 0],
      [2000, 400],
      [1, 1000 * 1000 - 200],
    ] as const) {
      const res = await execute(`return Array.from({ length: ${length} }, (_, i) => ({ i, name: "file-" + i, pad: "é".repeat(${pad} / 2) }));`);
      const r = res.body.result;
      t.equal(r.structuredContent.ok, true, JSON.stringify(r.structuredContent.error));
      t.equal(r.structuredContent.result.length, length, `${length} items: the whole result is structured`);
      t.equal(r.structuredContent.result.at(-1).i, length - 1);
      t.equal(r.structuredContent.truncated, false, 'the logs were not cut');
      t.ok(Buffer.byteLength(r.content[0].text) <= 24 * 1024, 'text stays under ~24 KB');
      const text = JSON.parse(r.content[0].text);
      t.equal(text.textShortened, true, 'the text says it is shortened');
      t.match(text.resolution, /structuredContent carries the whole result/);
      t.match(text.result, { preview: String, originalBytes: Number });
    }
    const small = await execute('return [1, 2, 3];');
    t.same(JSON.parse(small.body.result.content[0].text), small.body.result.structuredContent, 'a small result: text and structured are the same JSON');
    const over = await execute('return "x".repeat(1024 * 1024 + 1);');
    t.equal(over.body.result.structuredContent.error.code, 'max_result_bytes', 'beyond the limit: an error, not a silent cut');
  });

  t.test('search returns declarations generated from the registry; context is callable but unlisted', async (t) => {
    const res = await call(rpc('tools/call', { name: 'search', arguments: { query: 'upload a file', limit: 3 } }));
    const found = res.body.result.structuredContent;
    t.ok(found.results.some((r: { name: string }) => r.name === 'upload_begin'));
    t.match(res.body.result.content[0].text, /declare function upload_begin\(/);
    const exact = await call(rpc('tools/call', { name: 'search', arguments: { query: 'files_list', detail: 'full' } }));
    t.equal(exact.body.result.structuredContent.results[0].name, 'files_list');
    const ctx = await call(rpc('tools/call', { name: 'context', arguments: {} }));
    t.match(ctx.body.result.structuredContent, { organization: { slug: 'org-mcp' }, role: 'owner' });
    const unknown = await call(rpc('tools/call', { name: 'nope', arguments: {} }));
    t.equal(unknown.body.error.code, -32602);
  });

  t.test('a missing scope at runtime is a 403 step-up challenge; lowering maxScopes applies at once', async (t) => {
    const ro = await app.token({ email: 'mcp@example.com', scopes: ['files:read'] });
    const res = await execute('await files_trash({ fileId: "fil_x" });', ro);
    t.equal(res.status, 403);
    t.equal(res.body.error.code, 'INSUFFICIENT_SCOPE');
    t.match(res.headers['www-authenticate'], /error="insufficient_scope", scope="files:read files:write"/);
    const caught = await execute('try { await files_trash({ fileId: "fil_x" }); } catch (e) { return e.code; }', ro);
    t.equal(caught.body.result.structuredContent.result, 'INSUFFICIENT_SCOPE', 'a script may catch it instead');
    const [org] = await app.deps.sql`select id from organizations where slug = 'org-mcp'`;
    await app.deps.sql`update org_mcp_access set max_scopes = array[]::text[] where org_id = ${org.id}`;
    const capped = await execute('return 1;');
    t.equal(capped.status, 403);
    t.equal(capped.body.error.code, 'INSUFFICIENT_SCOPE');
    // Asking for a scope the ceiling excludes cannot help: the agent is told who can widen it, and offered no step-up.
    t.match(capped.body.error.message, /needs the scope files:read, which this organization does not allow agents \(maxScopes: none\)/);
    t.match(capped.body.error.resolution, /Requesting a new token will not help: ask an owner or admin .*\/console\/agents/);
    t.notMatch(capped.headers['www-authenticate'], /scope=/, 'no scope to step up to');
    await app.deps.sql`update org_mcp_access set max_scopes = array['files:read','files:write','org:read','org:admin'] where org_id = ${org.id}`;
  });

  t.test('revoked MCP access is 403 MCP_ACCESS_REVOKED; a fresh organization starts in testing', async (t) => {
    const fresh = await app.mint({ email: 'fresh@example.com' });
    t.equal((await app.deps.sql`select count(*)::int as n from org_mcp_access where org_id = ${fresh.orgId}`)[0].n, 0);
    t.equal((await call(rpc('tools/list'), { token: fresh.token })).status, 200);
    const [row] = await app.deps.sql`select state from org_mcp_access where org_id = ${fresh.orgId}`;
    t.equal(row.state, 'testing');
    await app.deps.sql`update org_mcp_access set state = 'revoked' where org_id = ${fresh.orgId}`;
    const res = await call(rpc('tools/list'), { token: fresh.token });
    t.equal(res.status, 403);
    t.equal(res.body.error.code, 'MCP_ACCESS_REVOKED');
    t.notOk(res.headers['www-authenticate'], 'no challenge: clients must stop, not retry');
  });

  t.test('every execution is in the audit log', async (t) => {
    const res = await execute('const { items } = await executions_list({ limit: 100 }); return items.length;');
    t.ok(res.body.result.structuredContent.result >= 5);
    const [row] = await app.deps.sql`select via, mode, ok from executions order by created_at desc limit 1`;
    t.match(row, { via: 'mcp', mode: 'run' });
  });

  t.test('undici keeps working against the endpoint (content type check)', async (t) => {
    const res = await request(`${app.url}/v1/mcp`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify(rpc('ping')),
    });
    t.equal(res.statusCode, 200);
    t.match(res.headers['content-type'], /application\/json/);
    t.same(await res.body.json(), { jsonrpc: '2.0', id: 1, result: {} });
  });
});

t.test('CORS on the MCP endpoint for allowed origins only', async (t) => {
  const app = await startTestApp(t);
  const pre = await http(`${app.url}/v1/mcp`, {
    method: 'OPTIONS',
    headers: { origin: app.url, 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization, content-type' },
  });
  t.equal(pre.status, 204);
  t.equal(pre.headers['access-control-allow-origin'], app.url);
  t.match(pre.headers['access-control-allow-headers'], /Authorization/);
  const denied = await http(`${app.url}/mcp`, { method: 'OPTIONS', headers: { origin: 'https://evil.example', 'access-control-request-method': 'POST' } });
  t.equal(denied.status, 403);
  t.equal(denied.body.error.code, 'ORIGIN_NOT_ALLOWED');
  const unauth = await http(`${app.url}/v1/mcp`, { json: { jsonrpc: '2.0', id: 1, method: 'tools/list' }, headers: { origin: app.url } });
  t.equal(unauth.status, 401);
  t.match(unauth.headers['access-control-expose-headers'], /WWW-Authenticate/, 'a browser client can read the challenge');
});

t.test("an agent's TypeScript runs through MCP execute, and the tool text says so", async (t) => {
  const app = await startTestApp(t);
  const token = await app.token({ email: 'ts@example.com' });
  const call = (body: unknown) => http(`${app.url}/v1/mcp`, { json: body, token });
  const list = await call(rpc('tools/list'));
  t.match(list.body.result.tools[0].description, /TypeScript/);
  t.notMatch(list.body.result.tools[0].description, /no TypeScript/);
  const res = await call(
    rpc('tools/call', { name: 'execute', arguments: { script: 'interface Ctx { role: string }\nconst c: Ctx = await context();\nreturn c.role as string;' } }),
  );
  t.match(res.body.result.structuredContent, { ok: true, result: 'owner' });
  const miss = await call(rpc('tools/call', { name: 'execute', arguments: { script: 'return await file_list({});' } }));
  t.match(miss.body.result.structuredContent.error, { type: 'script_error', message: /Did you mean files_list/ });

  const many = await call(
    rpc('tools/call', {
      name: 'execute',
      arguments: { script: 'const all = await Promise.all(Array.from({ length: 100 }, () => context())); return all.length;' },
    }),
  );
  t.match(many.body.result.structuredContent, { ok: true, result: 100, stats: { hostCalls: 100 } }, 'Promise.all over 100 binding calls');
});

t.test('plan and apply through MCP execute: mode and planToken, described in the tool text', async (t) => {
  const app = await startTestApp(t);
  const token = await app.token({ email: 'plan@example.com' });
  const call = (body: unknown) => http(`${app.url}/v1/mcp`, { json: body, token });
  const execute = async (args: Record<string, unknown>) => (await call(rpc('tools/call', { name: 'execute', arguments: args }))).body.result;
  const list = await call(rpc('tools/list'));
  const tool = list.body.result.tools[0];
  t.match(tool.description, /mode: "plan"/);
  t.same(tool.inputSchema.properties.mode.enum, ['run', 'plan', 'apply']);
  await execute({ script: 'for (const n of ["a", "b"]) await files_write_text({ name: `draft-${n}.txt`, text: n }); return 1;' });
  const RENAME =
    'const { items } = await files_list({ prefix: "draft-" }); for (const f of items) await files_update({ fileId: f.fileId, name: f.name.replace("draft-", "final-") }); return items.length;';
  const plan = await execute({ script: RENAME, mode: 'plan' });
  t.equal(plan.isError, false);
  t.match(plan.structuredContent, {
    ok: true,
    result: 2,
    operations: [
      { index: 0, binding: 'files_update' },
      { index: 1, binding: 'files_update' },
    ],
    planToken: String,
  });
  const untouched = await execute({ script: 'return (await files_list({ prefix: "final-" })).items.length;' });
  t.equal(untouched.structuredContent.result, 0, 'planning wrote nothing');
  const applied = await execute({ script: RENAME, mode: 'apply', planToken: plan.structuredContent.planToken });
  t.match(applied.structuredContent, { ok: true, applied: true });
  const after = await execute({ script: 'return (await files_list({ prefix: "final-" })).items.length;' });
  t.equal(after.structuredContent.result, 2);
  // A spent token, a changed script or a missing token is an isError tool result saying why, in JSON-RPC.
  const again = await execute({ script: RENAME, mode: 'apply', planToken: plan.structuredContent.planToken });
  t.equal(again.isError, true);
  t.match(again.structuredContent.error, { code: 'plan_already_applied', message: /already applied .* its 2 writes were committed then/ });
  const fresh = await execute({ script: 'return 1;', mode: 'plan' });
  const other = await execute({ script: 'return 2;', mode: 'apply', planToken: fresh.structuredContent.planToken });
  t.equal(other.isError, true);
  t.match(other.structuredContent.error, { code: 'conflict', message: /differs from the planned one/ });
  const noToken = await execute({ script: RENAME, mode: 'apply' });
  t.match(noToken.structuredContent.error, { code: 'invalid_input', resolution: /planToken/ });
  const badMode = await execute({ script: 'return 1;', mode: 'dry' });
  t.equal(badMode.isError, true);
  t.match(badMode.content[0].text, /`mode`/);
});

t.test('search finds intents by the words users say; detail levels differ; scopes are marked', async (t) => {
  const app = await startTestApp(t);
  const token = await app.token({ email: 'intent@example.com' });
  const ro = await app.token({ email: 'intent@example.com', scopes: ['files:read'] });
  const call = (body: unknown, tok = token) => http(`${app.url}/v1/mcp`, { json: body, token: tok });
  const search = async (query: string, extra: Record<string, unknown> = {}, tok = token) =>
    (await call(rpc('tools/call', { name: 'search', arguments: { query, ...extra } }), tok)).body.result;
  for (const [query, expected] of [
    ['move file to folder', 'files_update'],
    ['rename a file', 'files_update'],
    ['throw away a file', 'files_trash'],
    ['permanently erase', 'files_delete'],
    ['undelete my report', 'files_restore'],
    ['who am i', 'context'],
    ['add a user to the team', 'member_invite'],
    ['promote to admin', 'member_update_role'],
    ['open an excel sheet', 'spreadsheet_read'],
    ['audit log of scripts', 'executions_list'],
    ['upload a large file', 'upload_begin'],
    ['save a note', 'files_write_text'],
  ] as const) {
    const found = await search(query, { limit: 3 });
    t.equal(found.structuredContent.results[0]?.name, expected, `"${query}" → ${expected}`);
  }
  const del = (await search('delete a file', { limit: 2 })).structuredContent.results.map((r: { name: string }) => r.name).sort();
  t.same(del, ['files_delete', 'files_trash'], '"delete a file": the trash and the permanent delete');
  const names = await search('files_list', { detail: 'names' });
  const summary = await search('files_list', { detail: 'summary' });
  const full = await search('files_list', { detail: 'full' });
  t.notOk(names.structuredContent.results[0].declaration, 'names: no declaration');
  t.ok(summary.structuredContent.results[0].declaration && !summary.structuredContent.results[0].examples, 'summary: the declaration, no examples');
  t.ok(full.structuredContent.results[0].examples?.length && full.structuredContent.results[0].description, 'full: examples and description');
  t.ok(new Set([names.content[0].text, summary.content[0].text, full.content[0].text]).size === 3, 'three different texts');
  t.match(full.content[0].text, /Example 1:/);
  // A read-only token: write bindings are marked in search and in the execute tool's index.
  const roHit = (await search('files_write_text', {}, ro)).structuredContent.results[0];
  t.match(roHit, { name: 'files_write_text', callable: false, requiredScope: 'files:write' });
  t.match((await search('files_write_text', {}, ro)).content[0].text, /Not callable with your grant: files_write_text needs the scope files:write/);
  t.equal((await search('files_list', {}, ro)).structuredContent.results[0].callable, true);
  const roTools = (await call(rpc('tools/list'), ro)).body.result.tools;
  t.match(roTools[0].description, /- files_write_text: [^\n]*\[not callable with your grant: needs files:write\]/);
  t.notMatch(roTools[0].description, /- files_list: [^\n]*not callable/);
  t.match(
    roTools[0].description,
    /- organization_create: [^\n]*\[not callable with your grant: needs org:read\]/,
    'personal bindings need org:read on a token',
  );
  const rwTools = (await call(rpc('tools/list'))).body.result.tools;
  t.notMatch(rwTools[0].description, /- files_write_text: [^\n]*not callable/);
  t.match(rwTools[0].description, /- mcp_access_set: [^\n]*needs a signed-in session/, 'session-only bindings are marked for tokens');
  t.notMatch(rwTools[0].description, /- organization_create: [^\n]*not callable/, "a person's token holding org:read may create an organization");
});
