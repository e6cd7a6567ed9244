// Clients that stall, over real loopback sockets: headers sent slowly (or not at all), headers and then no body, a
// part upload that stops mid-body, and a download the client stops reading are all dropped in bounded time (408
// request_timeout when nothing was answered yet) without keeping part buffers or file handles; a slow but moving
// part upload and a slow but moving download still succeed. Short limits keep this to seconds.
import t from 'tap';
import { connect, type Socket } from 'node:net';
import { readdir, readlink } from 'node:fs/promises';
import { request } from 'undici';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { callerFor, caller as as } from '../helpers/callers.ts';
import { upload_begin } from '../../runtime-api/bindings/uploads/upload_begin.ts';
import { upload_status } from '../../runtime-api/bindings/uploads/upload_status.ts';
import { upload_complete } from '../../runtime-api/bindings/uploads/upload_complete.ts';
import { bytes, MiB, PART, partOf, putPart, sha256, uploadFile } from '../files/transfer-helpers.ts';

const HEADERS_MS = 1000;
const IDLE_MS = 1000;
/** A stalled exchange must be gone by then: the limit, the check period and a loaded machine's slack. */
const BOUND_MS = 3 * IDLE_MS + 2000;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Raw {
  socket: Socket;
  /** What the server sent, as UTF-8. */
  text(): string;
  /** Milliseconds from opening until the server closed the connection, or null if still open after `ms`. */
  closedWithin(ms: number): Promise<number | null>;
  /** Resolves once one whole response (headers and Content-Length body) has arrived, or after `ms`. */
  answeredWithin(ms: number): Promise<boolean>;
}

function raw(app: TestApp): Raw {
  const socket = connect(Number(new URL(app.url).port), '127.0.0.1');
  const opened = performance.now();
  const got: Buffer[] = [];
  let closedAt: number | null = null;
  const closed = new Promise<void>((resolve) =>
    socket.on('close', () => {
      closedAt = performance.now() - opened;
      resolve();
    }),
  );
  socket.on('data', (d: Buffer) => {
    got.push(d);
  });
  socket.on('end', () => socket.end());
  socket.on('error', () => {});
  return {
    socket,
    text: () => Buffer.concat(got).toString('utf8'),
    async closedWithin(ms) {
      await Promise.race([closed, sleep(ms)]);
      return closedAt;
    },
    async answeredWithin(ms) {
      const deadline = performance.now() + ms;
      const whole = () => {
        const all = Buffer.concat(got);
        const end = all.indexOf('\r\n\r\n');
        const length = /\r\ncontent-length: (\d+)/i.exec(all.subarray(0, Math.max(0, end)).toString('latin1'))?.[1];
        return end >= 0 && length !== undefined && all.length >= end + 4 + Number(length);
      };
      while (!whole() && performance.now() < deadline && closedAt === null) await sleep(20);
      return whole();
    },
  };
}

function partHead(app: TestApp, token: string, uploadId: string, partNumber: number, length: number): string {
  return (
    `PUT /v1/mcp/uploads/${uploadId}/parts/${partNumber} HTTP/1.1\r\nHost: ${new URL(app.url).host}\r\n` +
    `Authorization: Bearer ${token}\r\nContent-Type: application/octet-stream\r\nContent-Length: ${length}\r\n\r\n`
  );
}

/** The status and JSON body of the one response in `text`. */
function answer(text: string): { status: number; json: any } {
  const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1] ?? 0);
  const body = text.slice(text.indexOf('\r\n\r\n') + 4);
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    /* none */
  }
  return { status, json };
}

/** Descriptors of this process open on files under `dir` (the blob store's files). */
async function openFilesUnder(dir: string): Promise<number> {
  let n = 0;
  for (const fd of await readdir('/proc/self/fd')) {
    const target = await readlink(`/proc/self/fd/${fd}`).catch(() => '');
    if (target.startsWith(dir)) n++;
  }
  return n;
}

