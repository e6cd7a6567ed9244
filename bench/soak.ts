// npm run soak (not part of npm test): a mixed workload over HTTP at a fixed request rate against `npm start`'s
// server in a child process — execute scripts (benign and hostile), uploads, downloads, /ask, sign-ins — for
// SOAK_SECONDS (default 600). Prints error counts by status, p50/p99 per route and the server's RSS after warm-up
// and at the end. Targets: no 5xx, no failed benign request, RSS growth under 50 MB after warm-up.
// Then a host-work flood (SOAK_FLOOD_SECONDS, default 30; 0 skips it): another organization's scripts read a
// 100,000-cell CSV, write 20,000-cell XLSX files and pass 250 KB arguments, four at a time; the server's RSS is
// reported before, at its peak and after SOAK_IDLE_SECONDS (default 20) idle. Target: back within 50 MB of before.
import { spawn } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { createHash, randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import { Pool } from 'undici';
import { percentile, fmt } from './lib/load.ts';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const SECONDS = Number(process.env.SOAK_SECONDS ?? 600);
const RATE = Number(process.env.SOAK_RATE ?? 20); // requests started per second
const WARMUP_S = Math.min(60, Math.max(5, SECONDS / 10));
const FLOOD_SECONDS = Number(process.env.SOAK_FLOOD_SECONDS ?? 30);
const IDLE_SECONDS = Number(process.env.SOAK_IDLE_SECONDS ?? 20);

/** 9,999 rows x 10 columns of integers, dates and text: just under the 100,000-cell cap of one read. */
function bigCsv(): Buffer {
  const lines = [Array.from({ length: 10 }, (_, c) => `col${c}`).join(',')];
  for (let r = 0; r < 9999; r++) {
    lines.push(
      Array.from({ length: 10 }, (_, c) =>
        c % 3 === 0 ? `${r * c}` : c % 3 === 1 ? `2024-01-${String(1 + (r % 28)).padStart(2, '0')}` : `text ${r} ${c}`,
      ).join(','),
    );
  }
  return Buffer.from(lines.join('\n'));
}

/** The flood's scripts, each within the soak server's 1 s wall limit. */
const FLOOD_SCRIPTS = (fileId: string) => [
  `const end = Date.now() + 800; let n = 0; while (Date.now() < end) { await Promise.all(Array.from({ length: 4 }, () => spreadsheet_read({ fileId: ${JSON.stringify(fileId)} }))); n += 4; } return n;`,
  `const columns = Array.from({ length: 10 }, (_, c) => ({ name: 'col' + c, type: c % 2 ? 'string' : 'integer' }));
   const rows = Array.from({ length: 2000 }, (_, r) => columns.map((_, c) => c % 2 ? 'text ' + r : r * c));
   const workbook = { version: 1, sheets: [{ name: 'Data', tables: [{ name: 'Data', columns, rows }] }] };
   const end = Date.now() + 800; let n = 0; while (Date.now() < end) { await spreadsheet_write({ name: 'flood.xlsx', format: 'xlsx', workbook }); n++; } return n;`,
  `const arg = { limit: Array.from({ length: 125000 }, (_, i) => i % 10) }; const end = Date.now() + 800; let n = 0;
   while (Date.now() < end) await Promise.all(Array.from({ length: 16 }, () => files_list(arg).catch(() => n++))); return n;`,
];

const HOSTILE = [
  'while (true) {}',
  'const a = []; for (;;) a.push({ x: Math.random() });',
  'return "x".repeat(2 ** 28);',
  'await new Promise(() => {});',
  'for (;;) await files_list({});',
  'function f() { f(); } f();',
  'return /(a+)+$/.test("a".repeat(40) + "b");',
];
const BENIGN = [
  'const { items } = await files_list({ limit: 20 }); return items.length;',
  'const c = await context(); return c.role;',
  'let s = 0; for (let i = 0; i < 1e5; i++) s += i; return s;',
];

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

async function rssMb(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)![1]) / 1024;
}

