// `--json` on every command: the test walks the CLI's own command table, so a command added later without a case
// here fails it. Each command runs once on a success path and once on a failure path with --json, and stdout must
// be JSON both times (failures: { error: { code, message } }); usage mistakes too. Then `ls --json | head -1`
// ends quietly: exit status 0 through `pipefail`, nothing on stderr.
import t from 'tap';
import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTestApp } from '../helpers/app.ts';
import { http } from '../helpers/http.ts';
import { COMMANDS } from '../../cli/main.ts';
import { BIN, runCli } from './run-cli.ts';

interface Case {
  args: string[];
  input?: string;
}
/** Per command: a run that succeeds and one that fails, in the command table's order (later ones use earlier ones' files). */
const CASES: Record<string, { ok: Case; fail: Case }> = {
  login: { ok: { args: ['login', '--token', '$TOKEN'] }, fail: { args: ['login', '--token', 'slk_not-a-key'] } },
  logout: { ok: { args: ['--profile', 'nobody', 'logout'] }, fail: { args: ['logout', '--server', 'not a url'] } },
  whoami: { ok: { args: ['whoami'] }, fail: { args: ['whoami', '--token', 'slk_not-a-key'] } },
  exec: { ok: { args: ['exec', '-'], input: 'return { n: 1 }' }, fail: { args: ['exec', '-'], input: 'throw new Error("planned failure")' } },
  upload: { ok: { args: ['upload', 'a.txt', '--name', 'docs/a.txt'] }, fail: { args: ['upload', 'missing.txt'] } },
  download: { ok: { args: ['download', 'docs/a.txt', '-o', 'back.txt'] }, fail: { args: ['download', 'docs/none.txt'] } },
  cp: { ok: { args: ['cp', 'tree', 'remote:tree/'] }, fail: { args: ['cp', 'tree', 'elsewhere'] } },
  sync: { ok: { args: ['sync', 'remote:tree/', 'tree-copy'] }, fail: { args: ['sync', 'no-such-dir', 'remote:x/'] } },
  ls: { ok: { args: ['ls'] }, fail: { args: ['ls', '--limit', '0'] } },
  info: { ok: { args: ['info', 'docs/a.txt'] }, fail: { args: ['info', 'fil_aaaaaaaaaaaaaaaaaaaaaaaaaa'] } },
  trash: { ok: { args: ['trash', 'docs/a.txt', 'tree/b.txt'] }, fail: { args: ['trash', 'docs/none.txt'] } },
  restore: { ok: { args: ['restore', 'docs/a.txt'] }, fail: { args: ['restore', 'docs/none.txt'] } },
  rm: { ok: { args: ['rm', 'tree/b.txt'] }, fail: { args: ['rm', 'docs/a.txt'] } },
  search: { ok: { args: ['search', 'upload'] }, fail: { args: ['search', 'upload', '--detail', 'everything'] } },
  ask: { ok: { args: ['ask', 'resume', 'an', 'upload'] }, fail: { args: ['ask', 'x', '--limit', '99'] } },
  keys: { ok: { args: ['keys', 'list'] }, fail: { args: ['keys', 'rotate'] } },
  org: { ok: { args: ['org', 'list'] }, fail: { args: ['org', 'accept', 'inv_does_not_exist'] } },
  completion: { ok: { args: ['completion', 'bash'] }, fail: { args: ['completion', 'tcsh'] } },
};