t.test('client time limits', async (t) => {
  // Two part buffers (DATABASE_POOL_MAX - 2): two stalled uploads would hold every one of them.
  const app = await startTestApp(t, { env: { HTTP_HEADERS_TIMEOUT_MS: String(HEADERS_MS), HTTP_IDLE_TIMEOUT_MS: String(IDLE_MS), DATABASE_POOL_MAX: '4' } });
  const ana = await callerFor(app, { email: 'ana@example.com', org: 'acme' });
  const call = as(app, ana);

  t.test('headers sent slowly, or never, are dropped with 408 after the headers limit', async (t) => {
    const slow = raw(app);
    const head = `GET /app/v1/context HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${ana.token}\r\nX-Padding: `;
    let i = 0;
    const drip = setInterval(() => {
      if (!slow.socket.destroyed) slow.socket.write(i < head.length ? head[i++] : 'a');
    }, 50);
    const silent = raw(app);
    const [slowMs, silentMs] = await Promise.all([slow.closedWithin(BOUND_MS), silent.closedWithin(BOUND_MS)]);
    clearInterval(drip);
    for (const [name, probe, ms] of [
      ['slow headers', slow, slowMs],
      ['no bytes at all', silent, silentMs],
    ] as const) {
      t.ok(ms !== null, `${name}: closed by the server (after ${ms?.toFixed(0)} ms)`);
      t.ok(ms === null || ms >= HEADERS_MS * 0.9, `${name}: not before the limit`);
      t.match(probe.text(), /^HTTP\/1\.1 408 /, `${name}: answered 408`);
    }
  });

  t.test('headers and then no body: dropped after the idle limit with 408 request_timeout, on part and JSON routes', async (t) => {
    const u = await call(upload_begin, { name: 'never.bin', size: PART });
    const part = raw(app);
    part.socket.write(partHead(app, ana.token, u.uploadId, 1, PART));
    const json = raw(app);
    json.socket.write(
      `POST /app/v1/execute HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${ana.token}\r\nContent-Type: application/json\r\nContent-Length: 100\r\nX-Service-Locale: pt-BR\r\n\r\n`,
    );
    const [partMs, jsonMs] = await Promise.all([part.closedWithin(BOUND_MS), json.closedWithin(BOUND_MS)]);
    t.ok(partMs !== null, `part upload closed (after ${partMs?.toFixed(0)} ms)`);
    t.ok(jsonMs !== null, `JSON request closed (after ${jsonMs?.toFixed(0)} ms)`);
    t.ok(partMs === null || partMs >= IDLE_MS * 0.9, 'not before the idle limit');
    const a = answer(part.text());
    t.equal(a.status, 408);
    t.equal(a.json?.error?.code, 'request_timeout');
    t.ok(a.json?.error?.resolution, 'with a resolution');
    const b = answer(json.text());
    t.equal(b.status, 408);
    t.equal(b.json?.error?.code, 'request_timeout');
    t.match(b.json?.error?.message, /não foi recebida a tempo/, "in the request's locale");
  });

  t.test('a part upload that stalls mid-body is dropped, keeps no buffer, and the part can be sent again', async (t) => {
    const data = bytes(PART + 4321);
    const u = await call(upload_begin, { name: 'stalled.bin', size: data.length });
    // Both part buffers taken by stalled sends of part 1 (one per buffer).
    const stalled = [raw(app), raw(app)];
    for (const s of stalled) {
      s.socket.write(partHead(app, ana.token, u.uploadId, 1, PART));
      s.socket.write(partOf(data, 1).subarray(0, MiB));
    }
    const closed = await Promise.all(stalled.map((s) => s.closedWithin(BOUND_MS)));
    for (const [i, ms] of closed.entries()) {
      t.ok(ms !== null, `stalled upload ${i + 1} closed (after ${ms?.toFixed(0)} ms)`);
      t.equal(answer(stalled[i].text()).status, 408);
    }
    const status = await call(upload_status, { uploadId: u.uploadId });
    t.same(status.receivedParts, [], 'nothing of the stalled part was recorded');
    t.equal(status.state, 'open', 'the reservation is still open');
    // The buffers are free again: the retry (and the other part) go through, and the file is whole.
    const retried = await Promise.race([
      Promise.all([putPart(app, ana.token, u.uploadId, 1, partOf(data, 1)), putPart(app, ana.token, u.uploadId, 2, partOf(data, 2))]),
      sleep(30_000).then(() => null), // generous for a loaded machine: held buffers would keep them waiting for ever
    ]);
    t.ok(retried, 'the retries were served (not left waiting for a part buffer)');
    t.same(
      retried?.map((r) => r.status),
      [200, 200],
    );
    const done = await call(upload_complete, { uploadId: u.uploadId });
    t.equal(done.file.size, data.length);
    const got = await request(`${app.url}/v1/mcp/files/${done.file.fileId}/download`, { headers: { authorization: `Bearer ${ana.token}` } });
    const body = Buffer.from(await got.body.arrayBuffer());
    t.equal(got.statusCode, 200, got.statusCode === 200 ? 'downloaded' : body.subarray(0, 300).toString());
    t.equal(sha256(body), sha256(data), 'the file has the bytes sent');
  });

  t.test('a slow but moving 8 MiB part succeeds, however long it takes in total', async (t) => {
    const data = bytes(PART);
    const u = await call(upload_begin, { name: 'slow.bin', size: data.length });
    const s = raw(app);
    s.socket.write(partHead(app, ana.token, u.uploadId, 1, PART));
    const started = performance.now();
    const chunk = PART / 8;
    for (let off = 0; off < PART; off += chunk) {
      await sleep(IDLE_MS / 2.5); // each pause well inside the idle limit; the whole well past it
      s.socket.write(data.subarray(off, off + chunk));
    }
    t.ok(await s.answeredWithin(BOUND_MS), 'answered');
    const elapsed = performance.now() - started;
    t.ok(elapsed > 3 * IDLE_MS, `the upload took ${elapsed.toFixed(0)} ms, over 3x the idle limit`);
    const a = answer(s.text());
    t.equal(a.status, 200, s.text().slice(0, 300));
    t.equal(a.json?.size, PART);
    s.socket.destroy();
    t.same((await call(upload_status, { uploadId: u.uploadId })).receivedParts, [1]);
  });

  t.test('downloads: a slow reader gets the whole file; a reader that stops is dropped and its file handle closed', async (t) => {
    const data = bytes(3 * PART);
    const file = await uploadFile(app, ana, 'big.bin', data);
    const blobDir = app.config.dataDir;

    const res = await request(`${app.url}/v1/mcp/files/${file.fileId}/download`, { headers: { authorization: `Bearer ${ana.token}` } });
    t.equal(res.statusCode, 200);
    const started = performance.now();
    const chunks: Buffer[] = [];
    let sinceNap = 0;
    for await (const c of res.body) {
      chunks.push(c as Buffer);
      sinceNap += (c as Buffer).length;
      if (sinceNap >= MiB) {
        sinceNap = 0;
        await sleep(IDLE_MS / 5);
      }
    }
    const elapsed = performance.now() - started;
    t.equal(sha256(Buffer.concat(chunks)), sha256(data), `the whole file, read in ${elapsed.toFixed(0)} ms`);
    t.ok(elapsed > 2 * IDLE_MS, 'over twice the idle limit');

    const s = raw(app);
    s.socket.write(`GET /v1/mcp/files/${file.fileId}/download HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${ana.token}\r\n\r\n`);
    await new Promise((resolve) => s.socket.once('data', resolve));
    s.socket.pause(); // reads nothing more: the server's writes back up
    await sleep(200);
    t.equal(await openFilesUnder(blobDir), 1, 'the download holds its file open while it is served');
    const deadline = performance.now() + BOUND_MS;
    while (performance.now() < deadline && (await openFilesUnder(blobDir)) > 0) await sleep(50);
    t.equal(await openFilesUnder(blobDir), 0, 'the stalled download was dropped and its file handle closed');
    s.socket.resume();
    t.ok((await s.closedWithin(BOUND_MS)) !== null, 'its connection is closed');
    t.ok(s.text().length < 3 * PART, 'with a truncated body');
  });
});
