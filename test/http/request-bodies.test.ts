// Request bodies on every class of route that reads one (auth JSON and form, /app/v1, organization, MCP, /ask, the
// OAuth token form and registration, the console form): the media type (415), the byte limit declared or chunked (413), bodies that are empty, not JSON,
// not UTF-8, compressed or carrying __proto__ (400/415), each in the route's own error shape and localized.
import t from 'tap';
import { Readable } from 'node:stream';
import { connect } from 'node:net';
import { request } from 'undici';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { signInCookie } from '../helpers/oauth.ts';
import { csrfOf } from '../console/helpers.ts';

const JSON_LIMIT = 2048;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function until(done: () => boolean, ms = 10_000): Promise<void> {
  for (const end = Date.now() + ms; !done() && Date.now() < end; ) await sleep(10);
}

interface Reply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: any;
}

/** One request with exact bytes; `chunked` streams them without a Content-Length. */
async function send(url: string, body: Buffer | string, headers: Record<string, string>, chunked = false): Promise<Reply> {
  const bytes = Buffer.from(body);
  const res = await request(url, {
    method: 'POST',
    headers,
    body: chunked
      ? Readable.from(
          (function* () {
            for (let i = 0; i < bytes.length; i += 1000) yield bytes.subarray(i, i + 1000);
          })(),
        )
      : bytes,
  });
  const text = await res.body.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    /* not JSON */
  }
  return { status: res.statusCode, headers: res.headers, body: parsed };
}

/** A JSON object of exactly `n` bytes. */
const jsonOf = (n: number) => {
  const base = '{"pad":""}';
  return `{"pad":"${'x'.repeat(n - base.length)}"}`;
};
const BAD_UTF8 = Buffer.concat([Buffer.from('{"email":"'), Buffer.from([0xc3, 0x28]), Buffer.from('@example.com"}')]);

