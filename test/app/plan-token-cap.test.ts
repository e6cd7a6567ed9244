// The planToken cap is one value on every face. A plan of the most writes one execution may make fits it; a token at
// the cap passes validation over /app/v1/execute and the MCP execute tool alike (and is then judged as a token), one
// character more is invalid input on both; and a plan whose token is past the old MCP cap (8,192) applies over MCP.
import t from 'tap';
import { generateKeyPair } from 'jose';
import { startTestApp } from '../helpers/app.ts';
import { http } from '../helpers/http.ts';
import { contract } from '../helpers/openapi-contract.ts';
import { loadConfig } from '../../server/config.ts';
import { newId } from '../../runtime-api/ids.ts';
import { PLAN_TOKEN_MAX_CHARS } from '../../runtime-api/execution/input.ts';
import { signPlan } from '../../runtime-api/execution/plan-token.ts';

const rpc = (method: string, params: unknown) => ({ jsonrpc: '2.0', id: 1, method, params });

t.test('a plan of every call an execution may make, each a write, fits the cap', async (t) => {
  const { maxHostCalls } = loadConfig({}).engine;
  const { privateKey } = await generateKeyPair('ES256');
  const operations = Array.from({ length: maxHostCalls }, (_, index) => ({
    index,
    binding: 'files_update',
    input: { fileId: newId('file'), name: `${index}.txt` },
  }));
  const token = await signPlan({ kid: newId('key'), privateKey }, { org: newId('org'), user: newId('usr'), source: 'return 1;', operations }, new Date());
  t.ok(token.length <= PLAN_TOKEN_MAX_CHARS, `${maxHostCalls} writes: ${token.length} characters`);
  t.ok(token.length > 8192, 'past the cap the MCP face used to have');
});

t.test('one cap on both faces', async (t) => {
  const app = await startTestApp(t, { env: { RATE_LIMIT_MAX: '100000', SCRIPT_WALL_MS: '30000' } });
  const token = await app.token({ email: 'cap@example.com' });
  const doc = (await http(`${app.url}/openapi.json`)).body;
  const c = contract(doc);
  const rest = (body: unknown) => http(`${app.url}/app/v1/execute`, { json: body, token });
  const mcp = async (args: unknown) => (await http(`${app.url}/v1/mcp`, { json: rpc('tools/call', { name: 'execute', arguments: args }), token })).body.result;

  t.test('both descriptions state it', async (t) => {
    const tools = (await http(`${app.url}/v1/mcp`, { json: rpc('tools/list', {}), token })).body.result.tools;
    t.equal(tools[0].inputSchema.properties.planToken.maxLength, PLAN_TOKEN_MAX_CHARS, 'the MCP tool listing');
    const body = doc.paths['/app/v1/execute'].post.requestBody.content['application/json'].schema;
    t.equal(body.properties.planToken.maxLength, PLAN_TOKEN_MAX_CHARS, 'the OpenAPI description');
  });

  t.test('a token at the cap is taken on both faces, then refused as a token', async (t) => {
    const edge = { script: 'return 1;', mode: 'apply', planToken: 'x'.repeat(PLAN_TOKEN_MAX_CHARS) };
    const viaRest = await rest(edge);
    t.equal(viaRest.status, 400);
    t.match(viaRest.body, { error: { code: 'invalid_input', resolution: /^`planToken`: not a plan token/ } });
    c.check(t, 'post', '/app/v1/execute', viaRest);
    const viaMcp = await mcp(edge);
    t.equal(viaMcp.isError, true);
    t.match(viaMcp.structuredContent, { ok: false, error: { type: 'tool_error', code: 'invalid_input', resolution: /^`planToken`: not a plan token/ } });
  });

  t.test('one character over is invalid input on both faces, naming planToken', async (t) => {
    const over = { script: 'return 1;', mode: 'apply', planToken: 'x'.repeat(PLAN_TOKEN_MAX_CHARS + 1) };
    const viaRest = await rest(over);
    t.equal(viaRest.status, 400);
    t.match(viaRest.body, { error: { code: 'invalid_input', message: String, resolution: /planToken/ } });
    t.notMatch(viaRest.body.error.resolution, /not a plan token/, 'refused by the schema, before it is read');
    c.check(t, 'post', '/app/v1/execute', viaRest);
    const viaMcp = await mcp(over);
    t.equal(viaMcp.isError, true);
    t.match(viaMcp.structuredContent, { ok: false, error: { type: 'invalid_input', message: /planToken/ } });
    t.notMatch(viaMcp.structuredContent.error.message, /not a plan token/);
    t.match(viaMcp.content[0].text, /^execute needs \{"script"/);
  });

  t.test('a plan planned over REST whose token is past 8,192 characters applies over MCP', async (t) => {
    const made = await rest({ script: 'await files_write_text({ name: "cap.txt", text: "x" }); return 1;' });
    t.equal(made.body.ok, true, JSON.stringify(made.body.error));
    const script = `const { items: [file] } = await files_list({ prefix: "cap" });
for (let i = 0; i < 600; i++) await files_update({ fileId: file.fileId, name: "cap-" + i + ".txt" });
return 600;`;
    const plan = await rest({ script, mode: 'plan' });
    t.equal(plan.status, 200);
    t.equal(plan.body.operations.length, 600);
    t.ok(plan.body.planToken.length > 8192, `a token of ${plan.body.planToken.length} characters`);
    const applied = await mcp({ script, mode: 'apply', planToken: plan.body.planToken });
    t.equal(applied.isError, false, JSON.stringify(applied.structuredContent.error));
    t.match(applied.structuredContent, { ok: true, applied: true, operationsOmitted: 500 });
    t.equal(applied.structuredContent.operations.length, 100, 'the tool result lists the first 100');
    const now = await rest({ script: 'return (await files_list({ prefix: "cap-" })).items.map((f) => f.name);' });
    t.same(now.body.result, ['cap-599.txt']);
  });
});
