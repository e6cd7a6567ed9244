// The CLI reads whole results from structuredContent: `siglata trash` of 50 files (a result far above the ~24 KB
// text cap) and `siglata exec` of a 120 KB result, against the real server, the token given as SIGLATA_TOKEN.
import t from 'tap';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTestApp } from '../helpers/app.ts';
import { http } from '../helpers/http.ts';
import { runCli } from './run-cli.ts';

t.test('siglata with large results', async (t) => {
  const app = await startTestApp(t, { env: { RATE_LIMIT_MAX: '100000' } });
  const token = await app.token({ email: 'bulk@example.com' });
  const home = await mkdtemp(join(tmpdir(), 'siglata-cli-large-'));
  const env = { SIGLATA_CONFIG_DIR: home, SIGLATA_TOKEN: token, SIGLATA_SERVER: app.url, SIGLATA_LANG: undefined };
  const cli = (args: string[], input?: string) => runCli(args, { env, input, cwd: home });

  t.test('trash 50 files in one command: every outcome reported, exit 0', async (t) => {
    const made = await http(`${app.url}/app/v1/execute`, {
      token,
      json: {
        script:
          'const ids = []; for (let i = 0; i < 50; i++) ids.push((await files_write_text({ name: `bulk-${i}-${"n".repeat(120)}.txt`, text: "x" })).fileId); return ids;',
      },
    });
    const ids: string[] = made.body.result;
    t.equal(ids.length, 50);
    const r = await cli(['trash', ...ids]);
    t.equal(r.code, 0, r.stderr);
    t.equal(r.stdout.trim().split('\n').length, 50, 'one line per file');
    for (const id of ids) t.match(r.stdout, new RegExp(`${id}  trashed`));
    const [{ n }] = await app.deps.sql`select count(*)::int as n from files where id = any(${ids}) and state = 'trashed'`;
    t.equal(n, 50);
    const json = await cli(['trash', ...ids, '--json']);
    t.equal(JSON.parse(json.stdout).length, 50, '--json prints every outcome');
  });

  t.test('exec prints a 120 KB result whole', async (t) => {
    const r = await cli(['exec', '-'], 'return Array.from({ length: 1200 }, (_, i) => ({ i, text: "y".repeat(90) }));');
    t.equal(r.code, 0, r.stderr);
    const value = JSON.parse(r.stdout);
    t.equal(value.length, 1200);
    t.same(value[1199], { i: 1199, text: 'y'.repeat(90) });
    t.ok(Buffer.byteLength(r.stdout) > 120_000);
    const raw = await cli(['exec', '-', '--raw'], 'return "z".repeat(150000);');
    t.equal(raw.stdout, `${'z'.repeat(150000)}\n`);
  });
});
