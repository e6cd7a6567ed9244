// How cp / sync judge a file unchanged, as rclone does: size and modification time within the modify window (a
// time-only difference settled by the CRC-32, which then only sets the destination's time), or --checksum,
// --size-only, --ignore-times, --update. And `upload` / `download` keep the time and the executable bit too.
import t from 'tap';
import { chmod, mkdir, mkdtemp, readFile, stat, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTestApp } from '../helpers/app.ts';
import { http } from '../helpers/http.ts';
import { decide, DEFAULT_COMPARISON, type Comparison, type Side } from '../../cli/transfer/plan.ts';
import { parseWindow } from '../../cli/commands/cp-run.ts';
import { runCli } from './run-cli.ts';

const side = (size: number, mtimeMs: number | null, crc: string | null): Side => ({ size, mtimeMs, crc32: async () => crc });

t.test('the rules, one by one', async (t) => {
  const c = (over: Partial<Comparison> = {}): Comparison => ({ ...DEFAULT_COMPARISON, ...over });
  const at = 1_700_000_000_000;
  t.match(await decide(side(5, at, 'aa'), null, c(), 'overwrite'), { decision: 'new' });
  t.match(await decide(side(5, at, 'aa'), side(5, at + 900, 'bb'), c(), 'overwrite'), { decision: 'unchanged', touch: false }, 'within the 1 s window');
  t.match(await decide(side(5, at, 'aa'), side(6, at, 'aa'), c(), 'overwrite'), { decision: 'replace' }, 'size differs');
  t.match(await decide(side(5, at, 'aa'), side(5, at + 5000, 'aa'), c(), 'overwrite'), { decision: 'unchanged', touch: true }, 'time only: set it');
  t.match(await decide(side(5, at, 'aa'), side(5, at + 5000, 'bb'), c(), 'overwrite'), { decision: 'replace' }, 'time and content');
  t.match(await decide(side(5, at, 'aa'), side(5, at + 5000, null), c(), 'fail'), { decision: 'exists' }, 'no checksum: the time decides');
  t.match(await decide(side(5, at, 'aa'), side(5, at, 'bb'), c({ mode: 'checksum' }), 'skip'), { decision: 'skip-existing' });
  t.match(await decide(side(5, at, 'aa'), side(5, at + 9e6, 'aa'), c({ mode: 'checksum' }), 'overwrite'), { decision: 'unchanged', touch: false });
  t.match(await decide(side(5, at, 'aa'), side(5, at + 9e6, 'bb'), c({ mode: 'size-only' }), 'overwrite'), { decision: 'unchanged' });
  t.match(await decide(side(5, at, 'aa'), side(5, at, 'aa'), c({ mode: 'ignore-times' }), 'overwrite'), { decision: 'replace' });
  t.match(await decide(side(5, at, 'aa'), side(9, at + 5000, 'bb'), c({ update: true }), 'overwrite'), { decision: 'skip-newer' }, '--update');
  t.match(await decide(side(5, at, 'aa'), side(5, at + 400, 'bb'), c({ windowMs: 1 }), 'overwrite'), { decision: 'replace' }, 'a narrower window');
  t.same([parseWindow('2s'), parseWindow('500ms'), parseWindow('1m'), parseWindow('3')], [2000, 500, 60_000, 3000]);
  t.throws(() => parseWindow('soon'), { code: 'usage' });
});

