// Byte limits measured on the wire, with raw sockets (node:net): chunked bodies without Content-Length, declared
// lengths, and the exact 8192-byte edge. undici cannot send some of these shapes, hence the hand-written HTTP.
import t from 'tap';
import { connect } from 'node:net';
import { startAskServer } from './server.ts';

const srv = await startAskServer();
t.teardown(() => srv.close());

interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** Writes `parts` (with an optional pause between them) and reads one HTTP/1.1 response until the server ends it or
 * its Content-Length is reached. */
function raw(parts: Array<string | Buffer>, pauseMs = 0): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const socket = connect(srv.port, '127.0.0.1');
    let data = Buffer.alloc(0);
    const tryParse = () => {
      const text = data.toString('latin1');
      const end = text.indexOf('\r\n\r\n');
      if (end < 0) return null;
      const [statusLine, ...lines] = text.slice(0, end).split('\r\n');
      const headers: Record<string, string> = {};
      for (const l of lines) headers[l.slice(0, l.indexOf(':')).toLowerCase()] = l.slice(l.indexOf(':') + 1).trim();
      const body = data.subarray(end + 4);
      const length = Number(headers['content-length']);
      if (!Number.isFinite(length) || body.length < length) return null;
      return { status: Number(statusLine.split(' ')[1]), headers, body: body.subarray(0, length).toString('utf8') };
    };
    socket.on('data', (chunk) => {
      data = Buffer.concat([data, chunk]);
      const res = tryParse();
      if (res) {
        socket.destroy();
        resolve(res);
      }
    });
    socket.on('error', reject);
    socket.on('end', () => {
      const res = tryParse();
      res ? resolve(res) : reject(new Error(`incomplete response: ${data.toString()}`));
    });
    socket.on('connect', async () => {
      for (const p of parts) {
        if (socket.destroyed) return;
        socket.write(p);
        if (pauseMs) await new Promise((r) => setTimeout(r, pauseMs));
      }
    });
  });
}

const head = (extra: string) => `POST /ask HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n${extra}\r\n`;
const chunk = (s: string) => `${Buffer.byteLength(s).toString(16)}\r\n${s}\r\n`;
const valid = JSON.stringify({ query: { text: 'lixeira' }, prefer: { streaming: false } });
const padded = (bytes: number) => valid.slice(0, -1) + ' '.repeat(bytes - Buffer.byteLength(valid)) + '}';

t.test('chunked body over 8192 bytes → 413 Failure', async (t) => {
  const body = padded(9000);
  const res = await raw([head('Transfer-Encoding: chunked\r\n'), chunk(body.slice(0, 5000)), chunk(body.slice(5000)), '0\r\n\r\n']);
  t.equal(res.status, 413);
  const json = JSON.parse(res.body);
  t.equal(json._meta.response_type, 'Failure');
  t.equal(json.error.code, 'PAYLOAD_TOO_LARGE');
});

t.test('chunked body over 8192 bytes in many slow chunks → 413', async (t) => {
  const body = padded(12000);
  const parts = [head('Transfer-Encoding: chunked\r\n')];
  for (let i = 0; i < body.length; i += 1000) parts.push(chunk(body.slice(i, i + 1000)));
  parts.push('0\r\n\r\n');
  const res = await raw(parts, 5);
  t.equal(res.status, 413);
});

t.test('chunked body of exactly 8192 bytes → 200', async (t) => {
  const body = padded(8192);
  const res = await raw([head('Transfer-Encoding: chunked\r\n'), chunk(body.slice(0, 4096)), chunk(body.slice(4096)), '0\r\n\r\n']);
  t.equal(res.status, 200);
  t.equal(JSON.parse(res.body)._meta.response_type, 'Answer');
});

t.test('Content-Length over 8192 with the body sent → 413', async (t) => {
  const body = padded(8193);
  const res = await raw([head(`Content-Length: ${Buffer.byteLength(body)}\r\n`), body]);
  t.equal(res.status, 413);
  t.equal(JSON.parse(res.body).error.code, 'PAYLOAD_TOO_LARGE');
});

t.test('a huge declared Content-Length → 413 at once, without waiting for the body', async (t) => {
  const res = await raw([head('Content-Length: 50000000\r\n')]);
  t.equal(res.status, 413);
  t.equal(res.headers.connection, 'close');
});

t.test('Content-Type is checked before the size: text/plain with a huge body → 415', async (t) => {
  const res = await raw([`POST /ask HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: text/plain\r\nContent-Length: 50000000\r\n\r\n`]);
  t.equal(res.status, 415);
});
