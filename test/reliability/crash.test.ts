// Crash consistency (reliability issue): SIGKILL the server (a) while parts are being written, (b) during
// completion, (d) while small files are being written, and a janitor process (c) during a trash purge; restart on
// the same database and blob directory, and check that nothing acknowledged is lost or corrupted (the part manifest
// vouches only for bytes that are on disk; the SHA-256 of every download equals its source), that interrupted
// uploads resume and complete, and that after the janitors (run in-process on a clock moved past their grace
// periods) the blob directory holds exactly what the catalogue points at.
//
// Kill points are deterministic where a lock can mark the step: a transaction of the test holds the row or table
// the server (or janitor) needs next, the test sees the wait in pg_stat_activity and kills then. Where nothing can
// be made to wait (bytes being written or synced, the commit not yet sent), the process is frozen with SIGSTOP
// (every thread, so no system call is still in flight), disk and database are inspected, and it is killed while
// frozen when it is in the wanted state, else thawed and polled again.
import t from 'tap';
import type { Test } from 'tap';
import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import { mkdtemp, open, readdir, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer } from 'node:net';
import { createHash, randomBytes } from 'node:crypto';
import { crc32 } from 'node:zlib';
import { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { request } from 'undici';
import { createTestDatabase } from '../helpers/test-postgres.ts';
import { http } from '../helpers/http.ts';
import { connect } from '../../runtime-api/store/sql.ts';
import { fsBlobStore } from '../../runtime-api/blobs/fs.ts';
import { manualClock } from '../../runtime-api/clock.ts';
import { loadConfig } from '../../server/config.ts';
import {
  deleteOrphanBlobs,
  expireUploads,
  purgeExpiredTrash,
  ORPHAN_GRACE_MS,
  STUCK_COMPLETION_MS,
  type JanitorDeps,
} from '../../runtime-api/services/janitors.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const ENTRY = ['--no-node-snapshot', '--import', './scripts/node-check.mjs'];
const PART = 8 * 1024 * 1024;
const DAY = 86400_000;

const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');
/** The part checksum as the transfer route records it. */
const crcHex = (b: Buffer) => crc32(b).toString(16).padStart(8, '0');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const partsOf = (data: Buffer) =>
  Array.from({ length: Math.ceil(data.length / PART) }, (_, i) => data.subarray(i * PART, Math.min((i + 1) * PART, data.length)));

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
  delete env.NODE_OPTIONS; // tap's hooks
  return env;
}

async function waitFor<T>(what: string, fn: () => Promise<T | null | undefined | false>, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const got = await fn();
    if (got) return got;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(10);
  }
}

/** Files under `dir`, as paths relative to it (none when it does not exist). */
async function walk(dir: string, rel = ''): Promise<string[]> {
  const out: string[] = [];
  for (const e of await readdir(dir, { withFileTypes: true }).catch(() => [])) {
    const r = rel ? `${rel}/${e.name}` : e.name;
    if (e.isDirectory()) out.push(...(await walk(join(dir, e.name), r)));
    else out.push(r);
  }
  return out.sort();
}

async function readRegion(file: string, offset: number, length: number): Promise<Buffer> {
  const fh = await open(file, 'r');
  try {
    const buf = Buffer.alloc(length);
    const { bytesRead } = await fh.read(buf, 0, length, offset);
    return buf.subarray(0, bytesRead);
  } finally {
    await fh.close();
  }
}

/** SIGSTOP, then wait until every thread is stopped (a thread inside write() or fdatasync() finishes it first). */
async function freeze(pid: number): Promise<void> {
  process.kill(pid, 'SIGSTOP');
  for (let i = 0; i < 1000; i++) {
    const tasks = await readdir(`/proc/${pid}/task`).catch(() => [] as string[]);
    const states = await Promise.all(
      tasks.map(async (task) => {
        const s = await readFile(`/proc/${pid}/task/${task}/stat`, 'utf8').catch(() => 'x) X');
        return s.slice(s.lastIndexOf(')') + 2, s.lastIndexOf(')') + 3);
      }),
    );
    if (states.every((s) => 'TtZX'.includes(s))) return;
    await sleep(0.2);
  }
  throw new Error(`process ${pid} did not stop`);
}

