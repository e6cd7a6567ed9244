// Graceful drain of a real server process (`npm start`'s entry point): SIGTERM while an execution, a part upload
// and a download are in flight. Readiness turns 503 at once, new executions and part uploads are refused with 503
// draining + Retry-After, what was accepted finishes and is durable, and the process exits 0. A second server shows
// the deadline: a part upload that never finishes is cut after DRAIN_TIMEOUT_MS, unacknowledged and unrecorded.
import t from 'tap';
import type { Test } from 'tap';
import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
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

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const ENTRY = ['--no-node-snapshot', '--import', './scripts/node-check.mjs'];
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

interface Server {
  child: ChildProcess;
  base: string;
  metricsBase: string;
  token: string;
  log: () => string;
  exited: Promise<number | null>;
}

async function startServer(t: Test, extra: Record<string, string>): Promise<Server & { sql: ReturnType<typeof connect> }> {
  const db = await createTestDatabase();
  const dataDir = await mkdtemp(join(tmpdir(), 'siglata-drain-'));
  const [port, metricsPort] = [await freePort(), await freePort()];
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATABASE_URL: db.url,
    DATA_DIR: dataDir,
    PORT: String(port),
    PUBLIC_BASE_URL: 'http://siglata.test',
    LOG_LEVEL: 'info',
    RATE_LIMIT_MAX: '1000000',
    METRICS_PORT: String(metricsPort),
    ENGINE_POOL_SIZE: '2',
    ...extra,
  };
  delete env.NODE_OPTIONS; // tap's hooks
  const sql = connect(db.url, { max: 2, applicationName: 'drain-test' });
  let log = '';
  const child = spawn(process.execPath, [...ENTRY, 'server/main.ts'], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout!.on('data', (d: Buffer) => {
    log += d;
  });
  child.stderr!.on('data', (d: Buffer) => {
    log += d;
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  t.teardown(async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGKILL');
      await exited;
    }
    await sql.end({ timeout: 2 });
    await db.drop();
    await rm(dataDir, { recursive: true, force: true });
  });
  const base = `http://127.0.0.1:${port}`;
  for (let i = 0; ; i++) {
    if (child.exitCode !== null || i > 300) throw new Error(`server did not start: ${log}`);
    try {
      if ((await http(`${base}/health/ready`)).status === 200) break;
    } catch {
      /* starting */
    }
    await sleep(100);
  }
  const token = execFileSync(process.execPath, [...ENTRY, 'scripts/mint-token.ts', '--email', 'drain@example.com', '--org', 'drain'], {
    cwd: ROOT,
    env,
    encoding: 'utf8',
  }).trim();
  return { child, base, metricsBase: `http://127.0.0.1:${metricsPort}`, token, log: () => log, exited, sql };
}

const rpc = (script: string) => ({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'execute', arguments: { script } } });

function slowBody(chunks: Buffer[]): { body: Readable; next: () => void } {
  const body = new Readable({ read() {} });
  let i = 0;
  body.push(chunks[i++]);
  return {
    body,
    next: () => {
      body.push(i < chunks.length ? chunks[i++] : null);
    },
  };
}

function putPart(s: Server, uploadId: string, body: Readable | Buffer, length: number) {
  return request(`${s.base}/v1/mcp/uploads/${uploadId}/parts/1`, {
    method: 'PUT',
    headers: { authorization: `Bearer ${s.token}`, 'content-type': 'application/octet-stream', 'content-length': String(length) },
    body,
  }).then(
    async (r) => ({ status: r.statusCode, headers: r.headers, text: await r.body.text() }),
    () => ({ status: 0, headers: {}, text: '' }),
  );
}