t.test('on a real copy', async (t) => {
  const app = await startTestApp(t, { env: { RATE_LIMIT_MAX: '100000' } });
  const token = await app.token({ email: 'compare@cli.example', org: 'compare-org' });
  const home = await mkdtemp(join(tmpdir(), 'siglata-compare-'));
  const env = { SIGLATA_CONFIG_DIR: join(home, 'config'), SIGLATA_SERVER: app.url, SIGLATA_TOKEN: token, SIGLATA_LANG: undefined };
  const cli = (args: string[]) => runCli(args, { env, cwd: home });
  const summary = async (args: string[]) => {
    const r = await cli([...args, '--json']);
    t.equal(r.code, 0, r.stderr);
    return JSON.parse(r.stdout).summary;
  };
  const src = join(home, 'src');
  await mkdir(src);
  const when = new Date(Date.UTC(2024, 2, 3, 4, 5, 6));
  for (const name of ['a.txt', 'b.txt', 'c.txt']) {
    await writeFile(join(src, name), `${name} v1`);
    await utimes(join(src, name), when, when);
  }
  t.match(await summary(['sync', 'src', 'remote:cmp/']), { copied: 3 });

  // Same size, same second, other content: by time it looks unchanged (as in rclone); --checksum sees it.
  await writeFile(join(src, 'a.txt'), 'a.txt v2');
  await utimes(join(src, 'a.txt'), when, when);
  t.match(await summary(['sync', 'src', 'remote:cmp/']), { copied: 0, unchanged: 3 });
  t.match(await summary(['sync', 'src', 'remote:cmp/', '--checksum']), { copied: 1, unchanged: 2 });
  t.match(await summary(['sync', 'src', 'remote:cmp/', '--size-only']), { copied: 0 });
  t.match(await summary(['sync', 'src', 'remote:cmp/', '--ignore-times']), { copied: 3 });

  // A newer file on the destination: --update keeps it.
  await summary(['sync', 'remote:cmp/', 'dst']);
  await writeFile(join(home, 'dst', 'b.txt'), 'edited here, later');
  const out = await cli(['sync', 'src', 'remote:cmp/', '--update', '--json']);
  t.match(JSON.parse(out.stdout).summary, { copied: 0, skipped: 0 }, 'the source is not newer than the remote');
  const down = await cli(['sync', 'remote:cmp/', 'dst', '--update', '--json']);
  const rows = JSON.parse(down.stdout).files;
  t.match(
    rows.find((r: any) => r.name === 'cmp/b.txt'),
    { decision: 'skip-newer' },
  );
  t.equal(await readFile(join(home, 'dst', 'b.txt'), 'utf8'), 'edited here, later', 'kept');

  const bad = await cli(['sync', 'src', 'remote:cmp/', '--checksum', '--size-only']);
  t.equal(bad.code, 2, 'two rules at once is a usage error');
});

t.test('upload and download keep the time and the executable bit', async (t) => {
  const app = await startTestApp(t, { env: { RATE_LIMIT_MAX: '100000' } });
  const token = await app.token({ email: 'meta@cli.example', org: 'meta-org' });
  const home = await mkdtemp(join(tmpdir(), 'siglata-meta-'));
  const env = { SIGLATA_CONFIG_DIR: join(home, 'config'), SIGLATA_SERVER: app.url, SIGLATA_TOKEN: token, SIGLATA_LANG: undefined };
  const cli = (args: string[]) => runCli(args, { env, cwd: home });
  await writeFile(join(home, 'tool.sh'), '#!/bin/sh\n');
  await chmod(join(home, 'tool.sh'), 0o750);
  const when = new Date(Date.UTC(2023, 6, 7, 8, 9, 10, 456));
  await utimes(join(home, 'tool.sh'), when, when);
  const up = await cli(['upload', 'tool.sh', '--name', 'bin/tool.sh', '--json']);
  t.equal(up.code, 0, up.stderr);
  t.match(JSON.parse(up.stdout), { modifiedAt: '2023-07-07T08:09:10.456Z', executable: true });
  const res = await http(`${app.url}/app/v1/execute`, {
    token,
    json: { mode: 'run', script: 'return (await files_get({ name: "bin/tool.sh" })).modifiedAt;' },
  });
  t.equal(res.body.result, '2023-07-07T08:09:10.456Z', 'kept to the millisecond');
  const down = await cli(['download', 'bin/tool.sh', '-o', 'back.sh']);
  t.equal(down.code, 0, down.stderr);
  const st = await stat(join(home, 'back.sh'));
  t.equal(st.mtimeMs, when.getTime());
  t.equal(st.mode & 0o100, 0o100, 'executable');
});