async function killNow(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const gone = new Promise((r) => child.once('exit', r));
  child.kill('SIGKILL'); // also ends a frozen process
  await gone;
}

/**
 * Freeze `child` again and again until `wanted()` holds while it is frozen, then SIGKILL it (still frozen).
 * False, with the child running, if `over()` (e.g. the request finished) or the time ran out first.
 */
async function killWhen(child: ChildProcess, wanted: () => Promise<boolean>, over: () => boolean, timeoutMs = 10_000): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (!over() && child.exitCode === null && Date.now() < deadline) {
    await freeze(child.pid!);
    let hit = false;
    try {
      hit = await wanted();
    } finally {
      if (hit) await killNow(child);
      else child.kill('SIGCONT');
    }
    if (hit) return true;
    await sleep(1);
  }
  return false;
}

function tracked<T>(p: Promise<T>): { promise: Promise<T | null>; done: () => boolean } {
  let settled = false;
  const promise = p
    .then(
      (v) => v,
      () => null,
    )
    .finally(() => {
      settled = true;
    });
  return { promise, done: () => settled };
}

t.test('SIGKILL while writing parts, completing, purging the trash and writing files: nothing acknowledged is lost, no orphans remain', async (t) => {
  const db = await createTestDatabase();
  const dataDir = await mkdtemp(join(tmpdir(), 'siglata-crash-'));
  const blobRoot = join(dataDir, 'blobs');
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const env = {
    DATABASE_URL: db.url,
    DATA_DIR: dataDir,
    PORT: String(port),
    PUBLIC_BASE_URL: 'http://siglata.test',
    LOG_LEVEL: 'warn',
    RATE_LIMIT_MAX: '1000000',
  };
  const sql = connect(db.url, { max: 6, applicationName: 'crash-test' });
  const config = loadConfig({}, env);
  const janitorDeps = (at: Date): JanitorDeps => ({ sql, blobs: fsBlobStore(blobRoot), clock: manualClock(at), config });

  let server: ChildProcess | null = null;
  let serverLog = '';
  /** Backends of processes that died are gone (a backend waiting on a lock notices only once it gets it). */
  const backendsGone = (app: string) =>
    waitFor(`the ${app} backends to end`, async () => {
      const [{ n }] = await sql<
        { n: number }[]
      >`select count(*)::int as n from pg_stat_activity where datname = current_database() and application_name = ${app}`;
      return n === 0;
    });
  const start = async () => {
    await backendsGone('siglata');
    serverLog = '';
    const child = spawn(process.execPath, [...ENTRY, 'server/main.ts'], { cwd: ROOT, env: cleanEnv(env), stdio: ['ignore', 'ignore', 'pipe'] });
    child.stderr!.on('data', (d: Buffer) => {
      serverLog = (serverLog + d.toString()).slice(-8000);
    });
    server = child;
    for (let i = 0; i < 300; i++) {
      if (child.exitCode !== null) break;
      try {
        if ((await http(`${base}/api`)).status === 200) return;
      } catch {
        /* starting */
      }
      await sleep(100);
    }
    throw new Error(`server did not start: ${serverLog}`);
  };
  const kill = () => killNow(server!);
  t.teardown(async () => {
    if (server) {
      server.kill('SIGCONT');
      await killNow(server);
    }
    await sql.end({ timeout: 2 });
    await db.drop();
    await rm(dataDir, { recursive: true, force: true });
  });

  await start();
  const token = execFileSync(process.execPath, [...ENTRY, 'scripts/mint-token.ts', '--email', 'crash@example.com', '--org', 'crash'], {
    cwd: ROOT,
    env: cleanEnv(env),
    encoding: 'utf8',
  }).trim();

  // ---- the client side ------------------------------------------------------------------------------------------
  const exec = async (script: string) => {
    const res = await http(`${base}/v1/mcp`, {
      token,
      json: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'execute', arguments: { script } } },
    });
    return res.body.result.structuredContent as { ok: boolean; result: any; error?: { code: string; message: string } };
  };
  const call = (binding: string, input: unknown) => exec(`return await ${binding}(${JSON.stringify(input)});`);
  const must = async (binding: string, input: unknown) => {
    const out = await call(binding, input);
    if (!out.ok) throw new Error(`${binding}: ${JSON.stringify(out.error)}`);
    return out.result;
  };
  const put = async (uploadId: string, n: number, body: Buffer | Readable, length?: number): Promise<number> => {
    try {
      const res = await request(`${base}/v1/mcp/uploads/${uploadId}/parts/${n}`, {
        method: 'PUT',
        headers: {
          authorization: `Bearer ${token}`,
          'content-type': 'application/octet-stream',
          ...(length !== undefined ? { 'content-length': String(length) } : {}),
        },
        body,
      });
      await res.body.text();
      return res.statusCode;
    } catch {
      return 0; // the server went away
    }
  };
  const download = async (fileId: string) => {
    const res = await request(`${base}/v1/mcp/files/${fileId}/download`, { headers: { authorization: `Bearer ${token}` } });
    return { status: res.statusCode, bytes: Buffer.from(await res.body.arrayBuffer()) };
  };
  interface Upload {
    uploadId: string;
    fileId: string;
    blobKey: string;
    orgId: string;
    data: Buffer;
    parts: Buffer[];
  }
  const begin = async (name: string, data: Buffer): Promise<Upload> => {
    const { uploadId } = await must('upload_begin', { name, mediaType: 'application/octet-stream', size: data.length });
    const [row] = await sql`select file_id, blob_key, org_id from uploads where id = ${uploadId}`;
    return { uploadId, fileId: row.file_id, blobKey: row.blob_key, orgId: row.org_id, data, parts: partsOf(data) };
  };
  const sendAll = async (t: Test, u: Upload, numbers: number[]) => {
    for (const n of numbers) t.equal(await put(u.uploadId, n, u.parts[n - 1]), 200, `part ${n} acknowledged`);
  };
  /** Every file completed so far and the SHA-256 of its source: all must still download intact at the end. */
  const completed = new Map<string, string>();
  const assertDownload = async (t: Test, fileId: string, expected: Buffer | string, what: string) => {
    const want = typeof expected === 'string' ? expected : sha(expected);
    const got = await download(fileId);
    t.equal(got.status, 200, `${what}: downloads`);
    t.equal(sha(got.bytes), want, `${what}: SHA-256 of the download equals the source`);
    completed.set(fileId, want);
  };

  // ---- what is on disk ------------------------------------------------------------------------------------------
  const stagingFile = (uploadId: string) => join(blobRoot, 'uploads', uploadId, 'data');
  const objectFile = (key: string) => join(blobRoot, 'objects', key);
  /** The manifest vouches only for bytes that are on disk: each recorded part's staged bytes have its CRC-32. */
  const assertManifestTruthful = async (t: Test, u: Upload) => {
    const rows = await sql<
      { n: number; crc: string }[]
    >`select part_number as n, crc32 as crc from upload_parts where upload_id = ${u.uploadId} order by part_number`;
    for (const { n, crc } of rows) {
      const expected = u.parts[n - 1].length;
      const staged = await readRegion(stagingFile(u.uploadId), (n - 1) * PART, expected).catch(() => Buffer.alloc(0));
      t.equal(staged.length, expected, `${u.uploadId} part ${n}: recorded, and its bytes are staged`);
      t.equal(crcHex(staged), crc, `${u.uploadId} part ${n}: the staged bytes are the ones the manifest records`);
    }
    return rows.map((r) => r.n);
  };
  /** Never a catalogue row pointing at missing or different bytes. */
  const assertRowsHaveBytes = async (t: Test, what: string) => {
    const rows = await sql<
      { id: string; key: string; len: number; sha: string | null }[]
    >`select id, blob_key as key, byte_length as len, sha256 as sha from files`;
    const bad: string[] = [];
    for (const r of rows) {
      const s = await stat(objectFile(r.key)).catch(() => null);
      if (!s || s.size !== r.len) {
        bad.push(`${r.id}: ${s ? `${s.size} bytes, not ${r.len}` : 'no bytes'}`);
        continue;
      }
      if (r.sha && r.len <= 4 * 1024 * 1024 && sha(await readFile(objectFile(r.key))) !== r.sha) bad.push(`${r.id}: SHA-256 differs`);
    }
    t.same(bad, [], `${what}: every one of ${rows.length} file rows has its bytes`);
  };
  /** The blob directory holds exactly what the catalogue points at. */
  const assertNoOrphans = async (t: Test, what: string) => {
    const keys = (
      await sql<{ k: string }[]>`select blob_key as k from files
      union select blob_key from uploads where state = 'completing'`
    ).map((r) => r.k);
    const objects = await walk(join(blobRoot, 'objects'));
    t.same(
      objects.filter((k) => !keys.includes(k)),
      [],
      `${what}: no object without a file row`,
    );
    const live = (await sql<{ id: string }[]>`select id from uploads where state in ('open', 'completing')`).map((r) => r.id);
    const staged = await readdir(join(blobRoot, 'uploads')).catch(() => [] as string[]);
    t.same(
      staged.filter((id) => !live.includes(id)),
      [],
      `${what}: no staging data without a live upload`,
    );
    t.same(await walk(join(blobRoot, 'tmp')), [], `${what}: no temporary files`);
  };
  const waitingOn = (app: string, query: string) =>
    waitFor(`a ${app} query "${query}" waiting on a lock`, async () => {
      const rows = await sql`select pid from pg_stat_activity where datname = current_database() and application_name = ${app}
      and wait_event_type = 'Lock' and query ilike ${`%${query}%`}`;
      return rows.length > 0;
    });
  /** A transaction of the test's own, holding locks until `release`. */
  const holdLocks = async (statements: (tx: any) => Promise<unknown>) => {
    const tx = await sql.reserve();
    await tx`begin`;
    await statements(tx);
    return async () => {
      await tx`rollback`;
      tx.release();
    };
  };

  // An upload left half-done at the start: it must survive every crash and janitor, then resume and complete.
  const leftOpen = await begin('left-open.bin', randomBytes(PART + 777));
  await sendAll(t, leftOpen, [1]);

  t.test('(a) killed while parts are being written', async (t) => {
    const u = await begin('a.bin', randomBytes(3 * PART + 1000)); // parts 1-3 of 8 MiB, part 4 the remainder
    await sendAll(t, u, [1, 4]);
    const intended = [...u.parts];

    // Part 3: the whole body arrives, but recording it waits on a manifest row the test holds (uncommitted).
    const release = await holdLocks(
      (tx) => tx`insert into upload_parts (upload_id, part_number, byte_length, crc32, sha256, received_at)
      values (${u.uploadId}, 3, ${PART}, 'held', null, now())`,
    );
    const part3 = tracked(put(u.uploadId, 3, u.parts[2]));
    await waitingOn('siglata', 'upload_parts');

    // Part 2: half of its body, then nothing.
    const stalled = new Readable({ read() {} });
    stalled.push(u.parts[1].subarray(0, PART / 2));
    const part2 = tracked(put(u.uploadId, 2, stalled, PART));
    await waitFor('the first half of part 2 to be sent', async () => stalled.readableLength === 0);
    await sleep(200);

    // Part 1 again, with different bytes: kill once they are (partly) on disk but not yet committed.
    let caught = false;
    for (let attempt = 0; attempt < 8 && !caught; attempt++) {
      const replacement = randomBytes(PART);
      const before = intended[0].subarray(0, 64 * 1024);
      const resend = tracked(put(u.uploadId, 1, replacement));
      intended[0] = replacement; // what the client wants now, acknowledged or not
      caught = await killWhen(
        server!,
        async () => {
          const head = await readRegion(stagingFile(u.uploadId), 0, 64 * 1024);
          if (head.equals(before)) return false; // not written yet
          const [row] = await sql`select crc32 from upload_parts where upload_id = ${u.uploadId} and part_number = 1`;
          return row?.crc32 !== crcHex(replacement); // written, not committed
        },
        resend.done,
      );
      if (!caught) t.equal(await resend.promise, 200, `replacement ${attempt + 1} of part 1 acknowledged before it could be caught`);
    }
    t.comment(caught ? 'killed while a replacement of part 1 was written but not committed' : 'the replacement was never caught mid-write');
    await kill();
    await release();
    t.equal(await part2.promise, 0, 'the half-sent part was never acknowledged');
    t.equal(await part3.promise, 0, 'the held part was never acknowledged');
    stalled.destroy();
    await start();

    const status = await must('upload_status', { uploadId: u.uploadId });
    t.equal(status.state, 'open');
    t.ok(status.receivedParts.includes(4), 'the acknowledged part 4 is still received');
    t.ok(status.missingParts.includes(2) && status.missingParts.includes(3), 'parts 2 and 3 were never acknowledged: missing');
    if (caught) t.ok(status.missingParts.includes(1), 'the replacement caught mid-write: part 1 is missing, not vouched for');
    const recorded = await assertManifestTruthful(t, u);
    t.same(recorded, status.receivedParts);
    const [p4] = await sql`select crc32 from upload_parts where upload_id = ${u.uploadId} and part_number = 4`;
    t.equal(p4.crc32, crcHex(u.parts[3]), 'part 4 holds the acknowledged bytes');

    // Resume: resend what was never acknowledged (and whatever is missing), complete, compare.
    for (const n of new Set([1, ...status.missingParts])) t.equal(await put(u.uploadId, n, intended[n - 1]), 200, `part ${n} resent`);
    const done = await must('upload_complete', { uploadId: u.uploadId });
    await assertDownload(t, done.file.fileId, Buffer.concat(intended), 'the resumed upload');
  });

  t.test('(a) an acknowledged part re-sent with the same bytes, killed mid-write, stays received', async (t) => {
    const u = await begin('a-retry.bin', randomBytes(PART + 2000));
    await sendAll(t, u, [1, 2]);
    const staged = stagingFile(u.uploadId);
    let caught = false;
    for (let attempt = 0; attempt < 8 && !caught; attempt++) {
      const [{ at }] = await sql`select received_at as at from upload_parts where upload_id = ${u.uploadId} and part_number = 1`;
      const mtime = (await stat(staged)).mtimeMs;
      const resend = tracked(put(u.uploadId, 1, u.parts[0]));
      caught = await killWhen(
        server!,
        async () => {
          if ((await stat(staged)).mtimeMs === mtime) return false; // not written yet
          const [row] = await sql`select received_at as at from upload_parts where upload_id = ${u.uploadId} and part_number = 1`;
          return row.at.getTime() === at.getTime(); // written, not committed
        },
        resend.done,
      );
      if (!caught) t.equal(await resend.promise, 200, `re-send ${attempt + 1} acknowledged before it could be caught`);
    }
    t.comment(caught ? 'killed while the identical copy was written but not committed' : 'the re-send was never caught mid-write');
    await kill();
    await start();
    const status = await must('upload_status', { uploadId: u.uploadId });
    t.match(status, { state: 'open', receivedParts: [1, 2], missingParts: [] }, 'both acknowledged parts are still received');
    await assertManifestTruthful(t, u);
    const done = await must('upload_complete', { uploadId: u.uploadId });
    await assertDownload(t, done.file.fileId, u.data, 'completed without resending anything');
  });

  t.test('(b) killed during completion', async (t) => {
    const size = 2 * PART + 4321;
    // Calibrate: how long one completion of this size takes here.
    const cal = await begin('b-cal.bin', randomBytes(size));
    await sendAll(t, cal, [1, 2, 3]);
    const t0 = performance.now();
    const calDone = await must('upload_complete', { uploadId: cal.uploadId });
    const took = performance.now() - t0;
    await assertDownload(t, calDone.file.fileId, cal.data, 'an uninterrupted completion');
    t.comment(`one completion takes ${took.toFixed(0)} ms`);

    t.test('deterministic: before the reservation moves, and after the bytes are assembled but before the file row', async (t) => {
      const early = await begin('b-early.bin', randomBytes(PART + 1234));
      const late = await begin('b-late.bin', randomBytes(PART + 4321));
      await sendAll(t, early, [1, 2]);
      await sendAll(t, late, [1, 2]);

      // `late`: a file row with its id, uncommitted, makes the completion wait right after assembling the bytes.
      const releaseLate = await holdLocks(
        (tx) => tx`insert into files (id, org_id, name, media_type, byte_length, blob_key, created_at, updated_at)
        values (${late.fileId}, ${late.orgId}, 'held', 'x/x', 0, 'held/late', now(), now())`,
      );
      const lateCompletion = tracked(call('upload_complete', { uploadId: late.uploadId }));
      await waitingOn('siglata', 'insert into files');
      t.equal((await stat(objectFile(late.blobKey))).size, late.data.length, 'late: the bytes are assembled in place');
      t.equal(await stat(stagingFile(late.uploadId)).catch(() => null), null, 'late: the staging file is gone');
      t.equal((await sql`select state from uploads where id = ${late.uploadId}`)[0].state, 'completing');

      // `early`: the organization's lock, which `late`'s waiting completion holds (every change to the organization's
      // paths takes it first), makes the completion wait before anything changed.
      t.equal(early.orgId, late.orgId);
      const earlyCompletion = tracked(call('upload_complete', { uploadId: early.uploadId }));
      await waitingOn('siglata', 'insert into org_storage_locks');

      await kill();
      await releaseLate();
      t.equal(await earlyCompletion.promise, null, 'early: never answered');
      t.equal(await lateCompletion.promise, null, 'late: never answered');
      await start();

      const e = await must('upload_status', { uploadId: early.uploadId });
      t.match(e, { state: 'open', receivedParts: [1, 2], missingParts: [] }, 'early: still open with every part');
      await assertManifestTruthful(t, early);
      const l = await must('upload_status', { uploadId: late.uploadId });
      t.match(l, { state: 'completing', fileId: null }, 'late: stuck in completing');
      t.equal((await call('upload_complete', { uploadId: late.uploadId })).error?.code, 'conflict', 'late: cannot be completed twice');
      t.equal((await download(late.fileId)).status, 404, 'late: no file yet');

      // The orphan janitor, past its grace period, must leave both alone; the stuck completion is finished later.
      await deleteOrphanBlobs(janitorDeps(new Date(Date.now() + ORPHAN_GRACE_MS + 60_000)));
      t.equal((await stat(objectFile(late.blobKey))).size, late.data.length, 'late: the assembled bytes survive the orphan janitor');
      t.ok(await stat(stagingFile(early.uploadId)), 'early: the staged parts survive the orphan janitor');
      const recovered = await expireUploads(janitorDeps(new Date(Date.now() + STUCK_COMPLETION_MS + 60_000)));
      t.match(recovered, { recovered: 1 }, 'expireUploads finished the stuck completion');
      const l2 = await must('upload_status', { uploadId: late.uploadId });
      t.match(l2, { state: 'completed', fileId: late.fileId });
      await assertDownload(t, late.fileId, late.data, 'late, finished by the janitor');

      const doneEarly = await must('upload_complete', { uploadId: early.uploadId });
      await assertDownload(t, doneEarly.file.fileId, early.data, 'early, completed again');
      await assertRowsHaveBytes(t, 'after (b) deterministic');
    });

    t.test('timed: completions at staggered points when the server dies', async (t) => {
      const uploads: Upload[] = [];
      for (let i = 0; i < 4; i++) {
        const u = await begin(`b-sweep-${i}.bin`, randomBytes(size));
        await sendAll(t, u, [1, 2, 3]);
        uploads.push(u);
      }
      // Started took×{2, 1.5, 1, 0.5} before the kill (concurrency stretches each: they spread over every step).
      const step = Math.max(1, took * 0.5);
      const pending = [];
      for (const u of uploads) {
        pending.push(tracked(call('upload_complete', { uploadId: u.uploadId })));
        await sleep(step);
      }
      await kill();
      await Promise.all(pending.map((p) => p.promise));
      await start();

      const states: string[] = [];
      for (const u of uploads) states.push((await must('upload_status', { uploadId: u.uploadId })).state);
      t.comment(`after the kill: ${states.join(', ')}`);
      await assertRowsHaveBytes(t, 'after the timed kill');
      await deleteOrphanBlobs(janitorDeps(new Date(Date.now() + ORPHAN_GRACE_MS + 60_000)));
      await expireUploads(janitorDeps(new Date(Date.now() + STUCK_COMPLETION_MS + 60_000)));
      for (const [i, u] of uploads.entries()) {
        const s = await must('upload_status', { uploadId: u.uploadId });
        if (s.state === 'completed') {
          await assertDownload(t, s.fileId, u.data, `sweep ${i} (${states[i]} after the kill): completed`);
        } else {
          t.match(s, { state: 'open', missingParts: [] }, `sweep ${i} (${states[i]} after the kill): open again with every part`);
          await assertManifestTruthful(t, u);
          const done = await must('upload_complete', { uploadId: u.uploadId });
          await assertDownload(t, done.file.fileId, u.data, `sweep ${i}: completed again`);
        }
      }
    });
  });

  t.test('(c) a janitor killed during a trash purge', async (t) => {
    const keep = await must('files_write_text', { name: 'c/keep.txt', text: 'keep me' });
    const recent = await must('files_write_text', { name: 'c/recent.txt', text: 'trashed a moment ago' });
    await must('files_trash', { fileId: recent.fileId });
    /** `count` trashed files whose restore window closed a day ago. */
    const expiredTrash = async (prefix: string, count: number): Promise<{ id: string; text: string }[]> => {
      const made = await exec(`const ids = [];
        for (let i = 0; i < ${count}; i++) {
          const f = await files_write_text({ name: \`${prefix}/\${i}.txt\`, text: \`${prefix} \${i} \`.repeat(50 + i) });
          await files_trash({ fileId: f.fileId });
          ids.push(f.fileId);
        }
        return ids;`);
      if (!made.ok) throw new Error(JSON.stringify(made.error));
      await sql`update files set trashed_at = trashed_at - ${`${config.trashRetentionMs / DAY + 1} days`}::interval where id = any(${made.result})`;
      return (made.result as string[]).map((id, i) => ({ id, text: `${prefix} ${i} `.repeat(50 + i) }));
    };
    const janitor = () =>
      spawn(process.execPath, [...ENTRY, 'test/reliability/crash-janitor.ts'], {
        cwd: ROOT,
        env: cleanEnv({ ...env, BLOB_ROOT: blobRoot, NOW_MS: String(Date.now()) }),
        stdio: ['ignore', 'pipe', 'inherit'],
      });

    t.test('deterministic: the purge waits to change the catalogue', async (t) => {
      const files = await expiredTrash('c1', 30);
      // A SHARE lock on files lets the purge select and lock its rows, but not delete them.
      const release = await holdLocks((tx) => tx`lock table files in share mode`);
      const child = janitor();
      await waitingOn('crash-janitor', 'delete from files');
      await killNow(child);
      await release();
      await backendsGone('crash-janitor');
      await assertRowsHaveBytes(t, 'right after the kill');
      const left = (await sql`select id from files where id = any(${files.map((f) => f.id)})`).map((r) => r.id as string);
      t.comment(`${left.length} of ${files.length} expired files still listed`);
      const one = files.find((f) => left.includes(f.id));
      if (one) {
        t.equal((await download(one.id)).bytes.toString(), one.text, 'a file whose purge was interrupted still has its bytes');
        t.equal((await call('files_restore', { fileId: one.id })).error?.code, 'restore_expired', '… and is past its window: purgeable, not restorable');
        const key = (await sql`select blob_key from files where id = ${one.id}`)[0].blob_key as string;
        t.equal((await call('files_delete', { fileId: one.id })).ok, true, '… and can be deleted for good');
        t.equal(await stat(objectFile(key)).catch(() => null), null, '… bytes and all');
      }
    });

    t.test('timed: killed once the catalogue rows are gone, while bytes are deleted', async (t) => {
      const files = await expiredTrash('c2', 100);
      const ids = files.map((f) => f.id);
      const keys = (await sql`select blob_key from files where id = any(${ids})`).map((r) => r.blob_key as string);
      const child = janitor();
      let left = -1;
      const caught = await killWhen(
        child,
        async () => {
          const [{ n }] = await sql`select count(*)::int as n from files where id = any(${ids})`;
          if (n > 0) return false;
          left = (await Promise.all(keys.map((k) => stat(objectFile(k)).catch(() => null)))).filter(Boolean).length;
          return left > 0;
        },
        () => child.exitCode !== null,
      );
      await killNow(child);
      await backendsGone('crash-janitor');
      t.comment(caught ? `killed with the rows gone and ${left} of ${keys.length} blobs left` : 'the purge finished before it could be caught');
      await assertRowsHaveBytes(t, 'right after the kill');
    });

    t.test('the janitors settle it', async (t) => {
      await purgeExpiredTrash(janitorDeps(new Date()));
      t.same(
        (await sql`select id from files where state = 'trashed' and trashed_at < ${new Date(Date.now() - config.trashRetentionMs)}`).length,
        0,
        'every expired trashed file is purged',
      );
      await assertRowsHaveBytes(t, 'after the purge reran');
      await deleteOrphanBlobs(janitorDeps(new Date(Date.now() + ORPHAN_GRACE_MS + 60_000)));
      await assertNoOrphans(t, 'after the orphan janitor');
      t.equal((await download(keep.fileId)).bytes.toString(), 'keep me', 'the active file is untouched');
      t.equal((await must('files_restore', { fileId: recent.fileId })).state, 'active', 'a file trashed within the window is restorable');
      t.equal((await download(recent.fileId)).bytes.toString(), 'trashed a moment ago');
    });
  });

  t.test('(d) killed while small files are being written', async (t) => {
    const before = new Set((await sql`select id from files`).map((r) => r.id as string));
    const writing = tracked(
      exec(`for (let i = 0; i < 60; i++) await files_write_text({ name: \`d/\${i}.txt\`, text: String(i).repeat(200000 / String(i).length) });
      return 'done';`),
    );
    const caught = await killWhen(server!, async () => (await walk(join(blobRoot, 'tmp'))).length > 0, writing.done);
    t.comment(caught ? 'killed with a file half-written' : 'never caught a file mid-write');
    await kill();
    await writing.promise;
    const stray = await walk(join(blobRoot, 'tmp'));
    t.comment(`${stray.length} temporary file(s) left by the kill`);
    await start();
    const made = (await sql`select id from files`).filter((r) => !before.has(r.id));
    if (caught) t.ok(made.length < 60, `${made.length} of 60 written before the kill`);
    await assertRowsHaveBytes(t, 'after the kill');
  });

  t.test('after the janitors: no orphan bytes, and the left-open upload resumes', async (t) => {
    const later = new Date(Date.now() + ORPHAN_GRACE_MS + 60_000); // past the grace period, before any reservation lapses
    await expireUploads(janitorDeps(later));
    await purgeExpiredTrash(janitorDeps(later));
    await deleteOrphanBlobs(janitorDeps(later));
    await assertRowsHaveBytes(t, 'after the janitors');
    await assertNoOrphans(t, 'after the janitors');
    t.same(await readdir(join(blobRoot, 'uploads')), [leftOpen.uploadId], 'only the live upload keeps staging data');

    const s = await must('upload_status', { uploadId: leftOpen.uploadId });
    t.match(s, { state: 'open', receivedParts: [1], missingParts: [2] }, 'the left-open upload kept its acknowledged part');
    await assertManifestTruthful(t, leftOpen);
    t.equal(await put(leftOpen.uploadId, 2, leftOpen.parts[1]), 200);
    const done = await must('upload_complete', { uploadId: leftOpen.uploadId });
    await assertDownload(t, done.file.fileId, leftOpen.data, 'the left-open upload');

    for (const [fileId, want] of completed) {
      const got = await download(fileId);
      t.equal(sha(got.bytes), want, `${fileId} still downloads intact`);
    }
    await assertNoOrphans(t, 'at the end');
    t.same(await readdir(join(blobRoot, 'uploads')), [], 'no staging data at all');
  });
});
