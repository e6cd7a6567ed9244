// The official MCP conformance runner (@modelcontextprotocol/conformance, `server --url`) against the in-process
// server, over loopback only. The runner cannot send a token, so it talks to a loopback proxy that adds one
// (helpers/bearer-proxy.ts) and forwards every other header as sent: the DNS-rebinding scenario's forged Host and
// Origin reach the service untouched. The proxy's origin is an allowed origin, as it would be for a local gateway.
//
// Scenarios run: every server scenario that applies to a stateless, tools-only server whose tools are `execute` and
// `search`: server-initialize, ping, tools-list, dns-rebinding-protection. Not run, and why:
// - tools-call-*, json-schema-2020-12, elicitation-*: they call or inspect fixed test tools (test_simple_text,
//   json_schema_2020_12_tool, ...) of the reference "everything" server; the spec fixes our tool list to two tools.
// - logging-set-level, completion-complete, resources-*, prompts-*: capabilities the server does not declare (it
//   declares tools only); it answers their methods with JSON-RPC -32601 Method not found, as the protocol asks.
// - server-sse-polling, server-sse-multiple-streams: they need sessions and SSE streams; the server is stateless
//   with JSON responses (research/mcp.md B2), which Streamable HTTP allows.
import t from 'tap';
import { execFile } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startTestApp } from '../helpers/app.ts';
import { startBearerProxy } from '../helpers/bearer-proxy.ts';

const RUNNER = fileURLToPath(new URL('../../node_modules/@modelcontextprotocol/conformance/dist/index.js', import.meta.url));
const SCENARIOS = ['server-initialize', 'ping', 'tools-list', 'dns-rebinding-protection'];

interface Check {
  id: string;
  status: string;
  errorMessage?: string;
  details?: { statusCode?: number };
}

/** Every check.json the runner wrote under `dir` (one per scenario run). */
async function checksIn(dir: string): Promise<Check[]> {
  const out: Check[] = [];
  for (const entry of await readdir(dir, { recursive: true })) {
    if (String(entry).endsWith('checks.json')) out.push(...(JSON.parse(await readFile(join(dir, String(entry)), 'utf8')) as Check[]));
  }
  return out;
}

t.test('the official conformance runner passes every applicable server scenario', async (t) => {
  const proxy = await startBearerProxy(t);
  const app = await startTestApp(t, { env: { ALLOWED_ORIGINS: proxy.origin, RATE_LIMIT_MAX: '100000' } });
  proxy.target(app.url, await app.token({ email: 'conformance@example.com' }));
  const outDir = await mkdtemp(join(tmpdir(), 'mcp-conformance-'));
  t.teardown(() => rm(outDir, { recursive: true, force: true }));

  for (const scenario of SCENARIOS) {
    const dir = join(outDir, scenario);
    const run = await new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
      execFile(
        process.execPath,
        [RUNNER, 'server', '--url', `${proxy.url}/v1/mcp`, '--scenario', scenario, '-o', dir],
        { timeout: 60_000, env: { ...process.env, NO_COLOR: '1' } },
        (err, stdout, stderr) => resolve({ code: err ? (typeof err.code === 'number' ? err.code : 1) : 0, stdout, stderr }),
      );
    });
    const checks = await checksIn(dir).catch(() => []);
    t.ok(checks.length > 0, `${scenario}: the runner reported checks`);
    for (const c of checks) t.equal(c.status, 'SUCCESS', `${scenario} / ${c.id}${c.errorMessage ? `: ${c.errorMessage}` : ''}`);
    const rebinding = checks.find((c) => c.id === 'localhost-host-rebinding-rejected');
    if (rebinding) t.equal(rebinding.details?.statusCode, 403, 'the forged Origin is refused as such (ORIGIN_NOT_ALLOWED), not for want of a token');
    t.equal(run.code, 0, `${scenario}: the runner exits 0${run.code ? `\n${run.stdout}\n${run.stderr}` : ''}`);
  }
});