export async function main(): Promise<void> {
  const dataDir = await mkdtemp(join(tmpdir(), 'siglata-soak-'));
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const env = {
    ...process.env,
    DATA_DIR: dataDir,
    PORT: String(port),
    LOG_LEVEL: 'warn',
    RATE_LIMIT_MAX: '100000000',
    TRUST_PROXY: 'true',
    SCRIPT_WALL_MS: '1000',
    ENGINE_QUEUE_MAX: '64',
  };
  const server = spawn(process.execPath, ['--no-node-snapshot', '--import', './scripts/node-check.mjs', 'server/main.ts'], {
    cwd: ROOT,
    env,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const pool = new Pool(base, { connections: 32 });
  const stats = new Map<string, { ms: number[]; status: Map<number, number>; failedBenign: number }>();
  const record = (route: string, ms: number, status: number, benign: boolean, ok: boolean) => {
    const s = stats.get(route) ?? { ms: [] as number[], status: new Map<number, number>(), failedBenign: 0 };
    stats.set(route, s);
    s.ms.push(ms);
    s.status.set(status, (s.status.get(status) ?? 0) + 1);
    if (benign && !ok) s.failedBenign++;
  };
  let ipCounter = 0;
  const send = async (
    route: string,
    opts: { method: string; path: string; headers?: Record<string, string>; body?: string | Buffer },
    benign = true,
    accept = (s: number) => s < 400,
  ) => {
    const t0 = performance.now();
    let status = 0;
    try {
      const res = await pool.request({
        ...opts,
        headers: { 'x-forwarded-for': `10.${(ipCounter >> 16) & 255}.${(ipCounter >> 8) & 255}.${ipCounter++ & 255}`, ...opts.headers } as Record<
          string,
          string
        >,
        method: opts.method as 'GET',
      });
      status = res.statusCode;
      const text = await res.body.text();
      record(route, performance.now() - t0, status, benign, accept(status));
      return { status, text };
    } catch (err) {
      record(route, performance.now() - t0, 0, benign, false);
      return { status: 0, text: String(err) };
    }
  };

  try {
    for (let i = 0; i < 600; i++) {
      try {
        if ((await pool.request({ path: '/api', method: 'GET' })).statusCode === 200) break;
      } catch {
        /* starting */
      }
      await new Promise((r) => setTimeout(r, 100));
    }
    const mint = (email: string, org: string) =>
      new Promise<string>((resolve, reject) => {
        const m = spawn(
          process.execPath,
          ['--no-node-snapshot', '--import', './scripts/node-check.mjs', 'scripts/mint-token.ts', '--email', email, '--org', org, '--ttl', '86400'],
          { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'inherit'] },
        );
        let out = '';
        m.stdout.on('data', (c) => {
          out += c;
        });
        m.on('exit', (code) => (code === 0 ? resolve(out.trim()) : reject(new Error('mint-token failed'))));
      });
    // The benign user and the attacker are different people in different organizations.
    const token = await mint('soak@example.com', 'soak');
    const attacker = await mint('attacker@example.com', 'attackers');
    const auth = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
    const execute = (script: string, benign: boolean) =>
      send(
        benign ? 'mcp execute (benign)' : 'mcp execute (hostile)',
        {
          method: 'POST',
          path: '/v1/mcp',
          headers: benign ? auth : { ...auth, authorization: `Bearer ${attacker}` },
          body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'execute', arguments: { script } } }),
        },
        benign,
        (s) => s === 200,
      );
    const callBinding = async (expr: string) => {
      const r = await execute(`return ${expr};`, true);
      return JSON.parse(r.text)?.result?.structuredContent?.result;
    };
    const fileIds: string[] = [];

    // Hostile scripts run to their wall limit (1 s here), so they come at a rate the 2-core pool can absorb
    // beside the benign work: one action in 16.
    const hostile = () => execute(HOSTILE[Math.floor(Math.random() * HOSTILE.length)], false);
    const actions: (() => Promise<unknown>)[] = [
      () => execute(BENIGN[Math.floor(Math.random() * BENIGN.length)], true),
      () => execute(BENIGN[0], true),
      () =>
        send('POST /ask', {
          method: 'POST',
          path: '/ask',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({
            query: { text: ['how do I upload a file', 'como restaurar da lixeira', 'rate limits', 'convidar membro'][Math.floor(Math.random() * 4)] },
            prefer: { streaming: false },
          }),
        }),
      async () => {
        // upload: reserve, one part, complete
        const data = randomBytes(64 * 1024 + Math.floor(Math.random() * 64 * 1024));
        const up = await callBinding(
          `await upload_begin({ name: "soak-${Date.now()}-${Math.random()}.bin", mediaType: "application/octet-stream", size: ${data.length} })`,
        );
        if (!up?.uploadId) return record('upload', 0, 0, true, false);
        await send('PUT part', {
          method: 'PUT',
          path: `/v1/mcp/uploads/${up.uploadId}/parts/1`,
          headers: {
            authorization: auth.authorization,
            'content-type': 'application/octet-stream',
            'content-digest': `sha-256=:${createHash('sha256').update(data).digest('base64')}:`,
          },
          body: data,
        });
        const done = await callBinding(`await upload_complete({ uploadId: ${JSON.stringify(up.uploadId)} })`);
        if (done?.file?.fileId) fileIds.push(done.file.fileId);
        if (fileIds.length > 50) {
          const old = fileIds.shift()!;
          await callBinding(`(await files_trash({ fileId: ${JSON.stringify(old)} }), await files_delete({ fileId: ${JSON.stringify(old)} }), 1)`);
        }
      },
      async () => {
        const id = fileIds[Math.floor(Math.random() * fileIds.length)];
        if (id)
          await send(
            'GET download',
            { method: 'GET', path: `/v1/mcp/files/${id}/download`, headers: { authorization: auth.authorization } },
            true,
            (s) => s === 200 || s === 404,
          );
      },
      async () => {
        // sign-in: ask for a link, read it from the dev outbox, verify it
        const email = `soak-${Date.now()}-${Math.floor(Math.random() * 1e9)}@example.com`;
        await send('POST magic-link', {
          method: 'POST',
          path: '/auth/sign-in/magic-link',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ email }),
        });
        const dir = join(dataDir, 'mail');
        for (const f of (await readdir(dir).catch(() => [])).reverse()) {
          const msg = JSON.parse(await readFile(join(dir, f), 'utf8'));
          if (msg.to !== email) continue;
          const token = new URL(/https?:\/\/\S+/.exec(msg.text)![0]).searchParams.get('token')!;
          await send('GET verify', { method: 'GET', path: `/auth/magic-link/verify?token=${encodeURIComponent(token)}` }, true, (s) => s === 302);
          await rm(join(dir, f));
          break;
        }
      },
    ];
    const schedule = [...actions, ...actions];
    schedule.splice(7, 0, hostile);

    const started = performance.now();
    let rssAfterWarmup = 0;
    let inflight = 0;
    const pending = new Set<Promise<unknown>>();
    let tick = 0;
    while (performance.now() - started < SECONDS * 1000) {
      if (!rssAfterWarmup && performance.now() - started > WARMUP_S * 1000) {
        rssAfterWarmup = await rssMb(server.pid!);
        for (const s of stats.values()) {
          s.ms.length = 0;
          s.status.clear();
          s.failedBenign = 0;
        }
      }
      const action = schedule[tick++ % schedule.length];
      inflight++;
      const p = action().finally(() => {
        inflight--;
        pending.delete(p);
      });
      pending.add(p);
      await new Promise((r) => setTimeout(r, 1000 / RATE));
    }
    await Promise.all(pending);
    const rssEnd = await rssMb(server.pid!);

    console.log(`## soak: ${SECONDS} s at ${RATE} req/s (warm-up ${WARMUP_S} s excluded)\n`);
    console.log('| route | requests | p50 ms | p99 ms | statuses | failed benign |');
    console.log('|---|---:|---:|---:|---|---:|');
    let fiveHundreds = 0;
    let failedBenign = 0;
    for (const [route, s] of [...stats].sort()) {
      s.ms.sort((a, b) => a - b);
      const statuses = [...s.status]
        .sort((a, b) => a[0] - b[0])
        .map(([k, n]) => `${k}: ${n}`)
        .join(', ');
      for (const [k, n] of s.status) if (k >= 500 || k === 0) fiveHundreds += n;
      failedBenign += s.failedBenign;
      console.log(`| ${route} | ${s.ms.length} | ${fmt(percentile(s.ms, 50))} | ${fmt(percentile(s.ms, 99))} | ${statuses} | ${s.failedBenign} |`);
    }
    console.log(
      `\nRSS after warm-up ${fmt(rssAfterWarmup, 1)} MB, at the end ${fmt(rssEnd, 1)} MB, growth ${fmt(rssEnd - rssAfterWarmup, 1)} MB (target < 50).`,
    );
    console.log(`5xx or failed connections: ${fiveHundreds} (target 0); failed benign requests: ${failedBenign} (target 0).`);
    if (fiveHundreds || failedBenign || rssEnd - rssAfterWarmup >= 50) process.exitCode = 1;

    if (FLOOD_SECONDS > 0) {
      // Host work: spreadsheet parsing and building on the server's threads, large arguments on its event loop.
      const flooder = await mint('flood@example.com', 'flood');
      const floodAuth = { authorization: `Bearer ${flooder}`, 'content-type': 'application/json' };
      const run = async (script: string) => {
        const r = await send(
          'mcp execute (flood)',
          {
            method: 'POST',
            path: '/v1/mcp',
            headers: floodAuth,
            body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'execute', arguments: { script } } }),
          },
          false,
        );
        return JSON.parse(r.text)?.result?.structuredContent?.result;
      };
      const csv = bigCsv();
      const up = await run(`return await upload_begin({ name: "flood.csv", mediaType: "text/csv", size: ${csv.length} });`);
      for (let n = 1; n <= up.partCount; n++) {
        const part = csv.subarray((n - 1) * up.partSize, n * up.partSize);
        await send('PUT part', {
          method: 'PUT',
          path: `/v1/mcp/uploads/${up.uploadId}/parts/${n}`,
          headers: {
            authorization: floodAuth.authorization,
            'content-type': 'application/octet-stream',
            'content-digest': `sha-256=:${createHash('sha256').update(part).digest('base64')}:`,
          },
          body: part,
        });
      }
      const file = (await run(`return await upload_complete({ uploadId: ${JSON.stringify(up.uploadId)} });`))?.file;
      await new Promise((r) => setTimeout(r, 2000));
      const before = await rssMb(server.pid!);
      let peak = before;
      const sampler = setInterval(() => {
        void rssMb(server.pid!).then(
          (mb) => {
            peak = Math.max(peak, mb);
          },
          () => {},
        );
      }, 250);
      const scripts = FLOOD_SCRIPTS(file.fileId);
      const until = performance.now() + FLOOD_SECONDS * 1000;
      let k = 0;
      await Promise.all(
        Array.from({ length: 4 }, async () => {
          while (performance.now() < until) await run(scripts[k++ % scripts.length]);
        }),
      );
      const floodStats = stats.get('mcp execute (flood)')!;
      await new Promise((r) => setTimeout(r, IDLE_SECONDS * 1000));
      clearInterval(sampler);
      const after = await rssMb(server.pid!);
      console.log(
        `\n## host-work flood: ${FLOOD_SECONDS} s, ${floodStats.ms.length} executions (statuses ${[...floodStats.status].map(([k, n]) => `${k}: ${n}`).join(', ')})`,
      );
      console.log(
        `RSS before ${fmt(before, 1)} MB, peak ${fmt(peak, 1)} MB, after ${IDLE_SECONDS} s idle ${fmt(after, 1)} MB (target: within 50 MB of before).`,
      );
      if (after - before >= 50) process.exitCode = 1;
    }
  } finally {
    await pool.close();
    server.kill('SIGINT');
    await new Promise((r) => server.once('exit', r));
    await rm(dataDir, { recursive: true, force: true });
  }
}

if (import.meta.main) await main();
