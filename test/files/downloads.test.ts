// GET /v1/mcp/files/{fileId}/download over real HTTP: headers (type verbatim, length, RFC 6266 disposition, ETag),
// Range (206/416), conditional requests, access checks before the first byte, and resource use with slow and
// aborting clients (memory stays flat, file handles return to baseline).
import t from 'tap';
import { readdir, readlink } from 'node:fs/promises';
import type { ReadStream } from 'node:fs';
import type { ServerResponse } from 'node:http';
import { connect } from 'node:net';
import { request } from 'undici';
import { parse as parseDisposition } from 'content-disposition';
import { startTestApp } from '../helpers/app.ts';
import { callerFor } from '../helpers/callers.ts';
import { bytes, download, MiB, sha256, uploadFile } from './transfer-helpers.ts';

async function openFds(): Promise<number> {
  return (await readdir('/proc/self/fd')).length;
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

async function settle(check: () => Promise<boolean>, ms = 3000): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (await check()) return true;
    await new Promise((r) => setTimeout(r, 25));
  }
  return check();
}

t.test('downloads', async (t) => {
  const app = await startTestApp(t);
  const ana = await callerFor(app, { email: 'ana@example.com', org: 'acme' });
  const data = bytes(3 * 8 * MiB + 12345); // 4 parts
  const big = await uploadFile(app, ana, 'exports/relatório ünï “2026” €.csv', data, 'text/csv; charset=utf-8');

  t.test('the whole file: type verbatim, exact length, attachment with filename*, ETag', async (t) => {
    const res = await download(app, ana.token, big.fileId);
    t.equal(res.status, 200);
    t.equal(res.headers['content-type'], 'text/csv; charset=utf-8');
    t.equal(res.headers['content-length'], String(data.length));
    t.equal(res.body.length, data.length);
    t.equal(sha256(res.body), sha256(data));
    const cd = String(res.headers['content-disposition']);
    t.match(cd, /^attachment; filename="[\x20-\x7e]+"; filename\*=UTF-8''/);
    t.equal(parseDisposition(cd).parameters.filename, 'relatório ünï “2026” €.csv', 'filename* carries the exact (last segment of the) name');
    t.match(cd, /filename="relatorio uni _2026_ _.csv"/, 'an ASCII fallback');
    t.match(res.headers.etag, /^"[a-z0-9_]+"$/);
    t.equal(res.headers['accept-ranges'], 'bytes');
    t.equal(res.headers['x-content-type-options'], 'nosniff');
    t.ok(res.headers['last-modified']);
  });

  t.test('ASCII names and other media types are kept as they are', async (t) => {
    const f = await uploadFile(app, ana, 'plain name.bin', bytes(10), 'application/x-custom+octet; q="a b"');
    const res = await download(app, ana.token, f.fileId);
    t.equal(res.headers['content-type'], 'application/x-custom+octet; q="a b"');
    t.equal(res.headers['content-disposition'], 'attachment; filename="plain name.bin"');
  });

  t.test('Range: 206 with Content-Range, suffix and open ranges, 416, several ranges, If-Range', async (t) => {
    const size = data.length;
    const r1 = await download(app, ana.token, big.fileId, { range: 'bytes=100-199' });
    t.equal(r1.status, 206);
    t.equal(r1.headers['content-range'], `bytes 100-199/${size}`);
    t.equal(r1.headers['content-length'], '100');
    t.same(r1.body, data.subarray(100, 200));
    const across = await download(app, ana.token, big.fileId, { range: `bytes=${8 * MiB - 5}-${8 * MiB + 4}` });
    t.same(across.body, data.subarray(8 * MiB - 5, 8 * MiB + 5), 'a range across a part boundary');
    const suffix = await download(app, ana.token, big.fileId, { range: 'bytes=-10' });
    t.equal(suffix.headers['content-range'], `bytes ${size - 10}-${size - 1}/${size}`);
    t.same(suffix.body, data.subarray(size - 10));
    const open = await download(app, ana.token, big.fileId, { range: `bytes=${size - 3}-` });
    t.same(open.body, data.subarray(size - 3));
    const beyond = await download(app, ana.token, big.fileId, { range: `bytes=${size}-` });
    t.equal(beyond.status, 416);
    t.equal(beyond.headers['content-range'], `bytes */${size}`);
    const several = await download(app, ana.token, big.fileId, { range: 'bytes=0-1,100-101' });
    t.equal(several.status, 200, 'several ranges: the whole file');
    t.equal(several.body.length, size);
    const malformed = await download(app, ana.token, big.fileId, { range: 'lines=1-2' });
    t.equal(malformed.status, 200);
    const etag = String(r1.headers.etag);
    t.equal((await download(app, ana.token, big.fileId, { range: 'bytes=0-0', 'if-range': etag })).status, 206);
    t.equal((await download(app, ana.token, big.fileId, { range: 'bytes=0-0', 'if-range': '"stale"' })).status, 200, 'a stale If-Range gets the whole file');
    const notModified = await download(app, ana.token, big.fileId, { 'if-none-match': etag });
    t.equal(notModified.status, 304);
    t.equal(notModified.body.length, 0);
  });

  t.test('access is checked before the first byte', async (t) => {
    const reader = await callerFor(app, { email: 'reader@example.com', org: 'acme', scopes: ['files:read'], role: 'member' });
    t.equal((await download(app, reader.token, big.fileId, { range: 'bytes=0-0' })).status, 206, 'files:read suffices');
    const writerOnly = await callerFor(app, { email: 'writer@example.com', org: 'acme', scopes: ['files:write'], role: 'member' });
    const noScope = await download(app, writerOnly.token, big.fileId);
    t.equal(noScope.status, 403);
    t.equal(noScope.json.error.code, 'INSUFFICIENT_SCOPE');
    const anonymous = await request(`${app.url}/v1/mcp/files/${big.fileId}/download`);
    t.equal(anonymous.statusCode, 401);
    await anonymous.body.text();
    // a member removed from the organization: their still-valid token no longer downloads anything
    await app.deps.sql`delete from members where user_id = ${reader.userId} and org_id = ${reader.membership!.orgId}`;
    const removed = await download(app, reader.token, big.fileId);
    t.equal(removed.status, 403);
    t.equal(removed.json.error.code, 'ORGANIZATION_MEMBERSHIP_REQUIRED');
    t.equal(removed.headers['content-disposition'], undefined);
    await app.deps.sql`update org_mcp_access set state = 'revoked' where org_id = ${ana.membership!.orgId}`;
    const revoked = await download(app, ana.token, big.fileId);
    t.equal(revoked.status, 403);
    t.equal(revoked.json.error.code, 'MCP_ACCESS_REVOKED');
    await app.deps.sql`update org_mcp_access set state = 'testing' where org_id = ${ana.membership!.orgId}`;
    const unknown = await download(app, ana.token, 'fil_aaaaaaaaaaaaaaaaaaaaaaaaaa');
    t.equal(unknown.status, 404);
    t.same(Object.keys(unknown.json).sort(), ['code', 'message']);
    t.equal((await download(app, ana.token, 'not-an-id')).status, 400);
  });

  t.test('a missing blob is a storage_failure, not a silent empty body', async (t) => {
    const f = await uploadFile(app, ana, 'lost.bin', bytes(10));
    const [row] = await app.deps.sql`select blob_key from files where id = ${f.fileId}`;
    await app.deps.blobs.delete(row.blob_key);
    const res = await download(app, ana.token, f.fileId);
    t.equal(res.status, 500);
    t.same(res.json, { code: 'storage_failure', message: 'The storage backend failed.' });
  });

  t.test('a slow client does not grow server memory', async (t) => {
    // Watch the blob stream and the response the server uses: with backpressure it stops reading from storage
    // when the client stops reading, and nothing piles up in user space in between.
    const opened: ReadStream[] = [];
    const blobs = app.deps.blobs;
    const read = blobs.read;
    blobs.read = async (...args) => {
      const s = await read.apply(blobs, args);
      opened.push(s as ReadStream);
      return s;
    };
    const responses: ServerResponse[] = [];
    const onRequest = (_req: unknown, res: ServerResponse) => {
      responses.push(res);
    };
    app.server.on('request', onRequest);
    t.teardown(() => {
      blobs.read = read;
      app.server.off('request', onRequest);
    });

    // A raw socket, so that nothing on the client side reads ahead: it takes the first 64 KiB, then pauses.
    const socket = connect(Number(new URL(app.url).port), '127.0.0.1');
    socket.write(`GET /v1/mcp/files/${big.fileId}/download HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${ana.token}\r\nConnection: close\r\n\r\n`);
    let received = 0;
    await new Promise<void>((resolve) =>
      socket.on('data', function first(chunk: Buffer) {
        received += chunk.length;
        if (received >= 64 * 1024) {
          socket.pause();
          socket.off('data', first);
          resolve();
        }
      }),
    );
    await new Promise((r) => setTimeout(r, 300));
    const stream = opened[opened.length - 1];
    const res = responses[responses.length - 1];
    const readBefore = stream.bytesRead;
    const externalBefore = process.memoryUsage().arrayBuffers;
    await new Promise((r) => setTimeout(r, 500));
    const grown = process.memoryUsage().arrayBuffers - externalBefore;
    t.ok(
      stream.bytesRead < data.length / 2,
      `the server read ${(stream.bytesRead / MiB).toFixed(1)} of ${(data.length / MiB).toFixed(1)} MiB from storage while the client paused`,
    );
    t.equal(stream.bytesRead, readBefore, 'and no more while it stayed paused');
    const buffered = stream.readableLength + res.writableLength;
    t.ok(buffered <= 3 * MiB, `bytes held in server memory: ${(buffered / MiB).toFixed(2)} MiB`);
    t.ok(grown < 4 * MiB, `external memory grew ${(grown / MiB).toFixed(2)} MiB during the pause`);
    socket.on('data', (chunk: Buffer) => {
      received += chunk.length;
    });
    socket.resume();
    await new Promise((r) => socket.on('end', r));
    t.ok(received > data.length, 'and then it gets every byte (plus the headers)');
    t.ok(stream.destroyed || stream.closed, 'the blob stream is closed at the end');
  });

  t.test('aborted downloads release their file handles', async (t) => {
    t.equal(await openFilesUnder(app.config.dataDir), 0);
    const before = await openFds();
    const port = Number(new URL(app.url).port);
    for (let i = 0; i < 5; i++) {
      const socket = connect(port, '127.0.0.1');
      socket.write(`GET /v1/mcp/files/${big.fileId}/download HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${ana.token}\r\n\r\n`);
      await new Promise<void>((resolve) => {
        let got = 0;
        socket.on('data', (chunk: Buffer) => {
          got += chunk.length;
          if (got >= 256 * 1024) {
            socket.pause();
            resolve();
          }
        });
      });
      // mid-download: the server holds the blob open (and both ends of the socket)
      if (i === 0) t.equal(await openFilesUnder(app.config.dataDir), 1, 'a download in flight holds the blob open');
      socket.destroy(); // the client goes away
    }
    t.ok(await settle(async () => (await openFilesUnder(app.config.dataDir)) === 0), 'no blob stays open');
    const back = await settle(async () => (await openFds()) <= before);
    t.ok(back, `open fds back to baseline (${before})`);
  });
});