t.test('request bodies', async (t) => {
  const app: TestApp = await startTestApp(t, { env: { JSON_BODY_MAX_BYTES: String(JSON_LIMIT), RATE_LIMIT_MAX: '100000' } });
  const token = await app.token({ email: 'bodies@example.com', org: 'bodies' });
  const json = { 'content-type': 'application/json', origin: app.url };
  const serviceCode = (r: Reply) => r.body?.error?.code;

  /** The JSON routes answering in the service's resolution shape, with their limits. */
  const jsonRoutes = [
    { name: 'auth: sign-in link', url: `${app.url}/auth/sign-in/magic-link`, headers: json, limit: 8192 },
    {
      name: '/app/v1/execute (JSON_BODY_MAX_BYTES)',
      url: `${app.url}/app/v1/execute`,
      headers: { ...json, authorization: `Bearer ${token}` },
      limit: JSON_LIMIT,
    },
  ];
  for (const route of jsonRoutes) {
    t.test(route.name, async (t) => {
      const wrongType = await send(route.url, '{}', { ...route.headers, 'content-type': 'text/plain' });
      t.same([wrongType.status, serviceCode(wrongType)], [415, 'unsupported_media_type'], '415 for text/plain');
      t.ok(wrongType.body.error.resolution, 'with a resolution');
      for (const chunked of [false, true]) {
        const big = await send(route.url, jsonOf(route.limit + 1), route.headers, chunked);
        t.same([big.status, serviceCode(big)], [413, 'payload_too_large'], `one byte over the limit → 413 (${chunked ? 'chunked' : 'Content-Length'})`);
        t.match(big.body.error.resolution, String(route.limit));
        const atLimit = await send(route.url, jsonOf(route.limit), route.headers, chunked);
        t.not(atLimit.status, 413, `exactly the limit is read (${chunked ? 'chunked' : 'Content-Length'})`);
      }
      const pt = await send(route.url, jsonOf(route.limit + 10), { ...route.headers, 'x-service-locale': 'pt-BR' });
      t.equal(pt.body.error.resolution, `Envie no máximo ${route.limit} bytes.`, 'localized');
      for (const [what, body, why] of [
        ['not JSON', '{"email": ', /not valid JSON/],
        ['empty', '', /empty/],
        ['only spaces', '   \n', /empty/],
        ['not UTF-8', BAD_UTF8, /UTF-8/],
        ['a __proto__ key', '{"__proto__": {"admin": true}}', /not valid JSON/],
      ] as const) {
        const res = await send(route.url, body, route.headers);
        t.same([res.status, serviceCode(res)], [400, 'invalid_request'], what);
        t.match(res.body.error.resolution, why, `${what}: says why`);
      }
      const scalar = await send(route.url, '"just a string"', route.headers);
      t.same([scalar.status, serviceCode(scalar)], [400, 'invalid_input'], 'JSON that is not an object: the schema refuses it');
      const latin1 = await send(route.url, '{"email":"caf\u00e9@example.com"}', { ...route.headers, 'content-type': 'application/json; charset=iso-8859-1' });
      t.same([latin1.status, serviceCode(latin1)], [415, 'unsupported_media_type'], 'a charset other than UTF-8 is refused, not misread');
      t.match(latin1.body.error.resolution, /UTF-8/);
      const utf8 = await send(route.url, jsonOf(100), { ...route.headers, 'content-type': 'application/json; charset="UTF-8"' });
      t.not(utf8.status, 415, 'charset=UTF-8 is welcome');
      const gzip = await send(route.url, Buffer.from([0x1f, 0x8b, 0x08, 0]), { ...route.headers, 'content-encoding': 'gzip' });
      t.same([gzip.status, serviceCode(gzip)], [415, 'unsupported_media_type'], 'compressed bodies are refused');
    });
  }

  t.test('a body a little over the limit, sent slowly, is drained: the 413 is read and the connection serves the next request', async (t) => {
    const { port } = new URL(app.url);
    const socket = connect(Number(port), '127.0.0.1');
    let reply = '';
    socket.on('data', (d: Buffer) => {
      reply += d.toString('latin1');
    });
    let failed: Error | null = null;
    socket.on('error', (err) => {
      failed = err;
    });
    await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
    const head = `POST /app/v1/execute HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${token}\r\nContent-Type: application/json\r\n`;
    socket.write(`${head}Transfer-Encoding: chunked\r\n\r\n`);
    const piece = Buffer.alloc(32 * 1024, 0x20);
    for (let sent = 0; sent < JSON_LIMIT + 300 * 1024 && !socket.destroyed; sent += piece.length) {
      socket.write(Buffer.concat([Buffer.from(`${piece.length.toString(16)}\r\n`), piece, Buffer.from('\r\n')]));
      await sleep(5);
    }
    socket.write('0\r\n\r\n');
    await until(() => /\r\n\r\n[\s\S]*\}$/.test(reply) || failed !== null);
    t.equal(failed, null, 'no reset while sending');
    t.match(reply, /^HTTP\/1\.1 413 /);
    reply = '';
    const next = '{"script": "return 3"}';
    socket.write(`${head}Content-Length: ${next.length}\r\n\r\n${next}`);
    await until(() => /\r\n\r\n[\s\S]*\}$/.test(reply) || failed !== null || socket.destroyed);
    t.match(reply, /^HTTP\/1\.1 200 /, 'the same connection serves the next request');
    socket.destroy();
  });

  t.test('a body far over the limit is answered 413 and the connection is closed after a bounded drain', async (t) => {
    // A raw socket that keeps sending chunks (64 MiB at most) until the server stops it, so nothing on the client side
    // decides when to stop: only the server's bound does.
    const { port } = new URL(app.url);
    const socket = connect(Number(port), '127.0.0.1');
    let reply = '';
    socket.on('data', (d: Buffer) => {
      reply += d.toString('latin1');
    });
    const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
    socket.on('error', () => {
      /* the reset that ends the upload */
    });
    await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
    socket.write(
      `POST /app/v1/execute HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${token}\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n`,
    );
    const piece = Buffer.alloc(64 * 1024, 0x20);
    const frame = Buffer.concat([Buffer.from(`${piece.length.toString(16)}\r\n`), piece, Buffer.from('\r\n')]);
    let sent = 0;
    while (sent < 64 * 1024 * 1024 && !socket.destroyed && !socket.writableEnded) {
      sent += piece.length;
      if (!socket.write(frame)) await Promise.race([new Promise((r) => socket.once('drain', r)), closed]);
    }
    socket.destroy();
    await closed;
    t.match(reply, /^HTTP\/1\.1 413 /, 'the client read the 413');
    t.ok(sent < 32 * 1024 * 1024, `the server stopped reading (${(sent / 1024 / 1024).toFixed(1)} MiB sent of 64)`);
    const next = await send(`${app.url}/app/v1/execute`, '{"script": "return 1"}', { ...json, authorization: `Bearer ${token}` });
    t.equal(next.status, 200, 'the server goes on serving');
  });

  t.test('MCP: 413/415 in the resolution shape, unusable bodies as JSON-RPC parse errors', async (t) => {
    const url = `${app.url}/v1/mcp`;
    const headers = { 'content-type': 'application/json', authorization: `Bearer ${token}`, accept: 'application/json, text/event-stream' };
    const wrongType = await send(url, '{}', { ...headers, 'content-type': 'text/plain' });
    t.same([wrongType.status, serviceCode(wrongType)], [415, 'unsupported_media_type']);
    for (const chunked of [false, true]) {
      const big = await send(url, jsonOf(JSON_LIMIT + 1), headers, chunked);
      t.same([big.status, serviceCode(big)], [413, 'payload_too_large'], `over JSON_BODY_MAX_BYTES (${chunked ? 'chunked' : 'Content-Length'})`);
    }
    for (const [what, body] of [
      ['empty', ''],
      ['not UTF-8', BAD_UTF8],
      ['not JSON', '{"jsonrpc":'],
    ] as const) {
      const res = await send(url, body, headers);
      t.equal(res.status, 400, what);
      t.match(res.body, { jsonrpc: '2.0', id: null, error: { code: -32700 } }, `${what}: -32700`);
    }
    const scalar = await send(url, '42', headers);
    t.match(scalar.body, { error: { code: -32600 } }, 'valid JSON that is not a request: -32600, not a parse error');
    const ok = await send(url, JSON.stringify({ jsonrpc: '2.0', id: 5, method: 'tools/list' }), headers);
    t.equal(ok.status, 200);
    t.equal(ok.body.id, 5);
  });

  t.test('/ask: NLWeb Failure bodies for 413, 415 and 400', async (t) => {
    const url = `${app.url}/ask`;
    const headers = { 'content-type': 'application/json' };
    const askCode = (r: Reply) => [r.status, r.body?._meta?.response_type, r.body?.error?.code];
    t.same(askCode(await send(url, '{}', { 'content-type': 'text/plain' })), [415, 'Failure', 'UNSUPPORTED_MEDIA_TYPE']);
    t.same(
      askCode(await send(url, '{}', { 'content-type': 'application/json; charset=latin1' })),
      [415, 'Failure', 'UNSUPPORTED_MEDIA_TYPE'],
      'a charset other than UTF-8',
    );
    t.same(
      askCode(await send(url, jsonOf(9000), { 'content-type': 'application/json; charset=latin1' })),
      [415, 'Failure', 'UNSUPPORTED_MEDIA_TYPE'],
      '415 before 413',
    );
    t.same(askCode(await send(url, '{}', { ...headers, 'content-encoding': 'gzip' })), [415, 'Failure', 'UNSUPPORTED_MEDIA_TYPE']);
    for (const chunked of [false, true]) t.same(askCode(await send(url, jsonOf(8193), headers, chunked)), [413, 'Failure', 'PAYLOAD_TOO_LARGE']);
    for (const body of ['', 'nope', BAD_UTF8])
      t.same(askCode(await send(url, body, headers)), [400, 'Failure', 'INVALID_REQUEST'], JSON.stringify(String(body)));
  });

  t.test('OAuth token form: every malformed body is 400 invalid_request in the OAuth shape (RFC 6749 5.2)', async (t) => {
    const url = `${app.url}/oauth/token`;
    const form = { 'content-type': 'application/x-www-form-urlencoded' };
    const oauth = (r: Reply) => [r.status, r.body?.error];
    const wrongType = await send(url, 'grant_type=refresh_token', { 'content-type': 'application/json' });
    t.same(oauth(wrongType), [400, 'invalid_request']);
    t.match(wrongType.body.error_description, /x-www-form-urlencoded/);
    for (const chunked of [false, true]) {
      const big = await send(url, `grant_type=${'x'.repeat(17 * 1024)}`, form, chunked);
      t.same(oauth(big), [400, 'invalid_request'], `over 16 KiB (${chunked ? 'chunked' : 'Content-Length'})`);
      t.match(big.body.error_description, /16384/);
    }
    const utf8 = await send(url, Buffer.concat([Buffer.from('grant_type='), Buffer.from([0xff])]), form);
    t.same(oauth(utf8), [400, 'invalid_request']);
    t.match(utf8.body.error_description, /UTF-8/);
    t.same(oauth(await send(url, 'grant_type=a&grant_type=b', form)), [400, 'invalid_request'], 'a repeated parameter');
    const nested = await send(url, 'grant_type[x]=refresh_token&client_id=c', form);
    t.same(oauth(nested), [400, 'invalid_request'], 'names stay flat: grant_type[x] is not grant_type (qs would nest it)');
    t.match(nested.body.error_description, /grant_type is required/);
    t.same(oauth(await send(url, 'grant_type=password&client_id=c', form)), [400, 'unsupported_grant_type'], 'a well-formed form is read');
  });

  t.test('organization routes (session cookie): 415, 413 over JSON_BODY_MAX_BYTES, 400', async (t) => {
    const cookie = await signInCookie(app, 'bodies-org@example.com');
    const url = `${app.url}/auth/organization/create`;
    const headers = { ...json, cookie };
    const plain = await send(url, 'name=x', { ...headers, 'content-type': 'text/plain' });
    t.same([plain.status, serviceCode(plain)], [415, 'unsupported_media_type']);
    const big = await send(url, jsonOf(JSON_LIMIT + 1), headers, true);
    t.same([big.status, serviceCode(big)], [413, 'payload_too_large']);
    const bad = await send(url, '{"name": "x",', headers);
    t.same([bad.status, serviceCode(bad)], [400, 'invalid_request']);
    const ok = await send(url, JSON.stringify({ name: 'Bodies', slug: 'bodies-created' }), headers);
    t.equal(ok.status, 201, 'a good body is read');
  });

  t.test('sign-in verify form (4 KiB) and OAuth registration (JSON, 16 KiB) read through the same path', async (t) => {
    const verify = `${app.url}/auth/magic-link/verify`;
    const form = { 'content-type': 'application/x-www-form-urlencoded', origin: app.url };
    const big = await send(verify, `token=${'x'.repeat(5000)}`, form, true);
    t.same([big.status, serviceCode(big)], [413, 'payload_too_large']);
    const unknown = await send(verify, `token=${'x'.repeat(43)}`, form);
    t.equal(unknown.status, 401, 'a form under the limit reaches the token check');
    const register = `${app.url}/oauth/register`;
    const tooBig = await send(register, jsonOf(17 * 1024), { 'content-type': 'application/json' });
    t.same([tooBig.status, tooBig.body.error], [400, 'invalid_client_metadata'], 'RFC 7591 shape');
    t.match(tooBig.body.error_description, /16384/);
    const notJson = await send(register, '{"redirect_uris": [', { 'content-type': 'application/json' });
    t.same([notJson.status, notJson.body.error], [400, 'invalid_client_metadata']);
    t.match(notJson.body.error_description, /not valid JSON/);
  });

  t.test('console form: 415 for JSON, 413 over 16 KiB, a form read whole', async (t) => {
    const cookie = await signInCookie(app, 'bodies-console@example.com');
    const page = await request(`${app.url}/console`, { headers: { cookie } });
    const csrf = csrfOf(await page.body.text());
    const url = `${app.url}/console/actions/organization-create`;
    const headers = { cookie, origin: app.url, 'content-type': 'application/x-www-form-urlencoded' };
    const big = await send(url, `csrf=${csrf}&name=${'x'.repeat(17 * 1024)}`, headers, true);
    t.same([big.status, serviceCode(big)], [413, 'payload_too_large']);
    const ok = await send(url, `csrf=${csrf}&name=Bodies+Org&slug=bodies-org`, headers);
    t.equal(ok.status, 303, 'a form under the limit is accepted');
  });
});
