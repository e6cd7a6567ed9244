// The CLI with organization API keys, files addressed by path, bulk trash/restore of 50 files and a closed pipe:
// the real `siglata` as a child process against the in-process server over loopback HTTP.
import t from 'tap';
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTestApp } from '../helpers/app.ts';
import { http } from '../helpers/http.ts';
import { BIN, runCli, startCli } from './run-cli.ts';

t.test('siglata keys, paths, bulk and pipes', async (t) => {
  const app = await startTestApp(t, { env: { RATE_LIMIT_MAX: '100000' } });
  const owner = await app.token({ email: 'owner@cli-keys.example', org: 'cli-keys' });
  const member = await app.token({ email: 'member@cli-keys.example', org: 'cli-keys', role: 'member' });
  const home = await mkdtemp(join(tmpdir(), 'siglata-keys-'));
  const env = (token: string) => ({ SIGLATA_CONFIG_DIR: join(home, 'config'), SIGLATA_SERVER: app.url, SIGLATA_TOKEN: token, SIGLATA_LANG: undefined });
  const cli = (args: string[], token = owner) => runCli(args, { env: env(token), cwd: home });
  const script = async (token: string, body: string) => {
    const res = await http(`${app.url}/app/v1/execute`, { token, json: { mode: 'run', script: body } });
    t.equal(res.body.ok, true, JSON.stringify(res.body.error));
    return res.body.result;
  };

  t.test('keys create / list / revoke, and the key used as SIGLATA_TOKEN', async (t) => {
    // As docs/cli.md shows it.
    const made = await cli(['keys', 'create', 'ci-nightly', '--scope', 'files:read files:write', '--expires-days', '30']);
    t.equal(made.code, 0, made.stderr);
    const key = made.stdout.trim();
    t.match(key, /^slk_[A-Za-z0-9_-]{43}$/, 'only the key on stdout, ready for $(...)');
    t.match(made.stderr, /Key key_\w+ \(files:read files:write\) valid until .*Store it now/);
    await writeFile(join(home, 'ci.txt'), 'built by CI\n');
    const up = await cli(['upload', 'ci.txt', '--name', 'ci/out.txt'], key);
    t.equal(up.code, 0, up.stderr);
    const down = await cli(['download', 'ci/out.txt', '-o', '-'], key);
    t.equal(down.code, 0, down.stderr);
    t.equal(down.stdout, 'built by CI\n');
    const listed = await cli(['keys', 'list', '--json']);
    const entry = JSON.parse(listed.stdout).find((k: any) => k.name === 'ci-nightly');
    t.match(entry, { state: 'active', scopes: ['files:read', 'files:write'], createdBy: 'owner@cli-keys.example' });
    t.ok(entry.lastUsedAt, 'last use shown');
    t.notOk(listed.stdout.includes(key.slice(4)), 'the secret is never listed');
    const table = await cli(['keys', 'list']);
    t.match(table.stdout, /ID\s+STATE\s+EXPIRES\s+LAST USED\s+SCOPES\s+CREATED BY\s+NAME/);
    t.match(table.stdout, /key_\w+\s+active\s+.*ci-nightly/);
    const byMember = await cli(['keys', 'create', 'x'], member);
    t.equal(byMember.code, 1);
    t.match(byMember.stderr, /error: ORGANIZATION_ADMIN_REQUIRED/);
    const comma = await cli(['keys', 'create', 'comma', '--scope', 'files:read,org:read', '--json']);
    t.same(JSON.parse(comma.stdout).scopes, ['files:read', 'org:read'], 'commas separate scopes too');
    const wide = await cli(['keys', 'create', 'x', '--scope', 'files:read root']);
    t.equal(wide.code, 1);
    t.match(wide.stderr, /invalid_input/);
    const revoked = await cli(['keys', 'revoke', entry.id]);
    t.equal(revoked.code, 0, revoked.stderr);
    t.match(revoked.stdout, new RegExp(`${entry.id}\\s+revoked`));
    const refused = await cli(['ls'], key);
    t.equal(refused.code, 1);
    t.match(refused.stderr, /unauthorized/);
    t.equal((await cli(['keys', 'rotate'])).code, 2, 'an unknown action is a usage error');
  });

  t.test('files addressed by path; a path with several versions in the trash lists the ids', async (t) => {
    const ids = await script(
      owner,
      `const a = await files_write_text({ name: "dup/hello.txt", text: "one" });
      const b = await files_write_text({ name: "dup/hello.txt", text: "two" });
      const c = await files_write_text({ name: "reports/2026/q3.csv", text: "a,b\\n1,2\\n" });
      const d = await files_write_text({ name: "reports/2026/q3.csv.bak", text: "old" });
      return [a.fileId, b.fileId, c.fileId, d.fileId];`,
    );
    const latest = await cli(['download', 'dup/hello.txt', '-o', '-']);
    t.equal(latest.code, 0, latest.stderr);
    t.equal(latest.stdout, 'two', 'one active file per path: the second write replaced the first');
    t.equal((await cli(['trash', 'dup/hello.txt'])).code, 0);
    const amb = await cli(['restore', 'dup/hello.txt']);
    t.equal(amb.code, 1);
    t.match(amb.stderr, /error: ambiguous_path: "dup\/hello\.txt" names 2 files: /);
    t.ok(amb.stderr.includes(ids[0]) && amb.stderr.includes(ids[1]), 'both trashed versions named');
    t.match(amb.stderr, /resolution: Names are not unique: pass the id/);
    const exact = await cli(['download', 'reports/2026/q3.csv', '-o', '-']);
    t.equal(exact.code, 0, exact.stderr);
    t.equal(exact.stdout, 'a,b\n1,2\n', 'the exact name, not the one it prefixes');
    const saved = await cli(['download', 'reports/2026/q3.csv']);
    t.equal(saved.code, 0, saved.stderr);
    t.equal(await readFile(join(home, 'q3.csv'), 'utf8'), 'a,b\n1,2\n');
    const info = await cli(['info', 'reports/2026/q3.csv', '--json']);
    t.equal(JSON.parse(info.stdout).fileId, ids[2]);
    const missing = await cli(['info', 'reports/2026/q4.csv']);
    t.equal(missing.code, 1);
    t.match(missing.stderr, /error: not_found: no file is named "reports\/2026\/q4\.csv"/);
    const pt = await cli(['restore', 'dup/hello.txt', '--lang', 'pt-BR']);
    t.match(pt.stderr, /erro: ambiguous_path: "dup\/hello\.txt" nomeia 2 arquivos/);
    // trash by path, restore by path (looked up in the trash), ids and paths mixed.
    const trashed = await cli(['trash', 'reports/2026/q3.csv', ids[3]]);
    t.equal(trashed.code, 0, trashed.stderr);
    t.match(trashed.stdout, new RegExp(`${ids[2]}\\s+trashed`));
    const restored = await cli(['restore', 'reports/2026/q3.csv']);
    t.equal(restored.code, 0, restored.stderr);
    t.match(restored.stdout, new RegExp(`${ids[2]}\\s+restored as reports/2026/q3\\.csv`));
  });

  t.test('bulk trash and restore of 50 files: every outcome reported, exit 0', async (t) => {
    const ids: string[] = await script(
      owner,
      'const ids = []; for (let i = 0; i < 50; i++) ids.push((await files_write_text({ name: `bulk/${"x".repeat(180)}-${i}.txt`, text: String(i) })).fileId); return ids;',
    );
    const trashed = await cli(['trash', ...ids]);
    t.equal(trashed.code, 0, trashed.stderr);
    t.equal(trashed.stdout.trim().split('\n').length, 50);
    t.equal(trashed.stderr, '');
    const restored = await cli(['restore', ...ids, '--json']);
    t.equal(restored.code, 0, restored.stderr);
    const outcomes = JSON.parse(restored.stdout);
    t.equal(outcomes.length, 50);
    t.ok(outcomes.every((o: any) => o.ok && o.value.name.startsWith('bulk/')));
    const active = await script(owner, 'return (await files_list({ prefix: "bulk/", limit: 100 })).items.length;');
    t.equal(active, 50, 'all 50 are back');
    const gone = ['fil_aaaaaaaaaaaaaaaaaaaaaaaaaa', 'fil_bbbbbbbbbbbbbbbbbbbbbbbbbb'];
    const twice = await cli(['restore', ...gone, ids[0]]);
    t.equal(twice.code, 1, 'unknown ids fail one by one, without a crash');
    t.match(twice.stdout, new RegExp(`^${ids[0]}\\s+restored`, 'm'), 'the others still done');
    t.equal(
      twice.stderr
        .trim()
        .split('\n')
        .filter((l) => l.startsWith('fil_')).length,
      2,
    );
    t.notMatch(twice.stderr, /TypeError|at .*\.ts:\d+/);
  });

  t.test('org: show, members, invitations, invite, cancel-invite; switch goes through the browser', async (t) => {
    const show = await cli(['org', 'show']);
    t.equal(show.code, 0, show.stderr);
    t.equal(JSON.parse(show.stdout).slug, 'cli-keys');
    const members = await cli(['org', 'members']);
    t.match(members.stdout, /ID\s+ROLE\s+SINCE\s+E-MAIL/);
    t.match(members.stdout, /owner\s+.*owner@cli-keys\.example/);
    t.match(members.stdout, /member\s+.*member@cli-keys\.example/);
    const invite = await cli(['org', 'invite', 'ana@cli-keys.example', '--role', 'admin', '--json']);
    t.equal(invite.code, 0, invite.stderr);
    const inv = JSON.parse(invite.stdout);
    t.match(inv, { email: 'ana@cli-keys.example', role: 'admin', status: 'pending' });
    const list = await cli(['org', 'invitations']);
    t.match(list.stdout, new RegExp(`${inv.id}\\s+pending\\s+admin`));
    const byMember = await cli(['org', 'invite', 'bob@cli-keys.example'], member);
    t.equal(byMember.code, 1);
    t.match(byMember.stderr, /ORGANIZATION_ADMIN_REQUIRED/);
    const cancel = await cli(['org', 'cancel-invite', inv.id]);
    t.equal(cancel.code, 0, cancel.stderr);
    t.match(cancel.stdout, /canceled/);
    t.equal((await cli(['org', 'bogus'])).code, 2);
    t.equal((await cli(['org', 'invite'])).code, 2, 'invite needs an e-mail');
    const run = startCli(['org', 'switch', '--no-browser'], { env: { ...env(owner), SIGLATA_TOKEN: undefined }, cwd: home });
    const line = await run.waitForStderr(/\/oauth\/authorize\?/);
    t.match(run.stderr(), /Pick the organization on the page that opens/);
    t.match(line, /code_challenge_method=S256/);
    run.child.kill('SIGKILL'); // the sign-in would wait for the browser; this test only checks it started
    await run.done;
  });

  t.test('ls --json | head: a closed pipe ends quietly', async (t) => {
    for (let from = 0; from < 400; from += 100) {
      await script(
        owner,
        `for (let i = ${from}; i < ${from + 100}; i += 10) await Promise.all(Array.from({ length: 10 }, (_, j) => files_write_text({ name: \`pipe/\${String(i + j).padStart(4, "0")}-\${"y".repeat(120)}.txt\`, text: "p" }))); return 1;`,
      );
    }
    for (const args of [['ls', '--json'], ['ls']]) {
      const child = spawn('sh', ['-c', `"${process.execPath}" "${BIN}" ${args.join(' ')} | head -c 100 >/dev/null; echo "status=\${PIPESTATUS:-ok}"`], {
        env: { ...process.env, ...env(owner), NODE_OPTIONS: '' },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stderr = '';
      child.stderr.setEncoding('utf8').on('data', (d) => {
        stderr += d;
      });
      child.stdout.resume();
      await new Promise((r) => child.on('close', r));
      t.equal(stderr, '', `${args.join(' ')}: nothing on stderr (no EPIPE trace)`);
    }
  });
});
