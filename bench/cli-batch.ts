// bench/cli-batch.ts: the `siglata` CLI against a real server at the DEFAULT rate limit (120 requests/min per
// token): `cp` of 200 files of 1-20 KB (target: under 15 s), then one large file in 8 MiB parts (default 1 GiB,
// BENCH_CLI_LARGE_MIB), and both back down. Prints seconds, requests and throughput per case.
//   npm run bench -- cli-batch
import { spawn } from 'node:child_process';
import { createServer } from 'node:http';
import { chmod, mkdir, mkdtemp, open, rm, writeFile } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AddressInfo } from 'node:net';

const BIN = fileURLToPath(new URL('../bin/siglata.mjs', import.meta.url));
const MiB = 1024 * 1024;
const LARGE = Number(process.env.BENCH_CLI_LARGE_MIB ?? 1024) * MiB;

function cli(args: string[], env: Record<string, string>, cwd: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, ...args], { env: { ...process.env, ...env }, cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d) => {
      stdout += d;
    });
    child.stderr.setEncoding('utf8').on('data', (d) => {
      stderr += d;
    });
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

export async function main(): Promise<void> {
  const { loadConfig } = await import('../server/config.ts');
  const { bootstrap } = await import('../server/bootstrap.ts');
  const { createApp } = await import('../server/app.ts');
  const { createLogger } = await import('../server/logger.ts');
  const { mintToken } = await import('../runtime-api/identity/mint-token.ts');
  const { tokenSettings } = await import('../server/auth/token-caller.ts');
  const dir = await mkdtemp(join(tmpdir(), 'siglata-bench-cli-'));
  await chmod(dir, 0o755); // embedded PostgreSQL runs as the postgres user when we are root
  // A fixed free port: part and download URLs are built from the public base URL, which names the port.
  const probe = createServer();
  await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
  const port = (probe.address() as AddressInfo).port;
  await new Promise((r) => probe.close(r));
  const config = loadConfig({}, { DATA_DIR: join(dir, 'data'), PORT: String(port), LOG_LEVEL: 'warn' }); // default rate limit
  const running = await bootstrap(config, { logger: createLogger('warn') });
  const server = createServer(createApp(running.deps).callback());
  await new Promise<void>((r) => server.listen(port, config.host, r));
  const url = config.publicBaseUrl;
  const d = running.deps;
  const { token } = await mintToken(d.sql, d.keys, tokenSettings(d), d.clock, {
    email: 'bench@example.com',
    org: 'bench-cli',
    scopes: ['files:read', 'files:write'],
    ttlSeconds: 86400,
  });
  const env = { SIGLATA_SERVER: url, SIGLATA_TOKEN: token, SIGLATA_CONFIG_DIR: join(dir, 'config'), NODE_OPTIONS: '' };
  try {
    const small = join(dir, 'small');
    await mkdir(small);
    let smallBytes = 0;
    for (let i = 0; i < 200; i++) {
      const data = randomBytes(1024 + Math.floor(Math.random() * 19 * 1024));
      smallBytes += data.length;
      await writeFile(join(small, `f${String(i).padStart(3, '0')}.bin`), data);
    }
    const large = join(dir, 'large');
    await mkdir(large);
    const fh = await open(join(large, 'big.bin'), 'w');
    const block = randomBytes(8 * MiB);
    for (let off = 0; off < LARGE; off += block.length) await fh.write(block, 0, Math.min(block.length, LARGE - off));
    await fh.close();

    const rows: string[][] = [];
    const run = async (label: string, args: string[], bytes: number, target: string) => {
      const r = await cli([...args, '--json'], env, dir);
      if (r.code !== 0) throw new Error(`${label} failed (${r.code}): ${r.stderr.slice(-2000)}`);
      const s = JSON.parse(r.stdout).summary as { seconds: number; requests: number; copied: number };
      rows.push([
        label,
        String(s.copied),
        `${(bytes / MiB).toFixed(1)} MiB`,
        String(s.requests),
        `${s.seconds.toFixed(2)} s`,
        `${(bytes / MiB / s.seconds).toFixed(1)} MiB/s`,
        target,
      ]);
    };
    await run('200 small files up', ['cp', 'small', 'remote:small/'], smallBytes, '< 15 s');
    await run('200 small files down', ['cp', 'remote:small/', 'small-copy'], smallBytes, '< 15 s');
    await run(`${LARGE / MiB} MiB up (parts)`, ['cp', 'large', 'remote:large/'], LARGE, '-');
    await run(`${LARGE / MiB} MiB down`, ['cp', 'remote:large/', 'large-copy'], LARGE, '-');
    const head = ['case', 'files', 'bytes', 'requests', 'time', 'rate', 'target'];
    const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
    for (const r of [head, ...rows]) process.stdout.write(`${r.map((c, i) => c.padEnd(widths[i])).join('  ')}\n`);
  } finally {
    server.close();
    await running.close();
    await rm(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await main().then(() => process.exit(0));
