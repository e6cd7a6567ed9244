// Clients nobody here wrote, against the real endpoint: the official MCP SDK Client over Streamable HTTP, and the
// MCP Inspector in CLI mode.
import t from 'tap';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport, StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CallToolResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { startTestApp } from '../helpers/app.ts';

const run = promisify(execFile);
// The Inspector 2.x launcher (the `mcp-inspector` bin); `--cli` selects its CLI client.
const INSPECTOR = fileURLToPath(new URL('../../node_modules/@modelcontextprotocol/inspector/clients/launcher/build/index.js', import.meta.url));
const INSPECTOR_CWD = fileURLToPath(new URL('../../', import.meta.url));

function cleanEnv(): NodeJS.ProcessEnv {
  const env = { ...process.env };
  delete env.NODE_OPTIONS; // tap's hooks must not load into the inspector
  return env;
}

t.test('third-party MCP clients', async (t) => {
  const app = await startTestApp(t, { env: { RATE_LIMIT_MAX: '100000' } });
  const token = await app.token({ email: 'sdk@example.com' });

  for (const path of ['/v1/mcp', '/mcp']) {
    t.test(`the official SDK Client with a Bearer token on ${path}`, async (t) => {
      const client = new Client({ name: 'sdk-test', version: '1.0.0' });
      const transport = new StreamableHTTPClientTransport(new URL(`${app.url}${path}`), { requestInit: { headers: { authorization: `Bearer ${token}` } } });
      await client.connect(transport);
      t.teardown(() => client.close());
      const { tools } = await client.listTools();
      t.same(
        tools.map((x) => x.name),
        ['execute', 'search'],
      );
      const result = await client.callTool({
        name: 'execute',
        arguments: {
          script: 'await files_write_text({ name: "hello.txt", text: "hi" }); const { items } = await files_list({}); return items.map((f) => f.name);',
        },
      });
      t.equal(result.isError, false);
      t.match(result.structuredContent, { ok: true, result: ['hello.txt'] });
      // A result far above the text cap: the SDK gets it whole in structuredContent, the text says it is shortened.
      const big = await client.callTool({
        name: 'execute',
        arguments: { script: 'return Array.from({ length: 3000 }, (_, i) => ({ i, s: "w".repeat(100) }));' },
      });
      t.equal((big.structuredContent as { result: unknown[] }).result.length, 3000);
      const bigText = JSON.parse((big.content as { text: string }[])[0].text);
      t.equal(bigText.textShortened, true);
      t.ok(Buffer.byteLength((big.content as { text: string }[])[0].text) <= 24 * 1024);
      const search = await client.callTool({ name: 'search', arguments: { query: 'trash' } });
      t.match((search.content as { text: string }[])[0].text, /declare function files_trash\(/);
      await client.callTool({
        name: 'execute',
        arguments: {
          script:
            'const { items } = await files_list({}); for (const f of items) await files_delete({ fileId: f.fileId, permanent: true }).catch(() => files_trash({ fileId: f.fileId })); return 1;',
        },
      });
    });
  }

  t.test("the SDK Client reads every answer execute gives against the tool's own output schema", async (t) => {
    // The SDK checks structuredContent against outputSchema even when isError is set: an answer the schema does not
    // describe reaches the agent as a schema mismatch instead of its message.
    const client = new Client({ name: 'sdk-refusals', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${app.url}/v1/mcp`), { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
    t.teardown(() => client.close());
    await client.listTools();
    const answers: [string, Record<string, unknown>, RegExp][] = [
      ['arguments the schema refuses', { mode: 'run' }, /execute needs/],
      ['a script that throws', { script: 'throw new Error("boom")' }, /boom/],
      ['a syntax error', { script: 'return (' }, /syntax|Unexpected/i],
      ['a plan token that is not one', { script: 'return 1', mode: 'apply', planToken: 'x'.repeat(40) }, /invalid_input|plan/i],
      ['a script over its time', { script: 'for (;;) {}' }, /timeout|ran longer/i],
    ];
    for (const [what, args, message] of answers) {
      const result = await client.callTool({ name: 'execute', arguments: args });
      t.equal(result.isError, true, `${what}: an error result, not a thrown schema mismatch`);
      t.match((result.content as { text: string }[])[0].text, message, `${what}: its message reaches the client`);
      t.equal((result.structuredContent as { ok: boolean }).ok, false, what);
    }
  });

  t.test("the SDK Client sees a tools/call without params refused in the spec's error shape", async (t) => {
    // The SDK never parses an HTTP 400 body as a JSON-RPC reply: it throws with the status and the body's text, so
    // what the caller learns is the spec's {error: {code, message, resolution}}, or nothing usable.
    const client = new Client({ name: 'sdk-malformed', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${app.url}/v1/mcp`), { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
    t.teardown(() => client.close());
    for (const request of [{ method: 'tools/call' }, { method: 'tools/call', params: { arguments: { script: 'return 1' } } }]) {
      const err = await client.request(request as never, CallToolResultSchema).then(
        () => null,
        (e: unknown) => e,
      );
      t.ok(err instanceof StreamableHTTPError, JSON.stringify(request));
      t.equal((err as StreamableHTTPError).code, 400);
      const text = (err as Error).message;
      const body = JSON.parse(text.slice(text.indexOf('{')));
      t.equal(body.error.code, 'invalid_request');
      t.type(body.error.message, 'string');
      t.type(body.error.resolution, 'string');
    }
  });

  t.test('the MCP Inspector CLI lists the tools and calls execute', async (t) => {
    // `mcp-inspector --cli`: target URL first, then options.
    const base = ['--cli', `${app.url}/v1/mcp`, '--transport', 'http', '--header', `Authorization: Bearer ${token}`];
    const list = await run(process.execPath, [INSPECTOR, ...base, '--method', 'tools/list'], { env: cleanEnv(), cwd: INSPECTOR_CWD, timeout: 60_000 });
    const tools = JSON.parse(list.stdout.slice(list.stdout.indexOf('{'))).tools.map((x: { name: string }) => x.name);
    t.same(tools, ['execute', 'search']);
    t.notMatch(list.stderr, /Schema portability|warning|error/i, 'the listing draws no schema finding');
    // --strict prints every tool-schema finding (path, issue, fix) on stderr and exits 6 on an error-severity one.
    const strict = await run(process.execPath, [INSPECTOR, ...base, '--method', 'tools/list', '--strict'], {
      env: cleanEnv(),
      cwd: INSPECTOR_CWD,
      timeout: 60_000,
    });
    t.equal(strict.stderr.trim(), '', `no portability finding in any tool schema: ${strict.stderr}`);
    const call = await run(process.execPath, [INSPECTOR, ...base, '--method', 'tools/call', '--tool-name', 'execute', '--tool-arg', 'script=return 6 * 7;'], {
      env: cleanEnv(),
      cwd: INSPECTOR_CWD,
      timeout: 60_000,
    });
    const out = JSON.parse(call.stdout.slice(call.stdout.indexOf('{')));
    t.match(out.structuredContent, { ok: true, result: 42 });
  });
});
