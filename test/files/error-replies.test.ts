// Error replies to large uploads are read by the client: a client that writes a whole 8 MiB part must get the
// status (401, 415, 400, 404), never EPIPE or a reset, because the server reads the body (up to a bound) first.
import t from 'tap';
import { request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import { Readable } from 'node:stream';
import { request } from 'undici';
import { startTestApp } from '../helpers/app.ts';
import { callerFor, caller as as } from '../helpers/callers.ts';
import { upload_begin } from '../../runtime-api/bindings/uploads/upload_begin.ts';
import { PART } from './transfer-helpers.ts';

/** Node's own client: writes the body in 64 KiB chunks as the socket takes them (pausing now and then, as a client
 * reading from disk or the network does), then reads the answer. */
function putRaw(url: string, headers: Record<string, string>, size: number): Promise<{ status: number; body: any }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method: 'PUT', headers: { ...headers, 'content-length': String(size) } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c) => {
        text += c;
      });
      res.on('end', () => resolve({ status: res.statusCode!, body: text ? JSON.parse(text) : null }));
    });
    req.on('error', reject);
    const chunk = Buffer.alloc(64 * 1024, 7);
    let sent = 0;
    const pump = () => {
      while (sent < size) {
        const n = Math.min(chunk.length, size - sent);
        sent += n;
        if (!req.write(n === chunk.length ? chunk : chunk.subarray(0, n))) return void req.once('drain', pump);
        if (sent % (1024 * 1024) === 0) return void setTimeout(pump, 5);
      }
      req.end();
    };
    pump();
  });
}

t.test('error replies to 8 MiB part uploads reach a client that writes the whole body', async (t) => {
  const app = await startTestApp(t);
  const ana = await callerFor(app, { email: 'drain@example.com', org: 'drain' });
  const u = await as(app, ana)(upload_begin, { name: 'big.bin', size: PART + 10 });
  const url = `${app.url}/v1/mcp/uploads/${u.uploadId}/parts/1`;
  const octet = { 'content-type': 'application/octet-stream' };
  for (let round = 0; round < 3; round++) {
    const cases: [string, Record<string, string>, number, string, string][] = [
      ['no token', octet, 401, 'unauthorized', url],
      ['bad token', { ...octet, authorization: 'Bearer nope' }, 401, 'unauthorized', url],
      ['wrong content type', { 'content-type': 'text/plain', authorization: `Bearer ${ana.token}` }, 415, 'unsupported_media_type', url],
      ['part past the reservation', { ...octet, authorization: `Bearer ${ana.token}` }, 400, 'part_mismatch', url.replace(/parts\/1$/, 'parts/3')],
      ['unknown upload', { ...octet, authorization: `Bearer ${ana.token}` }, 404, 'not_found', url.replace(u.uploadId, 'upl_aaaaaaaaaaaaaaaaaaaaaaaaaa')],
    ];
    for (const [what, headers, status, code, target] of cases) {
      const res = await putRaw(target, headers, PART);
      t.equal(res.status, status, `${what} (round ${round})`);
      t.equal(res.body?.error?.code ?? res.body?.code, code, what);
      const viaUndici = await request(target, { method: 'PUT', headers, body: Buffer.alloc(PART, 1) }).then(
        async (r) => ({ status: r.statusCode, body: (await r.body.json()) as any }),
        (err: Error) => ({ status: -1, body: { error: { code: err.message } } }),
      );
      t.equal(viaUndici.status, status, `${what} via undici (round ${round})`);
      t.equal(viaUndici.body?.error?.code ?? viaUndici.body?.code, code, `${what} via undici`);
      // fetch streams a body it cannot know the length of: chunked.
      async function* chunks() {
        for (let i = 0; i < 128; i++) yield Buffer.alloc(64 * 1024, i);
      }
      const chunked = await request(target, { method: 'PUT', headers, body: Readable.from(chunks()) }).then(
        async (r) => ({ status: r.statusCode, body: (await r.body.json()) as any }),
        (err: Error) => ({ status: -1, body: { error: { code: err.message } } }),
      );
      t.equal(chunked.status, status, `${what} chunked (round ${round})`);
    }
  }
  // undici (fetch's engine) too, with a Buffer body.
  const res = await request(url, { method: 'PUT', headers: octet, body: Buffer.alloc(PART, 1) });
  t.equal(res.statusCode, 401);
  t.equal(((await res.body.json()) as any).error.code, 'unauthorized');
});

/** Sends the head with `Expect: 100-continue` on a raw socket and returns the first status line the server answers. */
function firstAnswer(
  url: string,
  path: string,
  headers: string[],
): Promise<{ line: string; socketText: () => string; write: (b: Buffer) => void; close: () => void }> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    let text = '';
    const socket = connect(Number(port), hostname, () => {
      socket.write([`PUT ${path} HTTP/1.1`, `Host: ${hostname}:${port}`, `Content-Length: ${PART}`, 'Expect: 100-continue', ...headers, '', ''].join('\r\n'));
    });
    socket.setEncoding('latin1');
    socket.on('data', (c: string) => {
      const first = !text;
      text += c;
      if (first) resolve({ line: text.split('\r\n', 1)[0], socketText: () => text, write: (b) => socket.write(b), close: () => socket.destroy() });
    });
    socket.on('error', reject);
  });
}

t.test('Expect: 100-continue is honoured: a refused part is answered before the body is sent', async (t) => {
  const app = await startTestApp(t);
  const ana = await callerFor(app, { email: 'expect@example.com', org: 'expect' });
  const u = await as(app, ana)(upload_begin, { name: 'big.bin', size: PART + 10 });
  const path = `/v1/mcp/uploads/${u.uploadId}/parts/1`;
  for (const [what, headers, status] of [
    ['no token', ['Content-Type: application/octet-stream'], 401],
    ['wrong content type', ['Content-Type: text/plain', `Authorization: Bearer ${ana.token}`], 415],
  ] as const) {
    const answer = await firstAnswer(app.url, path, [...headers]);
    t.match(answer.line, new RegExp(`^HTTP/1\\.1 ${status} `), `${what}: the final status comes first, no 100 Continue`);
    answer.close();
  }
  // An accepted part gets its 100 Continue, then the body, then 200.
  const ok = await firstAnswer(app.url, path, ['Content-Type: application/octet-stream', `Authorization: Bearer ${ana.token}`]);
  t.equal(ok.line, 'HTTP/1.1 100 Continue');
  ok.write(Buffer.alloc(PART, 3));
  await new Promise((r) => setTimeout(r, 20));
  for (let i = 0; i < 200 && !/HTTP\/1\.1 200/.test(ok.socketText()); i++) await new Promise((r) => setTimeout(r, 25));
  t.match(ok.socketText(), /HTTP\/1\.1 200 OK/);
  ok.close();
});
