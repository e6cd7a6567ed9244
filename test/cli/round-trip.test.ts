// A generated tree of thousands of small files up and down again at the DEFAULT rate limit, the way a person moves a
// project: symbolic links (kept as links), deep paths, Unicode names in NFC and NFD, case twins, executable files,
// empty files and assorted modification times. What comes back has the same bytes, times (to the second, as tar keeps
// them) and executable bits; each way costs a handful of requests; a second sync with nothing changed costs one.
import t from 'tap';
import { chmod, lstat, mkdir, mkdtemp, readFile, readdir, readlink, stat, symlink, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { startTestApp } from '../helpers/app.ts';
import { runCli } from './run-cli.ts';

const FILES = 3_000;

/** A small deterministic generator: the same tree every run. */
function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 4294967296;
  };
}

interface Seen {
  kind: 'file' | 'link';
  /** sha-free: the bytes themselves (the files are small), or the link's target. */
  content: string;
  second: number;
  executable: boolean;
}

/** Every file and link under root, by NFC relative path (the service keeps names in NFC). */
async function snapshot(root: string): Promise<Map<string, Seen>> {
  const out = new Map<string, Seen>();
  for (const e of await readdir(root, { recursive: true, withFileTypes: true })) {
    const abs = join(e.parentPath, e.name);
    const rel = relative(root, abs).normalize('NFC');
    if (e.isSymbolicLink()) out.set(rel, { kind: 'link', content: await readlink(abs), second: 0, executable: false });
    else if (e.isFile()) {
      const st = await stat(abs);
      out.set(rel, {
        kind: 'file',
        content: (await readFile(abs)).toString('base64'),
        second: Math.floor(st.mtimeMs / 1000),
        executable: (st.mode & 0o100) !== 0,
      });
    }
  }
  return out;
}

