// The CLI's tar both ways, in-process: what packArchive builds, extractArchive unpacks with the same bytes, whole-
// second modification times and the executable bit; an entry whose name the local file system refuses or whose bytes
// do not match the catalogue is reported on its own while the others land; unwanted entries are read past.
import t from 'tap';
import { mkdtemp, readFile, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { crc32 } from 'node:zlib';
import { archiveChunks, ARCHIVE_BYTES, packArchive, type PackItem } from '../../cli/transfer/archive-pack.ts';
import { extractArchive, type Outcome, type Wanted } from '../../cli/transfer/archive-extract.ts';
import { FolderMaker } from '../../cli/transfer/local-write.ts';

const crcHex = (b: Buffer) => crc32(b).toString(16).padStart(8, '0');
const item = (name: string, data: Buffer, mtimeMs: number, executable = false): PackItem => ({
  name,
  size: data.length,
  mtimeMs,
  executable,
  read: async () => data,
});

t.test('pack, then unpack while it streams', async (t) => {
  const long = 'é'.repeat(200);
  const files: [string, Buffer, number, boolean][] = [
    ['top/run.sh', Buffer.from('#!/bin/sh\necho hi\n'), Date.UTC(2024, 4, 1, 12, 0, 0, 750), true],
    ['top/a/b/c/d/e/f/g/deep ünïcödé.txt', Buffer.from('deep'), Date.UTC(2023, 0, 2), false],
    [`top/${long}.txt`, Buffer.from('long'), Date.UTC(2022, 5, 6), false],
    ['top/bad.bin', Buffer.from('corrupted on the way'), Date.UTC(2021, 1, 1), false],
    ['top/empty', Buffer.alloc(0), Date.UTC(2020, 1, 1), false],
    ['top/not-asked-for.bin', Buffer.alloc(5000, 1), Date.UTC(2020, 1, 1), false],
  ];
  const unreadable: PackItem = {
    name: 'top/gone.txt',
    size: 3,
    mtimeMs: 0,
    executable: false,
    read: async () => Promise.reject(Object.assign(new Error('gone'), { code: 'ENOENT' })),
  };
  const { archive, packed, failed } = await packArchive([...files.map(([n, d, m, x]) => item(n, d, m, x)), unreadable]);
  t.equal(packed.length, files.length);
  t.match(failed, [{ item: { name: 'top/gone.txt' }, error: { code: 'ENOENT' } }], 'an unreadable file is left out and reported');

  const root = await mkdtemp(join(tmpdir(), 'siglata-archive-'));
  const folders = new FolderMaker(root, { throughLinks: false });
  const outcomes = new Map<string, Outcome>();
  const want = (name: string): Wanted | undefined => {
    const f = files.find(([n]) => n === name);
    if (!f || name === 'top/not-asked-for.bin') return undefined;
    return {
      path: join(root, ...name.split('/')),
      name,
      size: f[1].length,
      crc32: name === 'top/bad.bin' ? '00000000' : crcHex(f[1]),
      executable: f[3],
    };
  };
  // In small pieces, as a network hands it over.
  const pieces = Array.from({ length: Math.ceil(archive.length / 1000) }, (_, i) => archive.subarray(i * 1000, (i + 1) * 1000));
  await extractArchive(Readable.from(pieces), folders, want, (w, o) => outcomes.set(w.name, o));

  const run = join(root, 'top', 'run.sh');
  t.equal(await readFile(run, 'utf8'), '#!/bin/sh\necho hi\n');
  t.equal((await stat(run)).mtimeMs, Date.UTC(2024, 4, 1, 12, 0, 0), 'the time, to the second');
  t.equal((await stat(run)).mode & 0o777, 0o755, 'executable');
  const deep = join(root, 'top', 'a', 'b', 'c', 'd', 'e', 'f', 'g', 'deep ünïcödé.txt');
  t.equal(await readFile(deep, 'utf8'), 'deep');
  t.equal((await stat(deep)).mode & 0o777, 0o644);
  t.equal((await stat(join(root, 'top', 'empty'))).size, 0);
  t.match(outcomes.get(`top/${long}.txt`), { ok: false, error: { code: 'name_too_long' } });
  t.match(outcomes.get('top/bad.bin'), { ok: false, error: { code: 'digest_mismatch' } });
  t.notOk(outcomes.has('top/not-asked-for.bin'));
  t.equal([...outcomes.values()].filter((o) => o.ok).length, 3);
});

t.test('chunks', async (t) => {
  const sizes = [ARCHIVE_BYTES - 10, 20, 5, ARCHIVE_BYTES + 1];
  t.same(
    archiveChunks(
      sizes.map((size) => ({ size })),
      (i) => i.size,
    ).map((c) => c.map((i) => i.size)),
    [[ARCHIVE_BYTES - 10], [20, 5], [ARCHIVE_BYTES + 1]],
  );
});
