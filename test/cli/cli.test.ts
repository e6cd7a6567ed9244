// The `siglata` command line end to end: the real CLI as a child process against the in-process server over
// loopback HTTP. Sign-in goes through the real authorization server (the browser step answered headlessly with a
// signed-in session), then exec, a 50 MB upload killed and resumed, downloads verified by SHA-256 (and resumed
// with Range), the catalogue commands, plan and apply of a batch rename, search, ask, refresh and logout.
import t from 'tap';
import { createHash, randomBytes } from 'node:crypto';
import { crc32 } from 'node:zlib';
import { mkdtemp, readFile, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTestApp } from '../helpers/app.ts';
import { approveAuthorization, createOrganization, refreshGrant, signInCookie } from '../helpers/oauth.ts';
import { http } from '../helpers/http.ts';
import { runCli, startCli } from './run-cli.ts';

const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');
const PART = 8 * 1024 * 1024;

t.test('siglata, end to end', async (t) => {
  const app = await startTestApp(t, { manualClock: true, env: { RATE_LIMIT_MAX: '100000' } });
  const cookie = await signInCookie(app, 'power@example.com');
  const orgId = await createOrganization(app, cookie, 'cli-org');
  const home = await mkdtemp(join(tmpdir(), 'siglata-cli-'));
  const configDir = join(home, 'config');
  const work = join(home, 'work');
  await import('node:fs/promises').then((fs) => fs.mkdir(work));
  const env = {
    SIGLATA_CONFIG_DIR: configDir,
    SIGLATA_SERVER: undefined,
    SIGLATA_TOKEN: undefined,
    SIGLATA_LANG: undefined,
    BROWSER: undefined,
    DISPLAY: undefined,
  };
  const cli = (args: string[], input?: string) => runCli(args, { env, input, cwd: work });
  const credentials = async () => JSON.parse(await readFile(join(configDir, 'credentials.json'), 'utf8'));
  /** Call a binding with the stored access token, as the test's own independent view of the server. */
  const binding = async (name: string, input: unknown) => {
    const token = (await credentials()).logins[app.url].accessToken;
    const res = await http(`${app.url}/v1/mcp`, {
      token,
      json: {
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'execute', arguments: { script: `return await ${name}(${JSON.stringify(input)})` } },
      },
    });
    return res.body.result.structuredContent;
  };

  t.test('before signing in: a clear error with a resolution', async (t) => {
    const r = await cli(['ls', '--server', app.url]);
    t.equal(r.code, 1);
    t.match(r.stderr, /error: not_signed_in: not signed in to http:\/\/127\.0\.0\.1:\d+/);
    t.match(r.stderr, /resolution: Run `siglata login --server/);
    const pt = await cli(['ls', '--server', app.url, '--lang', 'pt-BR']);
    t.match(pt.stderr, /erro: not_signed_in: sem sessão em/);
    t.match(pt.stderr, /solução: Execute `siglata login/);
    const none = await cli(['ls']);
    t.equal(none.code, 2, 'no server anywhere is a usage error');
    t.match(none.stderr, /no_server/);
  });

  t.test('login: PKCE with a loopback redirect, tokens stored 0600', async (t) => {
    const run = startCli(['login', '--server', app.url, '--no-browser'], { env, cwd: work });
    const line = await run.waitForStderr(/\/oauth\/authorize\?/);
    const url = new URL(line.trim());
    t.equal(url.origin, app.url);
    t.equal(url.searchParams.get('code_challenge_method'), 'S256');
    t.match(url.searchParams.get('redirect_uri'), /^http:\/\/127\.0\.0\.1:\d+\/callback$/);
    t.equal(url.searchParams.get('resource'), `${app.url}/v1/mcp`);
    // The browser: sign-in session, consent for the organization, then the redirect back to the CLI's listener.
    const answer = await approveAuthorization(url, { cookie, organizationId: orgId });
    t.ok(answer.code, 'consent gave a code');
    const back = await http(answer.location.toString());
    t.equal(back.status, 200);
    t.match(back.text, /Signed in/);
    const done = await run.done;
    t.equal(done.code, 0, done.stderr);
    t.match(done.stdout, /Signed in to http:\/\/127\.0\.0\.1:\d+ as power@example\.com \(organization cli-org/);
    const file = await stat(join(configDir, 'credentials.json'));
    t.equal(file.mode & 0o777, 0o600, 'credentials readable by the owner only');
    t.equal((await stat(configDir)).mode & 0o777, 0o700);
    const stored = (await credentials()).logins[app.url];
    t.ok(stored.accessToken && stored.refreshToken, 'access and refresh tokens stored');
    t.equal((await credentials()).current, app.url, 'later commands need no --server');
  });

  t.test('exec: result on stdout, logs on stderr, failures with code and resolution', async (t) => {
    await writeFile(join(work, 'hello.js'), 'console.log("working"); return { slug: (await context()).organization.slug, n: 1 + 1 };');
    const ok = await cli(['exec', 'hello.js']);
    t.equal(ok.code, 0, ok.stderr);
    t.same(JSON.parse(ok.stdout), { slug: 'cli-org', n: 2 });
    t.match(ok.stderr, /\[log\] working/);

    const stdin = await cli(['exec', '-', '--raw'], 'return "plain text"');
    t.equal(stdin.stdout, 'plain text\n', '--raw prints a string as is; - reads stdin');

    await writeFile(join(work, 'missing.js'), 'return await files_get({ fileId: "fil_aaaaaaaaaaaaaaaaaaaaaaaaaa" });');
    const bad = await cli(['exec', 'missing.js']);
    t.equal(bad.code, 1, 'a failing script exits non-zero');
    t.match(bad.stderr, /^error: not_found: /m);
    t.match(bad.stderr, /resolution: /);
    const pt = await cli(['exec', 'missing.js', '--lang', 'pt-BR']);
    t.match(pt.stderr, /^erro: not_found: /m, 'pt-BR labels');
    t.notMatch(pt.stderr.split('\n')[0], /not found\.$/i, "and the server's message in Portuguese");

    const syntax = await cli(['exec', '-'], 'return (;');
    t.equal(syntax.code, 1);
    t.match(syntax.stderr, /syntax/i);

    const json = await cli(['exec', '-', '--json'], 'return 7');
    t.match(JSON.parse(json.stdout), { ok: true, result: 7, stats: { hostCalls: 0 } }, '--json prints the whole execution result');
  });

  const source = randomBytes(50_000_000);
  const sourcePath = join(work, 'big.bin');
  await writeFile(sourcePath, source);
  const partCount = Math.ceil(source.length / PART);
  let bigFileId = '';

  t.test('upload: 50 MB, killed mid-upload, resumed from upload_status', async (t) => {
    const first = startCli(['upload', 'big.bin', '--parallel', '1'], { env, cwd: work });
    await first.waitForStderr(/part 1\/\d+ stored/);
    first.child.kill('SIGKILL');
    const killed = await first.done;
    t.equal(killed.signal, 'SIGKILL');
    const uploadId = /as (upl_[a-z2-7]+)/.exec(killed.stderr)?.[1];
    t.ok(uploadId, 'the reservation was announced');

    const status = await binding('upload_status', { uploadId });
    t.equal(status.ok, true);
    const received: number[] = status.result.receivedParts;
    t.ok(received.length >= 1 && received.length < partCount, `some parts stored before the kill (${received.length} of ${partCount})`);

    const second = await cli(['upload', 'big.bin', '--json']);
    t.equal(second.code, 0, second.stderr);
    t.match(second.stderr, new RegExp(`Resuming ${uploadId}: ${received.length} of ${partCount} part\\(s\\) already stored`));
    const out = JSON.parse(second.stdout);
    t.match(out, {
      uploadId,
      resumed: true,
      partsSkipped: received.length,
      partsSent: partCount - received.length,
      name: 'big.bin',
      size: source.length,
      state: 'active',
    });
    bigFileId = out.fileId;
    t.equal((await binding('files_list', {})).result.items.filter((f: any) => f.name === 'big.bin').length, 1, 'one file, not two');
  });

  t.test('upload: Ctrl-C saves the state and says how to resume; an unchanged rerun sends the rest', async (t) => {
    const first = startCli(['upload', 'big.bin', '--name', 'copy/big.bin', '--parallel', '1'], { env, cwd: work });
    await first.waitForStderr(/part 1\/\d+ stored/);
    first.child.kill('SIGINT');
    const stopped = await first.done;
    t.equal(stopped.code, 130, 'exit status of an interrupted command');
    t.match(stopped.stderr, /Interrupted\. Run the same command again to resume\./);
    const again = await cli(['upload', 'big.bin', '--name', 'copy/big.bin']);
    t.equal(again.code, 0, again.stderr);
    t.match(again.stderr, /Resuming upl_/);
    t.match(again.stdout, /Uploaded copy\/big\.bin as fil_/);
  });

  t.test('upload and download an empty file', async (t) => {
    await writeFile(join(work, 'empty.txt'), '');
    const up = await cli(['upload', 'empty.txt', '--json']);
    t.equal(up.code, 0, up.stderr);
    const file = JSON.parse(up.stdout);
    t.match(file, { name: 'empty.txt', size: 0, mediaType: 'text/plain; charset=utf-8' }, 'media type from the extension');
    const down = await cli(['download', file.fileId, '-o', 'empty-back.txt']);
    t.equal(down.code, 0, down.stderr);
    t.equal((await readFile(join(work, 'empty-back.txt'))).length, 0);
  });

  t.test('download: streamed, SHA-256 equal to the source, resumed with Range', async (t) => {
    const whole = await cli(['download', bigFileId, '-o', 'back.bin', '--json']);
    t.equal(whole.code, 0, whole.stderr);
    const got = JSON.parse(whole.stdout);
    t.equal(got.sha256, sha256(source));
    t.equal(sha256(await readFile(join(work, 'back.bin'))), sha256(source), 'the saved file is the source');
    t.equal(got.resumedFrom, 0);

    // An interrupted download: the first 20 MB are in back2.bin.part with the ETag they came with.
    await writeFile(join(work, 'back2.bin.part'), source.subarray(0, 20_000_000));
    await writeFile(join(work, 'back2.bin.part.json'), JSON.stringify({ fileId: bigFileId, etag: got.etag, size: source.length }));
    const resumed = await cli(['download', bigFileId, '-o', 'back2.bin', '--json']);
    t.equal(resumed.code, 0, resumed.stderr);
    t.equal(JSON.parse(resumed.stdout).resumedFrom, 20_000_000, 'only the rest was asked for');
    t.equal(sha256(await readFile(join(work, 'back2.bin'))), sha256(source));

    // A partial file from another version of the content (ETag differs): If-Range makes the server send it whole.
    await writeFile(join(work, 'back3.bin.part'), randomBytes(1000));
    await writeFile(join(work, 'back3.bin.part.json'), JSON.stringify({ fileId: bigFileId, etag: '"another-version"', size: source.length }));
    const restarted = await cli(['download', bigFileId, '-o', 'back3.bin', '--json']);
    t.equal(restarted.code, 0, restarted.stderr);
    t.match(restarted.stderr, /changed on the server/);
    t.equal(sha256(await readFile(join(work, 'back3.bin'))), sha256(source), 'stale bytes were not spliced in');

    const piped = await cli(['download', bigFileId, '-o', '-']);
    t.equal(piped.code, 0, '-o - streams to stdout');
    t.equal(sha256(piped.stdoutBytes), sha256(source));

    // A partial file whose bytes are wrong under the right ETag (disk corruption, a tampered .part): the resumed
    // download is checked against the catalogue's CRC-32 (a multi-part upload has no SHA-256) and refused.
    await writeFile(join(work, 'back4.bin.part'), randomBytes(20_000_000));
    await writeFile(join(work, 'back4.bin.part.json'), JSON.stringify({ fileId: bigFileId, etag: got.etag, size: source.length }));
    const corrupt = await cli(['download', bigFileId, '-o', 'back4.bin']);
    t.equal(corrupt.code, 1, 'corruption is not accepted');
    t.match(corrupt.stderr, /error: digest_mismatch: /);
    await t.rejects(stat(join(work, 'back4.bin')), { code: 'ENOENT' }, 'nothing saved under the target name');
    await t.rejects(stat(join(work, 'back4.bin.part')), { code: 'ENOENT' }, 'and the bad partial is gone, so a rerun starts clean');

    const missing = await cli(['download', 'fil_aaaaaaaaaaaaaaaaaaaaaaaaaa']);
    t.equal(missing.code, 1);
    t.match(missing.stderr, /error: not_found/);
  });

  t.test('plan and apply a batch rename', async (t) => {
    const seed = await cli(['exec', '-'], 'for (const n of ["a.txt", "b.txt", "c.txt"]) await files_write_text({ name: `inbox/${n}`, text: n }); return true;');
    t.equal(seed.code, 0, seed.stderr);
    const rename = join(work, 'rename.js');
    await writeFile(
      rename,
      `const { items } = await files_list({ prefix: "inbox/" });
for (const f of items) await files_update({ fileId: f.fileId, name: f.name.replace("inbox/", "archive/") });
return items.length;`,
    );
    const plan = await cli(['exec', 'rename.js', '--plan']);
    t.equal(plan.code, 0, plan.stderr);
    t.match(plan.stdout, /3 planned write\(s\), nothing changed yet:/);
    t.equal(plan.stdout.split('\n').filter((l) => /^\s*\d+\s+files_update\s+\{"fileId":"fil_/.test(l)).length, 3, 'a table row per planned write');
    const token = /--apply (\S+)/.exec(plan.stdout)?.[1];
    t.ok(token, 'the apply command is printed');
    const before = JSON.parse((await cli(['ls', '--prefix', 'inbox/', '--json'])).stdout);
    t.equal(before.files.length, 3, 'planning changed nothing');

    const apply = await cli(['exec', 'rename.js', '--apply', token!]);
    t.equal(apply.code, 0, apply.stderr);
    t.match(apply.stderr, /Applied 3 write\(s\) in one transaction/);
    t.equal(apply.stdout.trim(), '3');
    const after = JSON.parse((await cli(['ls', '--prefix', 'archive/', '--json'])).stdout);
    t.same(after.files.map((f: any) => f.name).sort(), ['archive/a.txt', 'archive/b.txt', 'archive/c.txt']);

    const replay = await cli(['exec', 'rename.js', '--apply', token!]);
    t.equal(replay.code, 1, 'a plan token applies once');
    t.match(replay.stderr, /error: plan_already_applied: This plan was already applied at .*: its 3 writes were committed then/);
    t.match(replay.stderr, /\n  resolution: .*--plan/, 'with what to do about it');
    t.notMatch(replay.stderr, /Nothing was applied/, 'its writes were applied, the first time');
  });

  t.test('ls, info, trash, restore, rm', async (t) => {
    const table = await cli(['ls']);
    t.equal(table.code, 0, table.stderr);
    t.match(table.stdout, /^ID\s+SIZE\s+UPDATED\s+TYPE\s+NAME$/m);
    t.match(table.stdout, new RegExp(`^${bigFileId}\\s+47\\.7 MiB\\s+.*big\\.bin$`, 'm'));
    const info = JSON.parse((await cli(['info', bigFileId, '--json'])).stdout);
    t.match(
      info,
      { fileId: bigFileId, name: 'big.bin', size: 50_000_000, state: 'active', sha256: null, crc32: crc32(source).toString(16).padStart(8, '0') },
      'a multi-part upload has its whole-content CRC-32',
    );
    t.match((await cli(['info', bigFileId])).stdout, /^size\s+47\.7 MiB \(50000000 bytes\)$/m);

    const listed = JSON.parse((await cli(['ls', '--prefix', 'archive/', '--json'])).stdout).files;
    const [a, b] = listed.map((f: any) => f.fileId);
    const trash = await cli(['trash', a, b]);
    t.equal(trash.code, 0, trash.stderr);
    t.match(trash.stdout, new RegExp(`^${a}  trashed, restorable until \\d{4}-`, 'm'));
    const trashed = await cli(['ls', '--trashed']);
    t.match(trashed.stdout, /^ID\s+SIZE\s+TRASHED\s+RESTORABLE UNTIL\s+NAME$/m);
    t.match(trashed.stdout, /archive\/a\.txt/);
    const restore = await cli(['restore', a]);
    t.match(restore.stdout, /restored as archive\/a\.txt/);

    const mixed = await cli(['rm', b, a, '--json']);
    t.equal(mixed.code, 1, 'one of the ids failed');
    const outcomes = JSON.parse(mixed.stdout);
    t.match(
      outcomes,
      [
        { id: b, ok: true, value: { deleted: true } },
        { id: a, ok: false, error: { code: 'conflict' } },
      ],
      'an active file cannot be deleted',
    );
    t.match(mixed.stderr, new RegExp(`${a}: error: conflict: .*\\n  resolution: `));
    const gone = await binding('files_get', { fileId: b });
    t.match(gone.error, { code: 'not_found' });
  });

  t.test('search and ask', async (t) => {
    const found = await cli(['search', 'upload', 'parts']);
    t.equal(found.code, 0, found.stderr);
    t.match(found.stdout, /upload_begin/);
    const json = JSON.parse((await cli(['search', 'upload', '--json', '--detail', 'names'])).stdout);
    t.ok(json.results.some((r: any) => r.name === 'upload_status'));
    const asked = await cli(['ask', 'how', 'do', 'I', 'upload', 'a', 'large', 'file']);
    t.equal(asked.code, 0, asked.stderr);
    t.match(asked.stdout, /^1\. .+\n {3}https:\/\/(www\.)?siglata\.com\//m);
  });

  t.test('--token / SIGLATA_TOKEN for CI, without any stored sign-in', async (t) => {
    const token = await app.token({ email: 'ci@example.com' });
    const r = await runCli(['exec', '-', '--server', app.url], {
      env: { SIGLATA_CONFIG_DIR: join(home, 'empty'), SIGLATA_TOKEN: token },
      input: 'return (await context()).user.email',
    });
    t.equal(r.code, 0, r.stderr);
    t.equal(JSON.parse(r.stdout), 'ci@example.com');
    const flag = await runCli(['exec', '-', '--server', app.url, '--token', 'not-a-token'], {
      env: { SIGLATA_CONFIG_DIR: join(home, 'empty') },
      input: 'return 1',
    });
    t.equal(flag.code, 1);
    t.match(flag.stderr, /^error: unauthorized: /m, "the server's own code");
    t.match(flag.stderr, /resolution: .*Authorization: Bearer/, 'and its resolution');
  });

  t.test('two token sources racing to refresh redeem the refresh token once', async (t) => {
    // In-process, so both refreshes start together: without the credentials lock the second redemption of the same
    // refresh token is reuse, and the server revokes the whole grant.
    const saved = process.env.SIGLATA_CONFIG_DIR;
    process.env.SIGLATA_CONFIG_DIR = configDir;
    t.teardown(() => {
      if (saved === undefined) delete process.env.SIGLATA_CONFIG_DIR;
      else process.env.SIGLATA_CONFIG_DIR = saved;
    });
    const { storedTokens } = await import('../../cli/auth.ts');
    const login = (await credentials()).logins[app.url];
    app.clock.advance!(3600_000 + 60_000);
    const [a, b] = [storedTokens(app.url, login), storedTokens(app.url, login)];
    const [ta, tb] = await Promise.all([a.renew(login.accessToken), b.renew(login.accessToken)]);
    t.ok(ta && ta !== login.accessToken, 'a new access token');
    t.equal(tb, ta, "the second source took the first one's result");
    t.equal((await http(`${app.url}/app/v1/context`, { token: ta! })).status, 200, 'and the grant stands');
  });

  t.test('an expired access token is refreshed transparently; logout revokes', async (t) => {
    const before = (await credentials()).logins[app.url];
    app.clock.advance!(3600_000 + 60_000);
    // Three commands at once meet the expired token: one refresh, the others use its result (a refresh token
    // redeemed twice would make the server revoke the whole grant).
    const runs = await Promise.all([1, 2, 3].map(() => cli(['exec', '-'], 'return (await context()).organization.slug')));
    for (const r of runs) {
      t.equal(r.code, 0, r.stderr);
      t.equal(JSON.parse(r.stdout), 'cli-org');
    }
    const after = (await credentials()).logins[app.url];
    t.not(after.accessToken, before.accessToken, 'a new access token was stored');
    t.not(after.refreshToken, before.refreshToken, 'and the rotated refresh token');

    const out = await cli(['logout']);
    t.equal(out.code, 0, out.stderr);
    t.match(out.stdout, /Signed out of http:\/\/127\.0\.0\.1:\d+; its tokens are revoked/);
    t.same((await credentials()).logins, {});
    const refresh = await refreshGrant(app, { clientId: after.clientId, refreshToken: after.refreshToken, resource: after.resource });
    t.equal(refresh.status, 400);
    t.equal(refresh.body.error, 'invalid_grant', 'the refresh token no longer works');
    const use = await http(`${app.url}/app/v1/context`, { token: after.accessToken });
    t.equal(use.status, 401, 'nor the access token');
  });
});

t.test('--help on every command, usage errors exit 2', async (t) => {
  const { COMMANDS } = await import('../../cli/main.ts');
  // Side by side: each start costs a few seconds on a loaded machine, and every command is checked.
  const runs = await Promise.all(COMMANDS.map((c) => runCli([c.name, '--help'])));
  COMMANDS.forEach((c, i) => {
    t.equal(runs[i].code, 0, `${c.name} --help`);
    t.match(runs[i].stdout, new RegExp(`^usage: siglata ${c.name}`), `${c.name} --help prints its usage`);
  });
  const pt = await runCli(['exec', '--help', '--lang', 'pt-BR']);
  t.match(pt.stdout, /^uso: siglata exec/);
  const unknown = await runCli(['upload', 'x', '--bogus']);
  t.equal(unknown.code, 2);
  t.match(unknown.stderr, /error: usage: .*--bogus/);
  const top = await runCli([]);
  t.equal(top.code, 2, 'no command: help on stderr, status 2');
  t.match(top.stderr, /^usage: siglata/);
});
