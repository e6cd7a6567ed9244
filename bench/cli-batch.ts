// bench/cli-batch.ts: the `siglata` CLI against a real server at the DEFAULT rate limit (120 requests per minute per
// token), requests counted by the server as they arrive (and 429 answers among them):
//   - a tree of 3,000 files of 1-40 KB (about 50 MiB; BENCH_CLI_FILES to change) up with `cp`, and down again, beside
//     `cp -r` of the same tree on the local disk as the floor; targets: each way ≤ 30 s and ≤ 40 requests;
//   - `sync` again with nothing changed, both ways; target ≤ 2 s and ≤ 3 requests;
//   - one large file in 8 MiB parts up and down (BENCH_CLI_LARGE_MIB, default 1024), beside `cp` of it on the local
//     disk: the part path must not get slower.
// Every copy is checked: the tree that came back has the same bytes and modification times as the one that went up.
//   npm run bench -- cli-batch
import { spawn } from 'node:child_process';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { chmod, mkdir, mkdtemp, open, readFile, readdir, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { createHash } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AddressInfo } from 'node:net';

const BIN = fileURLToPath(new URL('../bin/siglata.mjs', import.meta.url));
const MiB = 1024 * 1024;
const FILES = Number(process.env.BENCH_CLI_FILES ?? 3000);
const LARGE = Number(process.env.BENCH_CLI_LARGE_MIB ?? 1024) * MiB;

function spawnTimed(command: string, args: string[], env: Record<string, string>, cwd: string) {
  return new Promise<{ code: number | null; stdout: string; stderr: string; seconds: number }>((resolve) => {
    const began = process.hrtime.bigint();
    const child = spawn(command, args, { env: { ...process.env, ...env }, cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d) => {
      stdout += d;
    });
    child.stderr.setEncoding('utf8').on('data', (d) => {
      stderr += d;
    });
    child.on('close', (code) => resolve({ code, stdout, stderr, seconds: Number(process.hrtime.bigint() - began) / 1e9 }));
  });
}

/** A deterministic generator, so every run moves the same tree. */
function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let x = s;
    x = Math.imul(x ^ (x >>> 15), x | 1);
    x ^= x + Math.imul(x ^ (x >>> 7), x | 61);
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
}

/** FILES files of 1-40 KB (skewed small, about 50 MiB for 3,000) in nested folders, with varied times and modes. */
async function makeTree(root: string): Promise<number> {
  const next = random(42);
  let bytes = 0;
  const base = Date.UTC(2025, 0, 1) / 1000;
  for (let i = 0; i < FILES; i++) {
    const folder = `d${String(i % 40).padStart(2, '0')}${i % 3 === 0 ? `/sub${i % 7}` : ''}`;
    const size = Math.round(1000 + 39_000 * next() ** 1.3);
    const data = Buffer.alloc(size);
    for (let o = 0; o < size; o += 4) data.writeUInt32LE((next() * 4294967296) >>> 0, Math.min(o, size - 4));
    await mkdir(join(root, folder), { recursive: true });
    const path = join(root, folder, `f${String(i).padStart(5, '0')}.bin`);
    await writeFile(path, data, { mode: i % 10 === 0 ? 0o755 : 0o644 });
    const when = base + Math.floor(next() * 3e7);
    await utimes(path, when, when);
    bytes += size;
  }
  return bytes;
}

/** Path → [sha256, mtime in whole seconds, executable] for every file under root. */
async function fingerprint(root: string): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (const e of await readdir(root, { recursive: true, withFileTypes: true })) {
    if (!e.isFile()) continue;
    const abs = join(e.parentPath, e.name);
    const st = await stat(abs);
    const hash = createHash('sha256')
      .update(await readFile(abs))
      .digest('hex');
    out.set(relative(root, abs), `${hash} ${Math.floor(st.mtimeMs / 1000)} ${(st.mode & 0o100) !== 0}`);
  }
  return out;
}

