// Crash consistency (issue 9.1): SIGKILL the server while parts are being written and during completion, and a
// janitor during a trash purge; restart on the same data; no acknowledged part or completed file is lost or
// corrupted (SHA-256 of downloads equals the source), the interrupted upload resumes, and after the janitors run no
// orphan bytes remain.
import t from 'tap';
import { spawn, fork, execFileSync, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm, readdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer } from 'node:net';
import { createHash, randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { request } from 'undici';
import { createTestDatabase } from '../helpers/test-postgres.ts';
import { http } from '../helpers/http.ts';
import { connect } from '../../runtime-api/store/sql.ts';
import { fsBlobStore } from '../../runtime-api/blobs/fs.ts';
import { loadConfig } from '../../server/config.ts';
import { expireUploads, purgeExpiredTrash, deleteOrphanBlobs, STUCK_COMPLETION_MS } from '../../runtime-api/services/janitors.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const ENTRY = ['--no-node-snapshot', '--import', './scripts/node-check.mjs'];
const PART = 8 * 1024 * 1024;
const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

async function freePort(): Promise<number> {
  return new Promise((resolve) => { const s = createServer().listen(0, '127.0.0.1', () => { const { port } = s.address() as { port: number }; s.close(() => resolve(port)); }); });
}

function cleanEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env = { ...process.env, ...extra };
  delete env.NODE_OPTIONS;
  return env;
}

async function walk(dir: string, rel = ''): Promise<string[]> {
  let out: string[] = [];
  for (const e of await readdir(dir, { withFileTypes: true }).catch(() => [])) {
    const r = rel ? `${rel}/${e.name}` : e.name;
    out = e.isDirectory() ? [...out, ...(await walk(join(dir, e.name), r))] : [...out, r];
  }
  return out;
}

