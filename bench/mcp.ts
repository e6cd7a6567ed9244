// bench/mcp.ts: end-to-end `tools/call execute` over HTTP (token validation, JSON-RPC, engine, one binding call
// against PostgreSQL) beside (a) the same script run on the engine in-process and (b) a bare Koa JSON echo route,
// all in one run. Targets: ≥ 1,000 req/s at concurrency 16 with p99 ≤ 30 ms, and ≥ 50 % of engine-only throughput.
// The HTTP servers run in a child process (as in production), so the load generator does not share their event loop.
import { createServer, type Server } from 'node:http';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer as netServer } from 'node:net';
import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import Koa from 'koa';
import { Pool } from 'undici';
import { loadConfig } from '../server/config.ts';
import { bootstrap } from '../server/bootstrap.ts';
import { createApp } from '../server/app.ts';
import { createLogger } from '../server/logger.ts';
import { mintToken } from '../runtime-api/identity/mint-token.ts';
import { tokenSettings, callerFromToken } from '../server/auth/token-caller.ts';
import { runScript } from '../runtime-api/execution/run.ts';
import { invokeDeps } from '../server/deps.ts';
import { load, fmt, type LoadResult } from './lib/load.ts';

const SCRIPT = 'const page = await files_list({ limit: 5 }); return page.items.length;';
const MS = Number(process.env.BENCH_MS ?? 3000);

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = netServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

function listen(server: Server, port: number): Promise<void> {
  return new Promise((resolve) => server.listen(port, '127.0.0.1', resolve));
}

interface Served {
  port: number;
  echoPort: number;
  token: string;
  dataDir: string;
}

/** The child: the real app (embedded PostgreSQL in a temp DATA_DIR) and a bare Koa echo, each on its own port. */
async function serve(): Promise<void> {
  const dataDir = await mkdtemp(join(tmpdir(), 'siglata-bench-mcp-'));
  const port = await freePort();
  const config = loadConfig(
    {},
    { DATA_DIR: dataDir, PORT: String(port), LOG_LEVEL: 'silent', RATE_LIMIT_MAX: '1000000000', DATABASE_POOL_MAX: '20', ENGINE_QUEUE_MAX: '256' },
  );
  const running = await bootstrap(config, { logger: createLogger('silent') });
  const server = createServer(createApp(running.deps).callback());
  server.keepAliveTimeout = 60_000;
  await listen(server, port);
  const echo = new Koa();
  echo.use(async (ctx) => {
    const chunks: Buffer[] = [];
    for await (const c of ctx.req) chunks.push(c as Buffer);
    ctx.body = JSON.parse(Buffer.concat(chunks).toString() || '{}');
  });
  const echoServer = createServer(echo.callback());
  const echoPort = await freePort();
  await listen(echoServer, echoPort);
  const d = running.deps;
  const { token } = await mintToken(d.sql, d.keys, tokenSettings(d), d.clock, {
    email: 'bench@example.com',
    org: 'bench',
    scopes: ['files:read', 'files:write'],
  });
  process.send!({ port, echoPort, token, dataDir } satisfies Served);
  process.once('message', async () => {
    server.closeAllConnections();
    server.close();
    echoServer.closeAllConnections();
    echoServer.close();
    await running.close();
    process.exit(0);
  });
}

export async function main(): Promise<void> {
  const child: ChildProcess = fork(fileURLToPath(import.meta.url), ['serve'], {
    execArgv: ['--no-node-snapshot', ...(process.env.BENCH_SERVER_ARGS ?? '').split(' ').filter(Boolean)],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const served = await new Promise<Served>((resolve, reject) => {
    child.once('message', (m) => resolve(m as Served));
    child.once('exit', () => reject(new Error('bench server exited')));
  });
  const { port, echoPort, token } = served;
  // Engine-only row: the same script, the same bindings, on an engine in this process against the same database.
  const config = loadConfig(
    {},
    { DATA_DIR: served.dataDir, PORT: String(port), LOG_LEVEL: 'silent', RATE_LIMIT_MAX: '1000000000', DATABASE_POOL_MAX: '20', ENGINE_QUEUE_MAX: '256' },
  );
  const running = await bootstrap(config, { logger: createLogger('silent') });
  try {
    const d = running.deps;
    const caller = (await callerFromToken(d, token, 'en-US')).caller;
    const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'execute', arguments: { script: SCRIPT } } });
    const rows: { name: string; c: number; r: LoadResult }[] = [];

    for (const c of [1, 16]) {
      const mcpPool = new Pool(`http://127.0.0.1:${port}`, { connections: c, pipelining: 1 });
      const echoPool = new Pool(`http://127.0.0.1:${echoPort}`, { connections: c, pipelining: 1 });
      const mcp = async () => {
        const res = await mcpPool.request({
          path: '/v1/mcp',
          method: 'POST',
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
          body,
        });
        const json = (await res.body.json()) as { result?: { structuredContent?: { ok: boolean } } };
        if (res.statusCode !== 200 || !json.result?.structuredContent?.ok) throw new Error(`status ${res.statusCode}`);
      };
      const engineOnly = async () => {
        const r = await runScript({ engine: d.engine, deps: invokeDeps(d), keys: d.keys, via: 'mcp' }, caller, SCRIPT);
        if (!r.ok) throw new Error(r.error?.message);
      };
      const bare = async () => {
        const res = await echoPool.request({ path: '/echo', method: 'POST', headers: { 'content-type': 'application/json' }, body });
        await res.body.json();
      };
      rows.push({ name: 'MCP tools/call execute over HTTP', c, r: await load(mcp, { concurrency: c, ms: MS }) });
      rows.push({ name: '(a) same script, engine in-process', c, r: await load(engineOnly, { concurrency: c, ms: MS }) });
      rows.push({ name: '(b) bare Koa JSON echo over HTTP', c, r: await load(bare, { concurrency: c, ms: MS }) });
      await mcpPool.close();
      await echoPool.close();
    }

    console.log('| path | concurrency | req/s | p50 ms | p99 ms | errors |');
    console.log('|---|---:|---:|---:|---:|---:|');
    for (const { name, c, r } of rows) console.log(`| ${name} | ${c} | ${fmt(r.perSecond, 0)} | ${fmt(r.p50)} | ${fmt(r.p99)} | ${r.errors} |`);
    const at16 = (prefix: string) => rows.find((x) => x.c === 16 && x.name.startsWith(prefix))!.r;
    const ratio = at16('MCP').perSecond / at16('(a)').perSecond;
    console.log(
      `\nMCP over HTTP at concurrency 16: ${fmt(at16('MCP').perSecond, 0)} req/s (target ≥ 1000), p99 ${fmt(at16('MCP').p99)} ms (target ≤ 30), ${fmt(ratio * 100, 0)} % of engine-only throughput (target ≥ 50 %).`,
    );
  } finally {
    await running.close();
    child.send('stop');
    await new Promise((r) => child.once('exit', r));
    await rm(served.dataDir, { recursive: true, force: true });
  }
}

if (process.argv[2] === 'serve') await serve();
else if (import.meta.main) await main();
