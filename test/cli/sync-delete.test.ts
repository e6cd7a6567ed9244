// siglata sync --delete, both directions: files only the destination has are kept by default, listed by --dry-run,
// and removed with --delete (remote: to the trash, restorable; local: deleted); filters protect what they exclude,
// nothing outside the prefix or folder is touched, and cp does not take the option.
import t from 'tap';
import { mkdir, mkdtemp, readdir, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTestApp } from '../helpers/app.ts';
import { http } from '../helpers/http.ts';
import { runCli } from './run-cli.ts';

t.test('siglata sync --delete', async (t) => {
  const app = await startTestApp(t, { env: { RATE_LIMIT_MAX: '100000' } });
  const token = await app.token({ email: 'mirror@cli.example', org: 'mirror-org' });
  const home = await mkdtemp(join(tmpdir(), 'siglata-mirror-'));
  const env = { SIGLATA_CONFIG_DIR: join(home, 'config'), SIGLATA_SERVER: app.url, SIGLATA_TOKEN: token, SIGLATA_LANG: undefined };
  const cli = (args: string[]) => runCli(args, { env, cwd: home });
  const run = async (script: string) => {
    const res = await http(`${app.url}/app/v1/execute`, { token, json: { mode: 'run', script } });
    if (!res.body?.ok) throw new Error(JSON.stringify(res.body));
    return res.body.result;
  };
  const names = async (state: 'active' | 'trashed') =>
    (await run(
      `const page = await files_list({ state: "${state}", limit: 1000 }); return (page.items ?? page.files ?? page).map((f) => f.name).sort();`,
    )) as string[];
  const write = (name: string) => run(`return (await files_write_text({ name: ${JSON.stringify(name)}, text: "remote only" })).fileId;`);

  await mkdir(join(home, 'mirror', 'keep'), { recursive: true });
  for (const [rel, text] of [
    ['a.txt', 'a'],
    ['keep/b.txt', 'b'],
    ['c.log', 'log'],
  ])
    await writeFile(join(home, 'mirror', rel), text);

  t.test('up: remote files the folder lacks', async (t) => {
    const first = await cli(['sync', 'mirror', 'remote:m/']);
    t.equal(first.code, 0, first.stderr);
    for (const name of ['m/extra.txt', 'm/sub/old.txt', 'm/skip.log', 'other/x.txt', 'm-sibling/y.txt']) await write(name);

    const plain = await cli(['sync', 'mirror', 'remote:m/']);
    t.equal(plain.code, 0, plain.stderr);
    t.notMatch(plain.stdout, /remove/, 'without --delete nothing is removed, nor mentioned');
    t.ok((await names('active')).includes('m/extra.txt'));

    const dry = await cli(['sync', 'mirror', 'remote:m/', '--delete', '--exclude', '*.log', '--dry-run']);
    t.equal(dry.code, 0, dry.stderr);
    t.match(dry.stdout, /^to trash {2}m\/extra\.txt /m);
    t.match(dry.stdout, /^to trash {2}m\/sub\/old\.txt /m);
    t.notMatch(dry.stdout, /to trash {2}(m\/skip\.log|other\/|m-sibling\/|m\/a\.txt|m\/keep\/b\.txt)/, 'excluded, outside and synced names are kept');
    t.match(dry.stdout, /0 to copy, 2 to remove, 2 unchanged/);
    t.same(await names('trashed'), [], 'a dry run trashes nothing');

    const json = JSON.parse((await cli(['sync', 'mirror', 'remote:m/', '--delete', '--exclude', '*.log', '--dry-run', '--json'])).stdout);
    t.same(
      json.files
        .filter((f: any) => f.decision === 'trash')
        .map((f: any) => f.name)
        .sort(),
      ['m/extra.txt', 'm/sub/old.txt'],
    );
    t.equal(json.summary.deleted, 2);

    const real = await cli(['sync', 'mirror', 'remote:m/', '--delete', '--exclude', '*.log', '--verbose']);
    t.equal(real.code, 0, real.stderr);
    t.match(real.stderr, /trashed m\/extra\.txt \(11 B\)/);
    t.match(real.stdout, /0 copied, 2 removed, 2 unchanged/);
    t.same(await names('trashed'), ['m/extra.txt', 'm/sub/old.txt'], 'moved to the trash, so recoverable');
    t.same(await names('active'), ['m-sibling/y.txt', 'm/a.txt', 'm/c.log', 'm/keep/b.txt', 'm/skip.log', 'other/x.txt']);
    const restored = await cli(['restore', 'm/extra.txt']);
    t.equal(restored.code, 0, restored.stderr);
    t.ok((await names('active')).includes('m/extra.txt'), 'and restorable with siglata restore');
  });

  t.test('down: local files the prefix lacks', async (t) => {
    const down = await cli(['sync', 'remote:m/', 'copy']);
    t.equal(down.code, 0, down.stderr);
    await mkdir(join(home, 'copy', 'deep'), { recursive: true });
    for (const rel of ['stray.txt', 'deep/stray2.txt', 'keep.log']) await writeFile(join(home, 'copy', rel), 'local only');
    await writeFile(join(home, 'beside.txt'), 'outside the folder');

    const plain = await cli(['sync', 'remote:m/', 'copy']);
    t.equal(plain.code, 0, plain.stderr);
    t.ok(existsSync(join(home, 'copy', 'stray.txt')), 'without --delete local files stay');

    const dry = await cli(['sync', 'remote:m/', 'copy', '--delete', '--exclude', '*.log', '--dry-run']);
    t.equal(dry.code, 0, dry.stderr);
    t.match(dry.stdout, /^delete {2}stray\.txt /m);
    t.match(dry.stdout, /^delete {2}deep\/stray2\.txt /m);
    t.notMatch(dry.stdout, /delete {2}(keep\.log|a\.txt|extra\.txt)/);
    t.ok(existsSync(join(home, 'copy', 'stray.txt')), 'a dry run deletes nothing');

    const real = await cli(['sync', 'remote:m/', 'copy', '--delete', '--exclude', '*.log']);
    t.equal(real.code, 0, real.stderr);
    t.match(real.stdout, /2 removed/);
    t.notOk(existsSync(join(home, 'copy', 'stray.txt')));
    t.notOk(existsSync(join(home, 'copy', 'deep', 'stray2.txt')));
    t.ok(existsSync(join(home, 'copy', 'keep.log')), 'an excluded file is kept');
    t.ok(existsSync(join(home, 'beside.txt')), 'nothing outside the folder is touched');
    t.same(
      (await readdir(join(home, 'copy'))).sort(),
      ['a.txt', 'c.log', 'deep', 'extra.txt', 'keep', 'keep.log', 'skip.log'],
      'the mirror, plus what the filter protects',
    );
  });

  t.test('pt-BR words, and cp does not delete', async (t) => {
    await writeFile(join(home, 'copy', 'again.txt'), 'x');
    const pt = await cli(['sync', 'remote:m/', 'copy', '--delete', '--exclude', '*.log', '--dry-run', '--lang', 'pt-BR']);
    t.match(pt.stdout, /^apagar {2}again\.txt /m);
    t.match(pt.stdout, /1 a remover/);
    const cp = await cli(['cp', 'mirror', 'remote:m/', '--delete']);
    t.equal(cp.code, 2, 'cp --delete is a usage error: only sync mirrors');
    t.match(cp.stderr, /error: usage: unknown option --delete; --delete is an option of: sync; run siglata cp --help/, 'and says which command has it');
  });
});