t.test('a tree of thousands of small files, up and down', async (t) => {
  const app = await startTestApp(t); // the default rate limit: 120 requests per minute per token
  const token = await app.token({ email: 'roundtrip@cli.example', org: 'roundtrip-org' });
  const home = await mkdtemp(join(tmpdir(), 'siglata-roundtrip-'));
  const env = { SIGLATA_CONFIG_DIR: join(home, 'config'), SIGLATA_SERVER: app.url, SIGLATA_TOKEN: token, SIGLATA_LANG: undefined };
  const cli = (args: string[]) => runCli(args, { env, cwd: home });
  const tree = join(home, 'tree');
  const next = random(7);
  const base = Date.UTC(2024, 0, 1);

  // Ordinary files in nested folders.
  for (let i = 0; i < FILES; i++) {
    const dir = join(tree, `d${i % 25}`, i % 4 === 0 ? `e${i % 9}` : '');
    await mkdir(dir, { recursive: true });
    const path = join(dir, `f${i}.dat`);
    await writeFile(path, Buffer.from(Array.from({ length: 200 + Math.floor(next() * 2000) }, () => Math.floor(next() * 256))));
    const when = new Date(base + Math.floor(next() * 3e10) + 123); // milliseconds too: tar keeps the second
    await utimes(path, when, when);
    if (i % 50 === 0) await chmod(path, 0o755);
  }
  // The awkward ones.
  const deep = join(tree, ...Array.from({ length: 30 }, (_, i) => `level${i}`));
  await mkdir(deep, { recursive: true });
  await writeFile(join(deep, 'bottom.txt'), 'at the bottom');
  await mkdir(join(tree, 'unicode'));
  await writeFile(join(tree, 'unicode', 'caf\u00e9 NFC.txt'), 'composed');
  await writeFile(join(tree, 'unicode', 'Cre\u0300me bru\u0302le\u0301e NFD.txt'), 'decomposed'); // as a copy from macOS has it
  await writeFile(join(tree, 'unicode', '日本語のファイル.txt'), 'nihongo');
  await writeFile(join(tree, 'unicode', 'emoji 🎉.txt'), 'party');
  await mkdir(join(tree, 'case'));
  for (const [name, text] of [
    ['README', 'upper'],
    ['readme', 'lower'],
    ['A.txt', 'big a'],
    ['a.txt', 'small a'],
  ])
    await writeFile(join(tree, 'case', name), text);
  await writeFile(join(tree, 'empty'), '');
  await writeFile(join(tree, 'run.sh'), '#!/bin/sh\necho ok\n', { mode: 0o755 });
  await symlink('run.sh', join(tree, 'run-link'));
  await symlink('d1', join(tree, 'dir-link'));
  await symlink('../outside-the-tree', join(tree, 'dangling'));

  const before = await snapshot(tree);
  t.ok(before.size > FILES, `${before.size} entries`);

  t.test('up: a handful of requests', async (t) => {
    const up = await cli(['sync', 'tree', 'remote:rt/', '--links', '--json']);
    t.equal(up.code, 0, up.stderr.slice(-500));
    const { summary } = JSON.parse(up.stdout);
    t.equal(summary.copied, before.size, 'every file and link');
    t.equal(summary.failed, 0);
    t.ok(summary.requests <= 12, `${summary.requests} requests for ${before.size} files`);
    t.notMatch(up.stderr, /Rate limited/, 'never waited for the rate limit');
  });

  t.test('down: the same tree, bytes, times, executable bits and links', async (t) => {
    const down = await cli(['sync', 'remote:rt/', 'back', '--links', '--json']);
    t.equal(down.code, 0, down.stderr.slice(-500));
    const { summary } = JSON.parse(down.stdout);
    t.equal(summary.copied, before.size);
    t.ok(summary.requests <= 6, `${summary.requests} requests`);
    const after = await snapshot(join(home, 'back'));
    t.same([...after.keys()].sort(), [...before.keys()].sort(), 'the same names (NFD ones come back in NFC)');
    const differ = [...before].filter(([rel, seen]) => JSON.stringify(after.get(rel)) !== JSON.stringify(seen)).map(([rel]) => rel);
    t.same(differ, [], 'every entry the same');
    t.equal((await stat(join(home, 'back', 'run.sh'))).mode & 0o111, 0o111, 'run.sh is executable');
    t.ok((await lstat(join(home, 'back', 'dir-link'))).isSymbolicLink());
    t.equal(await readFile(join(home, 'back', 'case', 'README'), 'utf8'), 'upper', 'case twins both there');
    t.equal(await readFile(join(home, 'back', 'case', 'readme'), 'utf8'), 'lower');
  });

  t.test('again with nothing changed: one request each way', async (t) => {
    const up = JSON.parse((await cli(['sync', 'tree', 'remote:rt/', '--links', '--json'])).stdout).summary;
    t.match(up, { copied: 0, failed: 0, unchanged: before.size });
    t.ok(up.requests <= 3, `${up.requests} request(s) up`);
    const down = JSON.parse((await cli(['sync', 'remote:rt/', 'back', '--links', '--json'])).stdout).summary;
    t.match(down, { copied: 0, failed: 0, unchanged: before.size });
    t.ok(down.requests <= 3, `${down.requests} request(s) down`);
  });

  t.test('a change of content, of time only, and a new file', async (t) => {
    await writeFile(join(tree, 'd3', 'f3.dat'), 'new content, new size');
    const touched = join(tree, 'd5', 'f5.dat');
    const later = new Date(Date.UTC(2025, 5, 1));
    await utimes(touched, later, later);
    await writeFile(join(tree, 'new.txt'), 'new');
    const up = await cli(['sync', 'tree', 'remote:rt/', '--links', '--json']);
    t.equal(up.code, 0, up.stderr);
    const out = JSON.parse(up.stdout);
    t.match(out.summary, { copied: 2, unchanged: before.size - 1 }, 'the changed and the new file; the touched one only gets its time');
    t.ok(out.summary.requests <= 8, `${out.summary.requests} requests`);
    const down = await cli(['sync', 'remote:rt/', 'back', '--links', '--json']);
    t.match(JSON.parse(down.stdout).summary, { copied: 2 });
    t.equal(Math.floor((await stat(join(home, 'back', 'd5', 'f5.dat'))).mtimeMs / 1000), later.getTime() / 1000, 'the new time came down');
  });
});
