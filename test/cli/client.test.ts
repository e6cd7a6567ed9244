// The CLI's HTTP client and output pieces in-process: Retry-After is honoured on 429, every error shape of the
// spec becomes code + message + resolution, and the progress bar on a terminal shows throughput and ETA.
import t from 'tap';
import { createServer } from 'node:http';
import { Api } from '../../cli/http.ts';
import { CliError, errorFromBody, describeError } from '../../cli/errors.ts';
import { progress } from '../../cli/progress.ts';
import { setLang } from '../../cli/i18n.ts';

t.test('429 answers are waited out as Retry-After says, then the request is sent again', async (t) => {
  const seen: number[] = [];
  const server = createServer((req, res) => {
    seen.push(Date.now());
    if (seen.length === 1) {
      res.writeHead(429, { 'retry-after': '1', 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { code: 'rate_limited', message: 'Too many requests.', resolution: 'Wait.' } }));
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ ok: true, auth: req.headers.authorization ?? null }));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  t.teardown(() => server.close());
  const api = new Api(`http://127.0.0.1:${(server.address() as { port: number }).port}`, { get: async () => 'tok', renew: async () => null });
  const notices: string[] = [];
  api.onNotice = (n) => notices.push(n);
  const res = await api.json('/x', { json: { a: 1 } });
  t.same(res.body, { ok: true, auth: 'Bearer tok' });
  t.equal(seen.length, 2);
  t.ok(seen[1] - seen[0] >= 950, `waited ${seen[1] - seen[0]} ms before retrying`);
  t.match(notices, [/Rate limited; retrying in 1 s/]);
});

t.test("a 401 asks the token source for a new token once, then gives up with the server's error", async (t) => {
  let calls = 0;
  const server = createServer((req, res) => {
    calls++;
    const ok = req.headers.authorization === 'Bearer fresh';
    res.writeHead(ok ? 200 : 401, { 'content-type': 'application/json' });
    res.end(JSON.stringify(ok ? { ok } : { error: { code: 'unauthorized', message: 'The access token is not valid.', resolution: 'Sign in again.' } }));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  t.teardown(() => server.close());
  const url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  const renewing = new Api(url, { get: async () => 'stale', renew: async () => 'fresh' });
  t.same((await renewing.json('/')).body, { ok: true });
  t.equal(calls, 2);
  const stuck = new Api(url, { get: async () => 'stale', renew: async () => null });
  await t.rejects(stuck.json('/'), { code: 'unauthorized', resolution: 'Sign in again.', status: 401 });
});

t.test('every error shape becomes code, message and resolution', async (t) => {
  setLang('en-US');
  const resolution = errorFromBody(403, { error: { code: 'INSUFFICIENT_SCOPE', message: 'Missing scope.', resolution: 'Ask for files:write.' } });
  t.match(resolution, { code: 'INSUFFICIENT_SCOPE', message: 'Missing scope.', resolution: 'Ask for files:write.', status: 403 });
  const typed = errorFromBody(409, { code: 'quota_exceeded', message: 'Storage quota exceeded.' });
  t.match(typed, { code: 'quota_exceeded', resolution: /empty the trash/ }, "typed bodies get the CLI's resolution for their code");
  const oauth = errorFromBody(400, { error: 'invalid_grant', error_description: 'the grant was revoked' });
  t.match(oauth, { code: 'invalid_grant', message: 'the grant was revoked' });
  const junk = errorFromBody(502, '<html>bad gateway</html>');
  t.match(junk, { code: 'http_error', message: /HTTP 502/, resolution: /--server/ });
  t.equal(describeError(new CliError('conflict', 'Conflict.', { resolution: 'Plan again.' })), 'error: conflict: Conflict.\n  resolution: Plan again.');
  setLang('pt-BR');
  t.equal(describeError(new CliError('conflict', 'Conflito.', { resolution: 'Planeje de novo.' })), 'erro: conflict: Conflito.\n  solução: Planeje de novo.');
  t.match(errorFromBody(404, { code: 'not_found', message: 'x' }).resolution, /Confira o id/);
  setLang('en-US');
});

t.test('progress: a redrawn bar with throughput and ETA on a terminal, plain lines otherwise', async (t) => {
  let tty = '';
  const bar = progress(100 * 1024 * 1024, 0, {
    tty: true,
    write: (s) => {
      tty += s;
    },
    label: 'big.bin',
  });
  await new Promise((r) => setTimeout(r, 120));
  bar.add(25 * 1024 * 1024);
  bar.line('part 1/4 stored');
  bar.done();
  t.match(tty, /\r\x1b\[2Kbig\.bin \[#{6}-{18}\]  25%  25\.0 MiB\/100 MiB  \d+(\.\d)? (MiB|GiB)\/s  ETA \d+:\d\d/);
  t.notMatch(tty, /part 1\/4 stored/, 'milestone lines are for logs, not terminals');
  t.ok(tty.endsWith('\n'));
  let plain = '';
  const log = progress(100, 0, {
    tty: false,
    write: (s) => {
      plain += s;
    },
    label: 'x',
  });
  log.add(50);
  log.line('part 1/2 stored');
  log.done();
  t.equal(plain, 'part 1/2 stored\n', 'no escape codes in logs');
  let many = '';
  const files = progress(300, 0, {
    tty: true,
    write: (s) => {
      many += s;
    },
    label: 'files',
    files: 3,
  });
  for (const n of [100, 100, 100]) files.fileDone(n, 'copied x');
  files.done();
  t.match(many, /\r\x1b\[2K3\/3 files \[#{24}\] 100% {2}300 B\/300 B/, 'a many-file bar counts files done');
  t.notMatch(many, /copied x/);
  let manyPlain = '';
  const filesLog = progress(200, 0, {
    tty: false,
    write: (s) => {
      manyPlain += s;
    },
    label: 'files',
    files: 2,
  });
  filesLog.fileDone(100, 'copied a');
  filesLog.fileDone(100, 'copied b');
  t.equal(manyPlain, 'copied a\ncopied b\n', 'off a terminal: a line per file');
});