t.test('SIGKILL during parts, completion and trash purge loses nothing and leaves no orphans', async (t) => {
  const db = await createTestDatabase();
  const dataDir = await mkdtemp(join(tmpdir(), 'siglata-crash-'));
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const env = { DATABASE_URL: db.url, DATA_DIR: dataDir, PORT: String(port), PUBLIC_BASE_URL: 'http://siglata.test', LOG_LEVEL: 'warn', RATE_LIMIT_MAX: '100000' };
  let server: ChildProcess | null = null;
  const start = async () => {
    server = spawn(process.execPath, [...ENTRY, 'server/main.ts'], { cwd: ROOT, env: cleanEnv(env), stdio: 'ignore' });
    for (let i = 0; i < 300; i++) {
      try { if ((await http(`${base}/api`)).status === 200) return; } catch { /* starting */ }
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error('server did not start');
  };
  const kill = async () => {
    const s = server!;
    if (s.exitCode !== null || s.signalCode !== null) return;
    const gone = new Promise((r) => s.once('exit', r));
    s.kill('SIGKILL');
    await gone;
  };
  const sql = connect(db.url, { max: 2 });
  t.teardown(async () => {
    await kill().catch(() => {});
    await sql.end();
    await db.drop();
    await rm(dataDir, { recursive: true, force: true });
  });
  await start();
  const token = execFileSync(process.execPath, [...ENTRY, 'scripts/mint-token.ts', '--email', 'crash@example.com', '--org', 'crash'], { cwd: ROOT, env: cleanEnv(env), encoding: 'utf8' }).trim();
  const exec = async (script: string) => {
    const res = await http(`${base}/v1/mcp`, { token, json: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'execute', arguments: { script } } } });
    return res.body.result.structuredContent;
  };
  const put = async (uploadId: string, n: number, body: Buffer | Readable) => {
    const res = await request(`${base}/v1/mcp/uploads/${uploadId}/parts/${n}`, { method: 'PUT', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/octet-stream', ...(Buffer.isBuffer(body) ? {} : { 'content-length': String(PART) }) }, body });
    await res.body.text();
    return res.statusCode;
  };
  const download = async (fileId: string) => {
    const res = await request(`${base}/v1/mcp/files/${fileId}/download`, { headers: { authorization: `Bearer ${token}` } });
    return { status: res.statusCode, bytes: Buffer.from(await res.body.arrayBuffer()) };
  };
  const janitorDeps = (at: Date) => ({ sql, blobs: fsBlobStore(join(dataDir, 'blobs')), clock: { now: () => at }, config: loadConfig({}, env) });
  const partsOf = (data: Buffer) => Array.from({ length: Math.ceil(data.length / PART) }, (_, i) => data.subarray(i * PART, Math.min((i + 1) * PART, data.length)));

  t.test('(a) killed while a part is being written: acknowledged parts survive, the upload resumes', async (t) => {
    const data = randomBytes(2 * PART + 1000);
    const parts = partsOf(data);
    const begun = await exec(`return await upload_begin({ name: "a.bin", mediaType: "application/x-a", byteLength: ${data.length} });`);
    const { uploadId } = begun.result;
    t.equal(await put(uploadId, 1, parts[0]), 200, 'part 1 acknowledged');
    // Part 2: half its bytes, then the server dies mid-body.
    const stalled = new Readable({ read() {} });
    stalled.push(parts[1].subarray(0, PART / 2));
    const pending = put(uploadId, 2, stalled).catch(() => 0);
    await new Promise((r) => setTimeout(r, 300));
    await kill();
    stalled.destroy();
    t.not(await pending, 200, 'the interrupted part was never acknowledged');
    await start();
    const status = await exec(`return await upload_status({ uploadId: ${JSON.stringify(uploadId)} });`);
    t.ok(status.result.receivedParts.includes(1), 'the acknowledged part is still received');
    t.same(status.result.missingParts, [2, 3], 'the interrupted and unsent parts are missing');
    t.equal(await put(uploadId, 2, parts[1]), 200);
    t.equal(await put(uploadId, 3, parts[2]), 200);
    const done = await exec(`return await upload_complete({ uploadId: ${JSON.stringify(uploadId)} });`);
    t.equal(done.ok, true, JSON.stringify(done.error));
    const got = await download(done.result.file.fileId);
    t.equal(sha(got.bytes), sha(data), 'SHA-256 of the download equals the source');
  });

  t.test('(b) killed during completion: after restart and the janitors, the file is whole or completable', async (t) => {
    const data = randomBytes(2 * PART + 4321);
    const parts = partsOf(data);
    const { uploadId } = (await exec(`return await upload_begin({ name: "b.bin", mediaType: "application/x-b", byteLength: ${data.length} });`)).result;
    for (let n = 1; n <= parts.length; n++) t.equal(await put(uploadId, n, parts[n - 1]), 200);
    const completing = http(`${base}/v1/mcp`, { token, json: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'execute', arguments: { script: `return await upload_complete({ uploadId: ${JSON.stringify(uploadId)} });` } } } }).catch(() => null);
    await new Promise((r) => setTimeout(r, 15));
    await kill();
    await completing;
    await start();
    // A completion that died is finished or rolled back by the janitor once it is stuck long enough.
    await expireUploads(janitorDeps(new Date(Date.now() + STUCK_COMPLETION_MS + 60_000)));
    const status = (await exec(`return await upload_status({ uploadId: ${JSON.stringify(uploadId)} });`)).result;
    let fileId: string;
    if (status.state === 'completed') {
      fileId = status.fileId;
    } else {
      t.equal(status.state, 'open', 'not completed: back to open, with every part');
      t.same(status.missingParts, []);
      const done = await exec(`return await upload_complete({ uploadId: ${JSON.stringify(uploadId)} });`);
      t.equal(done.ok, true, JSON.stringify(done.error));
      fileId = done.result.file.fileId;
    }
    const got = await download(fileId);
    t.equal(got.status, 200);
    t.equal(sha(got.bytes), sha(data), 'SHA-256 of the download equals the source');
  });

  t.test('(c) a janitor killed during a trash purge leaves rows and bytes consistent', async (t) => {
    const keep = await exec('return await files_write_text({ name: "keep.txt", text: "keep me" });');
    const made = await exec('const ids = []; for (let i = 0; i < 40; i++) { const f = await files_write_text({ name: `t${i}.txt`, text: "x".repeat(1000 + i) }); await files_trash({ fileId: f.fileId }); ids.push(f.fileId); } return ids;');
    t.equal(made.result.length, 40);
    const later = Date.now() + 31 * 86400_000;
    const child = fork(join(ROOT, 'test/reliability/purge-child.ts'), [], { execArgv: ['--no-node-snapshot'], env: cleanEnv({ DATABASE_URL: db.url, BLOB_ROOT: join(dataDir, 'blobs'), NOW_MS: String(later) }), stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
    await new Promise((r) => child.once('message', r));
    await new Promise((r) => setTimeout(r, 25));
    child.kill('SIGKILL');
    await new Promise((r) => child.once('exit', r));
    // Every row that remains still has its bytes unless its purge was under way; rerunning the janitors settles it.
    await purgeExpiredTrash(janitorDeps(new Date(later)));
    const rows = await sql`select id, blob_key from files`;
    t.same(rows.filter((r) => made.result.includes(r.id)), [], 'every expired trashed file is purged after a rerun');
    t.equal((await download(keep.result.fileId)).bytes.toString(), 'keep me', 'the active file is untouched');
  });

  t.test('after the janitors, no orphan bytes remain', async (t) => {
    await kill();
    const far = new Date(Date.now() + 31 * 86400_000);
    await expireUploads(janitorDeps(far));
    await deleteOrphanBlobs(janitorDeps(far), { graceMs: 0 });
    const objects = await walk(join(dataDir, 'blobs', 'objects'));
    const keys = (await sql`select blob_key from files`).map((r) => r.blob_key as string).sort();
    t.same(objects.sort(), keys, 'exactly the bytes the catalogue points at');
    const staged = await walk(join(dataDir, 'blobs', 'uploads'));
    const live = (await sql`select id from uploads where state in ('open', 'completing')`).map((r) => r.id as string);
    t.same(staged.filter((p) => !live.some((id) => p.startsWith(`${id}/`))), [], 'no staging data without a live upload');
  });
});