t.test('--json on every command', async (t) => {
  const app = await startTestApp(t, { env: { RATE_LIMIT_MAX: '100000' } });
  const token = await app.token({ email: 'json@cli.example', org: 'json-org' });
  const home = await mkdtemp(join(tmpdir(), 'siglata-json-'));
  await writeFile(join(home, 'a.txt'), 'alpha\n');
  await mkdir(join(home, 'tree'));
  await writeFile(join(home, 'tree', 'b.txt'), 'beta\n');
  const env = {
    SIGLATA_CONFIG_DIR: join(home, 'config'),
    SIGLATA_SERVER: app.url,
    SIGLATA_TOKEN: undefined,
    SIGLATA_LANG: undefined,
    SIGLATA_PROFILE: undefined,
  };
  const cli = (c: Case) => runCli([...c.args.map((a) => a.replace('$TOKEN', token)), '--json'], { env, input: c.input, cwd: home });
  const parse = (text: string) => {
    try {
      return JSON.parse(text);
    } catch {
      return undefined;
    }
  };

  t.test('the cases cover the command table exactly', async (t) => {
    t.same(Object.keys(CASES).sort(), COMMANDS.map((c) => c.name).sort(), 'one case per command: add one for a new command');
  });

  t.test('success and failure, each command', async (t) => {
    for (const command of COMMANDS) {
      const { ok, fail } = CASES[command.name];
      const good = await cli(ok);
      t.equal(good.code, 0, `${command.name}: succeeds (${good.stderr.slice(0, 300)})`);
      t.not(parse(good.stdout), undefined, `${command.name}: stdout is JSON (${good.stdout.slice(0, 120)})`);
      const bad = await cli(fail);
      t.not(bad.code, 0, `${command.name} ${fail.args.slice(1).join(' ')}: fails`);
      const body = parse(bad.stdout);
      t.not(body, undefined, `${command.name}: the failure's stdout is JSON too (${bad.stdout.slice(0, 120)})`);
      // exec reports a failed script as its whole execution record (ok: false, error); everything else as { error }.
      if (command.name === 'exec') t.match(body, { ok: false, error: { message: /planned failure/ } });
      else t.match(body, { error: { code: String, message: String } }, `${command.name}: { error: { code, message } }`);
      t.notMatch(bad.stderr, /\n\s+at /, `${command.name}: no stack trace`);
    }
    t.match(parse((await cli({ args: ['completion', 'zsh'] })).stdout), { shell: 'zsh', script: /siglata/ }, 'completion --json wraps the script');
    const back = await cli({ args: ['download', 'docs/a.txt', '-o', '-'] });
    t.equal(back.code, 2, 'download -o - with --json: refused, stdout would carry the bytes');
    t.match(parse(back.stdout), { error: { code: 'usage' } });
  });

  t.test('usage mistakes answer in JSON as well', async (t) => {
    for (const command of COMMANDS) {
      const r = await cli({ args: [command.name, '--no-such-option'] });
      t.equal(r.code, 2, `${command.name} --no-such-option: exit 2`);
      t.match(parse(r.stdout), { error: { code: 'usage' } }, `${command.name}: a usage error as JSON`);
    }
    t.match(parse((await cli({ args: ['frobnicate'] })).stdout), { error: { code: 'usage', message: /unknown command/ } });
  });

  t.test('ls --json | head -1 exits quietly', async (t) => {
    // Enough names that the listing is several times a pipe's buffer, so the writer does meet the closed pipe.
    for (let from = 0; from < 400; from += 100) {
      const res = await http(`${app.url}/app/v1/execute`, {
        token,
        json: {
          mode: 'run',
          script: `await Promise.all(Array.from({ length: 100 }, (_, i) => files_write_text({ name: \`pipe/\${${from} + i}-\${"z".repeat(150)}.txt\`, text: "p" }))); return 1;`,
        },
      });
      t.equal(res.body.ok, true, JSON.stringify(res.body.error));
    }
    const child = spawn('bash', ['-c', `set -o pipefail; "${process.execPath}" "${BIN}" ls --json | head -1`], {
      env: { ...process.env, ...Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined)), NODE_OPTIONS: '' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d) => {
      stdout += d;
    });
    child.stderr.setEncoding('utf8').on('data', (d) => {
      stderr += d;
    });
    const code = await new Promise((r) => child.on('close', r));
    t.equal(stdout, '{\n', 'head got the first line');
    t.equal(stderr, '', 'nothing on stderr (no EPIPE trace)');
    t.equal(code, 0, "exit status 0 through pipefail: closing the pipe is the reader's choice");
  });
});