t.test('SIGTERM with an execution, a part upload and a download in flight: all finish, new work is refused, exit 0', async (t) => {
  const s = await startServer(t, { DRAIN_TIMEOUT_MS: '20000' });
  const exec = (script: string) => http(`${s.base}/v1/mcp`, { token: s.token, json: rpc(script) });

  // The separate metrics listener answers on its own port; the main port does not serve /metrics without a token.
  t.equal((await http(`${s.metricsBase}/metrics`)).status, 200);
  t.equal((await http(`${s.base}/metrics`)).status, 404);

  // A file to download (8 MiB: more than the socket buffers hold, so the download is really in flight).
  const big = randomBytes(8 * 1024 * 1024);
  const up1 = (await exec(`return await upload_begin({ name: "big.bin", mediaType: "application/octet-stream", size: ${big.length} });`)).body.result
    .structuredContent.result;
  t.equal((await putPart(s, up1.uploadId, big, big.length)).status, 200);
  const file = (await exec(`return await upload_complete({ uploadId: ${JSON.stringify(up1.uploadId)} });`)).body.result.structuredContent.result.file;
  const small = randomBytes(4000);
  const up2 = (await exec(`return await upload_begin({ name: "late.bin", mediaType: "application/octet-stream", size: ${small.length} });`)).body.result
    .structuredContent.result;

  // In flight: an execution that runs ~1.5 s and then writes a file; half of a part; a download not yet read.
  const running = exec(
    'const end = Date.now() + 1500; while (Date.now() < end) {} return await files_write_text({ name: "written-while-draining.txt", text: "kept" });',
  );
  const part = slowBody([small.subarray(0, 2000), small.subarray(2000)]);
  const partReply = putPart(s, up2.uploadId, part.body, small.length);
  const dl = await request(`${s.base}/v1/mcp/files/${file.fileId}/download`, { headers: { authorization: `Bearer ${s.token}` } });
  t.equal(dl.statusCode, 200);
  await sleep(300); // the execution is running, the part's first half has arrived

  const signalled = Date.now();
  s.child.kill('SIGTERM');
  for (;;) {
    const ready = await http(`${s.base}/health/ready`);
    if (ready.status === 503) {
      t.equal(ready.body.checks.draining, true);
      break;
    }
    if (Date.now() - signalled > 1000) {
      t.fail('readiness still 200 a second after SIGTERM');
      break;
    }
    await sleep(20);
  }
  t.ok(Date.now() - signalled < 1000, 'readiness false at once');

  const refused = await exec('return 1;');
  t.equal(refused.status, 503, 'a new execution is refused');
  t.equal(refused.body.error.code, 'draining');
  t.ok(Number(refused.headers['retry-after']) > 0, 'with Retry-After');
  const up3 = await putPart(s, up1.uploadId, Buffer.alloc(10), 10);
  t.equal(up3.status, 503, 'a new part upload is refused');
  t.equal(JSON.parse(up3.text).error.code, 'draining');

  // What was accepted finishes.
  part.next();
  part.next();
  const partDone = await partReply;
  t.equal(partDone.status, 200, 'the part in flight is acknowledged');
  const ran = await running;
  t.equal(ran.status, 200);
  t.equal(ran.body.result.structuredContent.ok, true, 'the running execution finished');
  t.equal(sha(Buffer.from(await dl.body.arrayBuffer())), sha(big), 'the download in flight is complete and intact');

  t.equal(await s.exited, 0, 'exit 0');
  t.match(s.log(), /drained/);
  // Nothing acknowledged is lost: the execution's file and the acknowledged part are in the database.
  const [written] = await s.sql`select name from files where name = 'written-while-draining.txt'`;
  t.ok(written, 'the file written by the execution is stored');
  const [recorded] = await s.sql`select byte_length from upload_parts where upload_id = ${up2.uploadId} and part_number = 1`;
  t.equal(recorded?.byte_length, small.length, 'the acknowledged part is recorded');
});

t.test('the drain deadline: a part that never finishes is cut, not acknowledged, and the process still exits 0', async (t) => {
  const METRICS_TOKEN = 'a-metrics-secret-of-some-length';
  const s = await startServer(t, { DRAIN_TIMEOUT_MS: '800', METRICS_TOKEN });
  // With both METRICS_PORT and METRICS_TOKEN, the listener asks for the token as the main port does.
  t.equal((await http(`${s.metricsBase}/metrics`)).status, 401);
  t.equal((await http(`${s.metricsBase}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })).status, 200);
  t.match((await http(`${s.base}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })).text, /^# HELP /m);
  const up = (
    await http(`${s.base}/v1/mcp`, {
      token: s.token,
      json: rpc('return await upload_begin({ name: "stalled.bin", mediaType: "application/octet-stream", size: 4000 });'),
    })
  ).body.result.structuredContent.result;
  const part = slowBody([randomBytes(1000)]);
  const reply = putPart(s, up.uploadId, part.body, 4000);
  await sleep(300);
  const signalled = Date.now();
  s.child.kill('SIGTERM');
  t.equal(await s.exited, 0, 'exit 0');
  const took = Date.now() - signalled;
  t.ok(took >= 700 && took < 10_000, `exited after the deadline (${took} ms)`);
  t.match(s.log(), /drain deadline passed/);
  t.equal((await reply).status, 0, 'the stalled part got no acknowledgement');
  part.body.destroy();
  const rows = await s.sql`select 1 from upload_parts where upload_id = ${up.uploadId}`;
  t.equal(rows.length, 0, 'and nothing was recorded for it');
});
