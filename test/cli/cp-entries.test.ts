// cp / sync entry by entry: symbolic links reported, followed (--copy-links) or kept as links (--links); a remote
// tree the local file system cannot hold as it is (a file beside a folder of the same name, a name too long) and
// names that are one name on the other side (NFC/NFD) are reported per entry while the rest copies; a source that
// matches nothing or does not exist is an error; a dry run says the bytes; remote:PATH names a folder or one file.
import t from 'tap';
import { lstat, mkdir, mkdtemp, readFile, readlink, symlink, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTestApp } from '../helpers/app.ts';
import { http } from '../helpers/http.ts';
import { runCli } from './run-cli.ts';

t.test('cp / sync, entry by entry', async (t) => {
  const app = await startTestApp(t, { env: { RATE_LIMIT_MAX: '100000' } });
  const token = await app.token({ email: 'entries@cli.example', org: 'entries-org' });
  const home = await mkdtemp(join(tmpdir(), 'siglata-entries-'));
  const env = { SIGLATA_CONFIG_DIR: join(home, 'config'), SIGLATA_SERVER: app.url, SIGLATA_TOKEN: token, SIGLATA_LANG: undefined };
  const cli = (args: string[]) => runCli(args, { env, cwd: home });
  const run = async (script: string) => {
    const res = await http(`${app.url}/app/v1/execute`, { token, json: { mode: 'run', script } });
    if (!res.body?.ok) throw new Error(JSON.stringify(res.body));
    return res.body.result;
  };
  const names = async (prefix: string): Promise<string[]> =>
    run(`return (await files_list({ prefix: ${JSON.stringify(prefix)}, limit: 1000 })).items.map((f) => f.name);`);
  const noTrace = (t: Tap, r: { stderr: string }) => t.notMatch(r.stderr, /\n\s+at |ENOENT/, 'no stack trace, no raw errno');
  type Tap = typeof t;

  const links = join(home, 'links');
  await mkdir(join(links, 'sub'), { recursive: true });
  await writeFile(join(links, 'real.txt'), 'real content');
  await writeFile(join(links, 'sub', 'inner.txt'), 'inner');
  await symlink('real.txt', join(links, 'to-file'));
  await symlink('sub', join(links, 'to-dir'));
  await symlink('nowhere.txt', join(links, 'broken'));
  await symlink('.', join(links, 'loop'));

  t.test('symbolic links: reported and left out by default', async (t) => {
    const r = await cli(['cp', 'links', 'remote:l1/']);
    t.equal(r.code, 0, r.stderr);
    t.match(r.stderr, /^l1\/to-file: symbolic link to real\.txt, not copied \(--copy-links follows it, --links keeps it as a link\)$/m);
    for (const name of ['to-dir', 'broken', 'loop']) t.match(r.stderr, new RegExp(`^l1/${name}: symbolic link to `, 'm'));
    t.match(r.stdout, /^2 copied, 0 unchanged, 4 skipped \(4 link\(s\)\), 0 failed;/);
    t.same((await names('l1/')).sort(), ['l1/real.txt', 'l1/sub/inner.txt']);
    const json = JSON.parse((await cli(['cp', 'links', 'remote:l1/', '--json'])).stdout);
    t.match(
      json.files.filter((f: any) => f.decision === 'skip-link'),
      [{ name: 'l1/broken', target: 'nowhere.txt' }, { name: 'l1/loop', target: '.' }, { name: 'l1/to-dir' }, { name: 'l1/to-file', target: 'real.txt' }],
    );
    t.match(json.summary, { skipped: 4, links: 4, failed: 0 });
  });

  t.test('--copy-links follows them; a broken link and a loop fail on their own', async (t) => {
    const r = await cli(['cp', 'links', 'remote:l2/', '-L']);
    t.equal(r.code, 1, 'something failed');
    t.match(r.stderr, /^l2\/broken: broken_link: the link points at nothing \(nowhere\.txt\)$/m);
    t.match(r.stderr, /^l2\/loop: link_loop: the link leads back into a folder being copied/m);
    t.match(r.stdout, /^4 copied, 0 unchanged, 0 skipped, 2 failed;/);
    t.same((await names('l2/')).sort(), ['l2/real.txt', 'l2/sub/inner.txt', 'l2/to-dir/inner.txt', 'l2/to-file']);
    noTrace(t, r);
  });

  t.test('--links keeps them as links both ways (rclone .rclonelink files)', async (t) => {
    const up = await cli(['sync', 'links', 'remote:l3/', '--links']);
    t.equal(up.code, 0, up.stderr);
    t.same((await names('l3/')).sort(), [
      'l3/broken.rclonelink',
      'l3/loop.rclonelink',
      'l3/real.txt',
      'l3/sub/inner.txt',
      'l3/to-dir.rclonelink',
      'l3/to-file.rclonelink',
    ]);
    const down = await cli(['sync', 'remote:l3/', 'links-back', '-l']);
    t.equal(down.code, 0, down.stderr);
    for (const [name, target] of [
      ['to-file', 'real.txt'],
      ['to-dir', 'sub'],
      ['broken', 'nowhere.txt'],
      ['loop', '.'],
    ]) {
      t.ok((await lstat(join(home, 'links-back', name))).isSymbolicLink(), `${name} is a link again`);
      t.equal(await readlink(join(home, 'links-back', name)), target);
    }
    t.equal(await readFile(join(home, 'links-back', 'to-dir', 'inner.txt'), 'utf8'), 'inner', 'and it works');
    const again = await cli(['sync', 'links', 'remote:l3/', '--links']);
    t.match(again.stdout, /^0 copied, 6 unchanged/, 'a link file compares by its target');
    const plain = await cli(['cp', 'remote:l3/', 'links-plain']);
    t.equal(plain.code, 0, plain.stderr);
    t.equal(await readFile(join(home, 'links-plain', 'to-file.rclonelink'), 'utf8'), 'real.txt', 'without --links: a file holding the target');
  });

  t.test('a link brought down is never written through', async (t) => {
    await run('await files_write_text({ name: "trap/a.rclonelink", text: "../outside" }); return 1;');
    const down = await cli(['cp', 'remote:trap/', 'trap', '--links']);
    t.equal(down.code, 0, down.stderr);
    await run('await files_write_text({ name: "trap/a/escape.txt", text: "x" }); return 1;');
    const again = await cli(['cp', 'remote:trap/', 'trap', '--links', '--skip-existing']);
    t.equal(again.code, 1);
    t.match(again.stderr, /^trap\/a\/escape\.txt: path_conflict: /m);
    t.notOk(existsSync(join(home, 'outside', 'escape.txt')), 'nothing landed outside the folder');
  });

  t.test('a remote tree the local folder cannot hold as it is: per entry, the rest copies', async (t) => {
    const long = 'é'.repeat(200); // 200 characters, 400 bytes: the service takes it, ext4 and tmpfs (255 bytes) do not
    await run(
      `for (const [name, text] of ${JSON.stringify([
        ['clash/sub/inner.txt', 'inside sub'],
        [`clash/${long}.txt`, 'long'],
        ['clash/ok.txt', 'fine'],
        ['clash/z', 'file z'],
        ['clash/w/deep.txt', 'deep'],
      ])}) await files_write_text({ name, text }); return 1;`,
    );
    await mkdir(join(home, 'clash-out', 'z'), { recursive: true }); // a local folder where the remote has a file
    await writeFile(join(home, 'clash-out', 'w'), 'a local file where the remote has a folder');
    const r = await cli(['cp', 'remote:clash/', 'clash-out']);
    t.equal(r.code, 1, 'exit 1: not everything copied');
    t.match(r.stderr, new RegExp(`^clash/${long}\\.txt: name_too_long: the local file system cannot hold this name \\(a segment of 404 bytes`, 'm'));
    t.match(r.stderr, /^clash\/z: path_conflict: a file and a folder contend for this path/m);
    t.match(r.stderr, /^clash\/w\/deep\.txt: path_conflict: /m);
    t.match(r.stderr, /resolution: /);
    t.match(r.stdout, /^2 copied, 0 unchanged, 0 skipped, 3 failed;/, 'a summary at the end');
    t.equal(await readFile(join(home, 'clash-out', 'sub', 'inner.txt'), 'utf8'), 'inside sub');
    t.equal(await readFile(join(home, 'clash-out', 'ok.txt'), 'utf8'), 'fine');
    t.equal(await readFile(join(home, 'clash-out', 'w'), 'utf8'), 'a local file where the remote has a folder', 'nothing local overwritten');
    noTrace(t, r);
    const json = JSON.parse((await cli(['cp', 'remote:clash/', 'clash-json', '--json'])).stdout);
    t.match(json.summary, { copied: 4, failed: 1 });
    t.match(
      json.files.filter((f: any) => f.error).map((f: any) => f.error.code),
      ['name_too_long'],
    );
  });

  t.test('names that are one name on the service (NFC and NFD)', async (t) => {
    await mkdir(join(home, 'nf'));
    await writeFile(join(home, 'nf', 'caf\u00e9.txt'), 'composed');
    await writeFile(join(home, 'nf', 'cafe\u0301.txt'), 'decomposed');
    await writeFile(join(home, 'nf', 'plain.txt'), 'plain');
    const r = await cli(['cp', 'nf', 'remote:nf/']);
    t.equal(r.code, 1);
    t.match(r.stderr, /^nf\/caf\u00e9\.txt: name_clash: "caf\u00e9\.txt" and "cafe\u0301\.txt" are the same name on the service \(Unicode NFC\)$/m);
    t.match(r.stdout, /^2 copied, 0 unchanged, 0 skipped, 1 failed;/);
    t.same((await names('nf/')).sort(), ['nf/caf\u00e9.txt', 'nf/plain.txt'], 'the first spelling (NFD sorts first) went up, in NFC');
  });

  t.test('nothing to copy from: an error, not "0 copied"', async (t) => {
    const nope = await cli(['cp', 'remote:nope/', 'x']);
    t.equal(nope.code, 1);
    t.match(
      nope.stderr,
      /^error: source_not_found: remote:nope\/: no file of this name or in this folder\n {2}resolution: Check the path with `siglata ls --prefix …`/,
    );
    t.notOk(existsSync(join(home, 'x')), 'no folder made for it');
    const missing = await cli(['sync', 'no-such-dir', 'remote:x/']);
    t.equal(missing.code, 1);
    t.match(missing.stderr, /^error: source_not_found: no-such-dir: no such file or folder$/m);
    noTrace(t, missing);
    const pt = await cli(['cp', 'remote:nope', 'x', '--lang', 'pt-BR']);
    t.match(pt.stderr, /^erro: source_not_found: remote:nope: nenhum arquivo com este nome ou nesta pasta/);
  });

  t.test('remote:PATH is a folder, or one file', async (t) => {
    const folder = await cli(['cp', 'remote:clash/sub', 'as-folder']);
    t.equal(folder.code, 0, folder.stderr);
    t.equal(await readFile(join(home, 'as-folder', 'inner.txt'), 'utf8'), 'inside sub', 'remote:clash/sub is the folder sub/');
    const single = await cli(['cp', 'remote:clash/ok.txt', 'one']);
    t.equal(single.code, 0, single.stderr);
    t.equal(await readFile(join(home, 'one', 'ok.txt'), 'utf8'), 'fine', 'one file, into the folder under its own name');
    await mkdir(join(home, 'up'));
    await writeFile(join(home, 'up', 'u.txt'), 'up');
    const noSlash = await cli(['cp', 'up', 'remote:upped']);
    t.equal(noSlash.code, 0, noSlash.stderr);
    t.same(await names('upped'), ['upped/u.txt'], 'remote:upped is the folder upped/');
  });

  t.test('--dry-run says how many bytes it would move', async (t) => {
    await mkdir(join(home, 'dry'));
    await writeFile(join(home, 'dry', 'a.bin'), Buffer.alloc(1000));
    await writeFile(join(home, 'dry', 'b.bin'), Buffer.alloc(2345));
    const r = await cli(['cp', 'dry', 'remote:dry/', '-n']);
    t.equal(r.code, 0, r.stderr);
    t.match(r.stdout, /^new {2}dry\/a\.bin {2}\(1000 B\)$/m);
    t.match(r.stdout, /^2 to copy, 0 unchanged, 0 skipped, 0 failed; 3\.3 KiB to transfer \(3345 bytes\); 1 request\(s\)/m);
    t.match(JSON.parse((await cli(['cp', 'dry', 'remote:dry/', '--dry-run', '--json'])).stdout).summary, { planned: 2, bytes: 3345, copied: 0 });
    t.same(await names('dry/'), [], 'and moved nothing');
  });
});
