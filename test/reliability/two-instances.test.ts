// Two server processes on one PostgreSQL and one blob store: parts of one upload sent alternately to
// both, completion on one, download from the other; the rate limit shared; each janitor run by one instance at a time.
import t from 'tap';
import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer } from 'node:net';
import { createHash, randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { request } from 'undici';
import { createTestDatabase } from '../helpers/test-postgres.ts';
import { http } from '../helpers/http.ts';
import { startTestApp } from '../helpers/app.ts';
import { purgeExpiredTrash, expireUploads } from '../../runtime-api/services/janitors.ts';
import { invokeDeps } from '../../server/deps.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const ENTRY = ['--no-node-snapshot', '--import', './scripts/node-check.mjs'];
const PART = 8 * 1024 * 1024;

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

function cleanEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env = { ...process.env, ...extra };
  delete env.NODE_OPTIONS;
  return env;
}

t.test('two instances share one database and one blob store', async (t) => {
  const db = await createTestDatabase();
  const dataDir = await mkdtemp(join(tmpdir(), 'siglata-two-'));
  const ports = [await freePort(), await freePort()];
  const env = { DATABASE_URL: db.url, DATA_DIR: dataDir, PUBLIC_BASE_URL: 'http://siglata.test', RATE_LIMIT_STORE: 'postgres', LOG_LEVEL: 'warn' };
  const children: ChildProcess[] = ports.map((port) =>
    spawn(process.execPath, [...ENTRY, 'server/main.ts'], { cwd: ROOT, env: cleanEnv({ ...env, PORT: String(port) }), stdio: 'ignore' }),
  );
  t.teardown(async () => {
    for (const c of children) {
      c.kill('SIGINT');
      await new Promise((r) => (c.exitCode !== null ? r(null) : c.once('exit', r)));
    }
    await db.drop();
    await rm(dataDir, { recursive: true, force: true });
  });
  const [a, b] = ports.map((p) => `http://127.0.0.1:${p}`);
  for (const url of [a, b]) {
    for (let i = 0; i < 300; i++) {
      try {
        if ((await http(`${url}/api`)).status === 200) break;
      } catch {
        /* starting */
      }
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  const token = execFileSync(process.execPath, [...ENTRY, 'scripts/mint-token.ts', '--email', 'two@example.com', '--org', 'two'], {
    cwd: ROOT,
    env: cleanEnv(env),
    encoding: 'utf8',
  }).trim();
  const execute = async (url: string, script: string) => {
    const res = await http(`${url}/v1/mcp`, {
      token,
      json: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'execute', arguments: { script } } },
    });
    return res.body.result.structuredContent;
  };

  t.test('an upload whose parts go to both instances, completed on one, downloads intact from the other', async (t) => {
    const data = randomBytes(2 * PART + 12345);
    const begun = await execute(a, `return await upload_begin({ name: "both.bin", mediaType: "application/x-test", size: ${data.length} });`);
    t.equal(begun.ok, true, JSON.stringify(begun.error));
    const { uploadId, partCount } = begun.result;
    t.equal(partCount, 3);
    for (let n = 1; n <= partCount; n++) {
      const body = data.subarray((n - 1) * PART, Math.min(n * PART, data.length));
      const res = await request(`${n % 2 ? a : b}/v1/mcp/uploads/${uploadId}/parts/${n}`, {
        method: 'PUT',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/octet-stream' },
        body,
      });
      await res.body.text();
      t.equal(res.statusCode, 200, `part ${n} on instance ${n % 2 ? 'A' : 'B'}`);
    }
    const done = await execute(b, `return await upload_complete({ uploadId: ${JSON.stringify(uploadId)} });`);
    t.equal(done.ok, true, JSON.stringify(done.error));
    const res = await request(`${a}/v1/mcp/files/${done.result.file.fileId}/download`, { headers: { authorization: `Bearer ${token}` } });
    t.equal(res.statusCode, 200);
    t.equal(res.headers['content-type'], 'application/x-test');
    const got = Buffer.from(await res.body.arrayBuffer());
    t.equal(createHash('sha256').update(got).digest('hex'), createHash('sha256').update(data).digest('hex'), 'SHA-256 equal');
  });

  t.test('the rate limit is shared', async (t) => {
    // Both instances see this client as 127.0.0.1; what A counts, B sees.
    const first = await http(`${a}/api`);
    const remaining = Number(first.headers['ratelimit-remaining']);
    t.ok(remaining > 10 && remaining < 120, `${remaining} left in the shared window`);
    const statuses = [];
    for (let i = 0; i < remaining; i++) statuses.push((await http(`${i % 2 ? a : b}/api`)).status);
    t.ok(
      statuses.every((s) => s === 200),
      'the rest of the window, alternating',
    );
    for (const url of [a, b]) {
      const over = await http(`${url}/api`);
      t.equal(over.status, 429, `429 on ${url === a ? 'A' : 'B'}`);
      t.equal(over.headers['ratelimit-remaining'], '0');
    }
  });
});

t.test('each janitor runs on one instance at a time (advisory locks)', async (t) => {
  const first = await startTestApp(t);
  const second = await startTestApp(t, { sharedWith: first });
  const holder = await first.deps.sql.reserve();
  t.teardown(() => holder.release());
  await holder`begin`;
  await holder`select pg_advisory_xact_lock(73010101)`;
  await holder`select pg_advisory_xact_lock(73010102)`;
  t.equal(await purgeExpiredTrash(invokeDeps(second.deps)), null, 'skipped while another instance holds the lock');
  t.equal(await expireUploads(invokeDeps(second.deps)), null);
  await holder`commit`;
  t.same(await purgeExpiredTrash(invokeDeps(second.deps)), { purgedFiles: 0 }, 'runs once the lock is free');
  t.match(await expireUploads(invokeDeps(second.deps)), { expired: 0 });
});