function differences(a: Map<string, string>, b: Map<string, string>): string[] {
  const out: string[] = [];
  for (const [k, v] of a) if (b.get(k) !== v) out.push(`${k}: ${v} vs ${b.get(k) ?? 'missing'}`);
  for (const k of b.keys()) if (!a.has(k)) out.push(`${k}: extra`);
  return out;
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
  const handler = createApp(running.deps).callback();
  // The server's own count of what arrived, independent of what the CLI says it sent.
  const seen = { requests: 0, limited: 0 };
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    seen.requests++;
    res.on('finish', () => {
      if (res.statusCode === 429) seen.limited++;
    });
    handler(req, res);
  });
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
  const rows: string[][] = [];
  const failures: string[] = [];
  try {
    const tree = join(dir, 'tree');
    const treeBytes = await makeTree(tree);
    const large = join(dir, 'large');
    await mkdir(large);
    const fh = await open(join(large, 'big.bin'), 'w');
    const block = Buffer.alloc(8 * MiB);
    const fill = random(7);
    for (let o = 0; o < block.length; o += 4) block.writeUInt32LE((fill() * 4294967296) >>> 0, o);
    for (let off = 0; off < LARGE; off += block.length) await fh.write(block, 0, Math.min(block.length, LARGE - off));
    await fh.close();

    const floor = async (label: string, from: string, to: string, bytes: number) => {
      const r = await spawnTimed('cp', ['-rp', from, to], {}, dir);
      if (r.code !== 0) throw new Error(`cp -r failed: ${r.stderr}`);
      rows.push([
        label,
        '-',
        `${(bytes / MiB).toFixed(1)} MiB`,
        '-',
        '-',
        `${r.seconds.toFixed(2)} s`,
        `${(bytes / MiB / r.seconds).toFixed(1)} MiB/s`,
        'floor',
      ]);
    };
    const run = async (label: string, args: string[], bytes: number, target: { seconds?: number; requests?: number }) => {
      const before = { ...seen };
      const r = await spawnTimed(process.execPath, [BIN, ...args, '--json'], env, dir);
      if (r.code !== 0) throw new Error(`${label} failed (${r.code}): ${r.stderr.slice(-2000)}`);
      const s = JSON.parse(r.stdout).summary as { copied: number; requests: number };
      const requests = seen.requests - before.requests;
      const limited = seen.limited - before.limited;
      const met = (target.seconds === undefined || r.seconds <= target.seconds) && (target.requests === undefined || requests <= target.requests);
      const goal = [target.seconds === undefined ? '' : `≤ ${target.seconds} s`, target.requests === undefined ? '' : `≤ ${target.requests} req`]
        .filter(Boolean)
        .join(', ');
      if (goal && !met) failures.push(`${label}: ${r.seconds.toFixed(2)} s, ${requests} requests (target ${goal})`);
      rows.push([
        label,
        String(s.copied),
        `${(bytes / MiB).toFixed(1)} MiB`,
        `${requests}${requests !== s.requests ? ` (cli ${s.requests})` : ''}`,
        String(limited),
        `${r.seconds.toFixed(2)} s`,
        bytes ? `${(bytes / MiB / r.seconds).toFixed(1)} MiB/s` : '-',
        goal ? `${goal} ${met ? 'met' : 'MISSED'}` : '-',
      ]);
    };

    await floor(`cp -r, ${FILES} files`, 'tree', 'tree-floor', treeBytes);
    await run(`${FILES} files up`, ['cp', 'tree', 'remote:tree/'], treeBytes, { seconds: 30, requests: 40 });
    await run(`${FILES} files down`, ['cp', 'remote:tree/', 'tree-copy'], treeBytes, { seconds: 30, requests: 40 });
    const lost = differences(await fingerprint(tree), await fingerprint(join(dir, 'tree-copy')));
    if (lost.length) failures.push(`the round trip changed ${lost.length} file(s), e.g. ${lost.slice(0, 3).join('; ')}`);
    await run('sync up, nothing changed', ['sync', 'tree', 'remote:tree/'], 0, { seconds: 2, requests: 3 });
    await run('sync down, nothing changed', ['sync', 'remote:tree/', 'tree-copy'], 0, { seconds: 2, requests: 3 });
    await floor(`cp, ${LARGE / MiB} MiB`, 'large', 'large-floor', LARGE);
    await run(`${LARGE / MiB} MiB up (parts)`, ['cp', 'large', 'remote:large/'], LARGE, {});
    await run(`${LARGE / MiB} MiB down`, ['cp', 'remote:large/', 'large-copy'], LARGE, {});
    const head = ['case', 'files', 'bytes', 'requests', '429s', 'time', 'rate', 'target'];
    const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
    for (const r of [head, ...rows]) process.stdout.write(`${r.map((c, i) => c.padEnd(widths[i])).join('  ')}\n`);
    for (const f of failures) process.stdout.write(`MISSED: ${f}\n`);
  } finally {
    server.close();
    await running.close();
    await rm(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await main().then(() => process.exit(0));
