// No value a script returns, throws, logs or passes, and no source it sends, can make the host fail: depth is
// checked inside the isolate, host-side shaping cannot throw, and every 500 goes through the error middleware as
// JSON. Over real HTTP on both faces.
import t from 'tap';
import { startTestApp } from '../helpers/app.ts';
import { http } from '../helpers/http.ts';
import { defineRoute } from '../../server/http/route.ts';
import { MAX_RESULT_DEPTH } from '../../engine/prelude.ts';

const rpc = (script: string) => ({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'execute', arguments: { script } } });
const deepArray = (n: number) => `let v = 0; for (let i = 0; i < ${n}; i++) v = [v];`;
const deepObject = (n: number) => `let v = {}; for (let i = 0; i < ${n}; i++) v = { v };`;

t.test('deep values', async (t) => {
  const app = await startTestApp(t, {
    env: { RATE_LIMIT_MAX: '100000' },
    // A route whose body cannot be serialized: the error middleware must see it (JSON 500, not Koa's plain text).
    extraRoutes: () => [
      defineRoute({
        method: 'GET',
        path: '/test/unserializable',
        operationId: 'testUnserializable',
        summary: 'test',
        tags: ['test'],
        auth: 'none',
        responses: {},
        errors: [],
        async handle(ctx) {
          const body: Record<string, unknown> = { n: 1n };
          ctx.body = body;
        },
      }),
    ],
  });
  const token = await app.token({ email: 'deep@example.com' });
  const faces = async (script: string) => {
    const viaApp = await http(`${app.url}/app/v1/execute`, { json: { script }, token });
    const viaMcp = await http(`${app.url}/v1/mcp`, { json: rpc(script), token });
    return { viaApp, viaMcp, mcpContent: viaMcp.body?.result?.structuredContent };
  };

  t.test('deep results are a limit, never a 500', async (t) => {
    for (const [label, build] of [
      ['array', deepArray],
      ['object', deepObject],
    ] as const) {
      for (const depth of [MAX_RESULT_DEPTH + 1, 5000, 100_000]) {
        const { viaApp, viaMcp, mcpContent } = await faces(`${build(depth)} return v;`);
        t.equal(viaApp.status, 200, `${label} ${depth}: /app/v1 200`);
        t.match(viaApp.headers['content-type'], /json/);
        t.ok(
          viaApp.body.error.type === 'limit_exceeded' || viaApp.body.error.type === 'script_error',
          `${label} ${depth}: ${JSON.stringify(viaApp.body.error)}`,
        );
        if (depth === MAX_RESULT_DEPTH + 1) t.equal(viaApp.body.error.code, 'max_result_depth');
        t.equal(viaMcp.status, 200, `${label} ${depth}: MCP 200`);
        t.equal(mcpContent.ok, false);
      }
      const { viaApp, mcpContent } = await faces(`${build(MAX_RESULT_DEPTH - 1)} return v;`);
      t.equal(viaApp.body.ok, true, `${label} at the limit is returned`);
      t.equal(mcpContent.ok, true);
    }
    const wide = await faces('return { text: "[{".repeat(20000), list: Array.from({ length: 2000 }, (_, i) => [[i]]) };');
    t.equal(wide.viaApp.body.ok, true, 'brackets inside strings and wide shallow values are not depth');
  });

  t.test('deep thrown values, error causes, logs and binding arguments', async (t) => {
    const scripts = {
      'thrown array': `${deepArray(50_000)} throw v;`,
      'thrown object': `${deepObject(50_000)} throw v;`,
      'error causes': 'let e = new Error("root"); for (let i = 0; i < 50000; i++) e = new Error("wrap " + i, { cause: e }); throw e;',
      'error with deep property': `${deepObject(50_000)} const e = new Error("x"); e.detail = v; e.toJSON = () => v; throw e;`,
      rejection: `${deepArray(50_000)} await Promise.reject(v);`,
      'deep log': `${deepArray(50_000)} console.log(v); console.log("after"); return 1;`,
      'deep log object': `${deepObject(50_000)} console.error("x", v); return 1;`,
      'deep binding argument': `${deepObject(5000)} await files_list({ prefix: v }); return 1;`,
      'deep argument, caught': `${deepObject(MAX_RESULT_DEPTH + 1)} try { await files_write_text({ name: "d.txt", text: "x", extra: v }); } catch (e) { return e.code; }`,
      'deep planned argument': `${deepObject(5000)} await files_update({ fileId: "fil_x", name: v }); return 1;`,
    };
    for (const [label, script] of Object.entries(scripts)) {
      const { viaApp, viaMcp, mcpContent } = await faces(script);
      t.equal(viaApp.status, 200, `${label}: /app/v1 200 (${viaApp.text.slice(0, 160)})`);
      t.equal(viaMcp.status, 200, `${label}: MCP 200 (${viaMcp.text.slice(0, 160)})`);
      t.type(mcpContent?.ok, 'boolean', `${label}: a well-formed tool result`);
      const plan = await http(`${app.url}/app/v1/execute`, { json: { script, mode: 'plan' }, token });
      t.equal(plan.status, 200, `${label}: plan 200 (${plan.text.slice(0, 160)})`);
    }
    const caught = await faces(scripts['deep argument, caught']);
    t.equal(caught.viaApp.body.result, 'max_arg_depth', 'a deep argument is a catchable limit error');
    const log = await faces(scripts['deep log']);
    t.same(log.viaApp.body.logs.at(-1), { level: 'log', message: 'after' }, 'logging goes on after a deep value');
  });

  t.test('odd values: deep toJSON and thenables, huge sparse arrays, cyclic logs, surrogates at the text cap', async (t) => {
    const refused = {
      'deep toJSON': `return { toJSON() { ${deepArray(20_000)} return v; } };`,
      'deep thenable': `${deepArray(20_000)} return { then(resolve) { resolve(v); } };`,
      'deep JSON.parse': `return JSON.parse("[".repeat(20000) + "]".repeat(20000));`,
      'sparse array of length 2**32-1': 'const a = []; a.length = 2 ** 32 - 1; return a;',
    };
    for (const [label, script] of Object.entries(refused)) {
      const { viaApp, viaMcp, mcpContent } = await faces(script);
      t.equal(viaApp.status, 200, `${label}: /app/v1 200`);
      t.equal(viaApp.body.ok, false, `${label}: refused (${JSON.stringify(viaApp.body.error)})`);
      t.equal(viaMcp.status, 200, `${label}: MCP 200`);
      t.equal(mcpContent.ok, false, `${label}: MCP refused`);
    }
    const logs = await faces('const a = {}; a.self = a; const s = []; s.length = 2 ** 32 - 1; console.log(a); console.log(s); console.log("after"); return 1;');
    t.equal(logs.viaApp.body.ok, true, 'cyclic and huge sparse values log without failing the script');
    t.same(logs.viaApp.body.logs.at(-1), { level: 'log', message: 'after' });
    // Built inside the isolate from escapes, as a script author writes them.
    const text = '\ud83d\ude00'.repeat(20_000) + '\ud800';
    const odd = await faces('return "\\ud83d\\ude00".repeat(20000) + "\\ud800";');
    t.equal(odd.viaApp.body.result, text, 'astral and lone surrogates come back whole on /app/v1');
    t.equal(odd.mcpContent.result, text, 'and whole in structuredContent');
    const shortened = JSON.parse(odd.viaMcp.body.result.content[0].text);
    t.equal(shortened.textShortened, true, 'the text content says it is shortened');
  });

  t.test('deep sources: a limit or a syntax error, never a 500', async (t) => {
    for (const [label, source] of [
      ['brackets', `return ${'['.repeat(30_000)}${']'.repeat(30_000)};`],
      ['parentheses', `return ${'('.repeat(30_000)}1${')'.repeat(30_000)};`],
      ['blocks', `${'{'.repeat(30_000)}${'}'.repeat(30_000)} return 1;`],
      ['objects', `return ${'{a:'.repeat(20_000)}1${'}'.repeat(20_000)};`],
      ['unbalanced', `return ${'['.repeat(30_000)};`],
      ['functions', `${'(() => '.repeat(10_000)}1${')'.repeat(10_000)}; return 1;`],
    ]) {
      const { viaApp, viaMcp, mcpContent } = await faces(source);
      t.equal(viaApp.status, 200, `${label}: /app/v1 200 (${viaApp.text.slice(0, 160)})`);
      t.equal(viaMcp.status, 200, `${label}: MCP 200`);
      t.equal(mcpContent.ok, false, `${label}: refused`);
      t.ok(['limit_exceeded', 'syntax_error'].includes(viaApp.body.error.type), `${label}: ${JSON.stringify(viaApp.body.error)}`);
    }
  });

  t.test("a body that cannot be serialized is a JSON 500 from the error middleware, not Koa's plain text", async (t) => {
    const res = await http(`${app.url}/test/unserializable`);
    t.equal(res.status, 500);
    t.match(res.headers['content-type'], /application\/json/);
    t.same(res.body, { code: 'internal_error', message: 'Internal error.' });
  });
});
