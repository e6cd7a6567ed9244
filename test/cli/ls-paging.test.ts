// siglata ls over more files than one page holds (1,000): every file is listed, and --limit says how many it left
// out instead of stopping silently.
import t from 'tap';
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTestApp } from '../helpers/app.ts';
import { runCli } from './run-cli.ts';

t.test('siglata ls past one page', async (t) => {
  const app = await startTestApp(t, { env: { RATE_LIMIT_MAX: '100000' } });
  const token = await app.token({ email: 'pages@cli.example', org: 'pages-org' });
  const home = await mkdtemp(join(tmpdir(), 'siglata-ls-'));
  const env = { SIGLATA_CONFIG_DIR: join(home, 'config'), SIGLATA_SERVER: app.url, SIGLATA_TOKEN: token, SIGLATA_LANG: undefined };
  const cli = (args: string[]) => runCli(args, { env, cwd: home });
  const TOTAL = 2_300;
  // Seeded the quick way: one copy (a tar and an import) of a local tree.
  await mkdir(join(home, 'many'));
  for (let i = 0; i < TOTAL; i++) await writeFile(join(home, 'many', `${String(i).padStart(4, '0')}.txt`), 'x');
  await writeFile(join(home, 'other.txt'), 'y');
  t.equal((await cli(['cp', 'many', 'remote:many/'])).code, 0);
  t.equal((await cli(['cp', 'other.txt', 'remote:'])).code, 0);

  t.test('without --limit: every file', async (t) => {
    const json = await cli(['ls', '--prefix', 'many/', '--json']);
    t.equal(json.code, 0, json.stderr);
    const body = JSON.parse(json.stdout);
    t.equal(body.files.length, TOTAL, 'all of them, across three pages');
    t.equal(body.files[TOTAL - 1].name, 'many/2299.txt');
    t.same([body.more, body.remaining], [false, 0]);
    const table = await cli(['ls']);
    t.equal(table.stdout.trimEnd().split('\n').length, 1 + TOTAL + 1, 'a header and a row per file');
    t.equal(table.stderr, '', 'nothing left out, nothing to say');
  });

  t.test('with --limit: says how many more', async (t) => {
    const table = await cli(['ls', '--limit', '1500']);
    t.equal(table.code, 0, table.stderr);
    t.equal(table.stdout.trimEnd().split('\n').length, 1 + 1500);
    t.match(table.stderr, /^1500 shown; 801 more not listed \(raise --limit, or leave it out to list all\)$/m);
    const json = JSON.parse((await cli(['ls', '--prefix', 'many/', '--limit', '10', '--json'])).stdout);
    t.match(json, { more: true, remaining: TOTAL - 10 });
    t.equal(json.files.length, 10);
    const pt = await cli(['ls', '--limit', '2301', '--lang', 'pt-BR']);
    t.equal(pt.stderr, '', 'a limit above the count leaves nothing out');
    const ptMore = await cli(['ls', '--limit', '5', '--lang', 'pt-BR']);
    t.match(ptMore.stderr, /5 mostrado\(s\); mais 2296 não listado\(s\)/);
  });
});
