// Archives both ways: a generated tree (hundreds of small files in nested folders, Unicode names sent in NFD, case
// twins, empty files, files at and just past the 8 MiB part boundary) sent as a tar and as a zip through the
// ordinary part route, imported with files_import, and exported again with files_export: the same names (NFC), the
// same bytes, the tar entries' times and modes.
import t from 'tap';
import { randomBytes } from 'node:crypto';
import { startTestApp } from '../helpers/app.ts';
import { callerFor, caller as as } from '../helpers/callers.ts';
import { files_import } from '../../runtime-api/bindings/files/files_import.ts';
import { files_export } from '../../runtime-api/bindings/files/files_export.ts';
import { files_list } from '../../runtime-api/bindings/files/files_list.ts';
import { upload_status } from '../../runtime-api/bindings/uploads/upload_status.ts';
import { invokeWholeList } from '../../runtime-api/services/whole-list.ts';
import { invokeDeps } from '../../server/deps.ts';
import { PART, download } from './transfer-helpers.ts';
import { fetchBytes, makeTar, makeZip, readTar, readZip, sha, uploadArchive } from './archive-helpers.ts';

interface TreeFile {
  /** As the archive spells it. */
  name: string;
  /** As the catalogue must hold it. */
  stored: string;
  data: Buffer;
  mode: number;
}

function tree(): TreeFile[] {
  const files: TreeFile[] = [];
  const add = (name: string, data: Buffer | string, mode = 0o644) => files.push({ name, stored: name.normalize('NFC'), data: Buffer.from(data), mode });
  for (let i = 0; i < 300; i++) add(`docs/part-${i % 7}/chapter-${i % 11}/note-${i}.txt`, `note ${i}\n`.repeat(i % 40)); // every 40th is empty
  add('unicode/cafe\u0301.txt', 'written in NFD'); // é as e + combining acute
  add('unicode/na\u00efve.md', 'written in NFC');
  add('unicode/\u65e5\u672c\u8a9e/\u30d5\u30a1\u30a4\u30eb.txt', 'japanese');
  add('Case/README.md', 'upper');
  add('Case/readme.md', 'lower');
  add('empty/nothing.bin', '');
  add('bin/run.sh', '#!/bin/sh\necho hi\n', 0o755);
  const boundary = randomBytes(PART); // incompressible, as most large files are: the zip is no bomb
  add('big/exactly-8MiB.bin', boundary);
  add('big/one-past-8MiB.bin', Buffer.concat([boundary, Buffer.from('!')]));
  return files;
}

const MTIME = new Date('2025-06-07T08:09:10Z');

t.test('archive round trips', async (t) => {
  const app = await startTestApp(t);
  const files = tree();
  const expected = new Map(files.map((f) => [f.stored, f]));

  async function listAll(c: Awaited<ReturnType<typeof callerFor>>, prefix?: string) {
    return invokeWholeList(files_list, { state: 'active', ...(prefix ? { prefix } : {}) }, c, invokeDeps(app.deps)) as Promise<
      { fileId: string; name: string; sha256: string | null; mediaType: string; modifiedAt: string; executable: boolean }[]
    >;
  }

  t.test('tar: import a generated tree, then export it back', async (t) => {
    const ana = await callerFor(app, { email: 'ana@example.com', org: 'tar-org' });
    const call = as(app, ana);
    const archive = await makeTar(files.map((f) => ({ name: f.name, data: f.data, mode: f.mode, mtime: MTIME })));
    t.ok(archive.length > 2 * PART, 'the archive spans three parts of the upload');
    const uploadId = await uploadArchive(app, ana, archive, 'tree.tar');
    const result = await call(files_import, { uploadId });
    t.equal(result.format, 'tar');
    t.same([result.created, result.replaced, result.unchanged, result.refused], [files.length, 0, 0, 0]);
    t.equal(
      result.bytes,
      files.reduce((n, f) => n + f.data.length, 0),
    );
    t.equal(result.entries.length, files.length, 'one report line per file, none for folders');
    t.same(
      result.entries.map((e) => e.path),
      files.map((f) => f.stored),
      'in archive order, NFC',
    );
    t.ok(
      result.entries.every((e) => e.status === 'created' && e.fileId?.startsWith('fil_') && e.code === null && e.message === null),
      'every entry created',
    );
    t.equal((await call(upload_status, { uploadId })).state, 'imported', 'the reservation is consumed');

    const listed = await listAll(ana);
    t.equal(listed.length, files.length);
    for (const f of listed) {
      const want = expected.get(f.name);
      if (!want) {
        t.fail(`unexpected file ${f.name}`);
        continue;
      }
      if (f.sha256 !== sha(want.data)) t.fail(`${f.name}: content differs`);
    }
    t.ok(
      listed.some((f) => f.name === 'unicode/caf\u00e9.txt'),
      'an NFD name is stored in NFC',
    );
    t.ok(listed.some((f) => f.name === 'Case/README.md') && listed.some((f) => f.name === 'Case/readme.md'), 'case twins are two files');
    t.equal(listed.find((f) => f.name === 'docs/part-0/chapter-0/note-0.txt')?.mediaType, 'text/plain; charset=utf-8', 'media type from the extension');
    t.ok(
      listed.every((f) => f.modifiedAt === MTIME.toISOString()),
      "each entry's mtime is its file's modifiedAt",
    );
    t.same(
      listed.filter((f) => f.executable).map((f) => f.name),
      ['bin/run.sh'],
      'mode 0755 makes a file executable',
    );
    for (const name of ['big/exactly-8MiB.bin', 'big/one-past-8MiB.bin', 'empty/nothing.bin']) {
      const got = await download(app, ana.token, listed.find((f) => f.name === name)!.fileId);
      t.equal(sha(got.body), sha(expected.get(name)!.data), `${name} downloads byte for byte`);
    }

    const exported = await call(files_export, { prefix: 'docs/' });
    t.match(exported, { format: 'tar', count: 300, bytes: files.filter((f) => f.name.startsWith('docs/')).reduce((n, f) => n + f.data.length, 0) });
    t.equal(exported.id, exported.exportId);
    t.match(exported.downloadUrl, new RegExp(`^${app.url}/v1/mcp/files/exports/exp_[a-z2-7]{26}/download$`));
    const got = await fetchBytes(exported.downloadUrl, ana.token);
    t.equal(got.status, 200);
    t.equal(got.headers['content-type'], 'application/x-tar');
    t.match(String(got.headers['content-disposition']), /^attachment; filename="?docs\.tar"?$/);
    const entries = await readTar(got.body);
    t.equal(entries.length, 300);
    for (const e of entries) {
      const want = expected.get(`docs/${e.name}`);
      if (!want || !e.data.equals(want.data)) t.fail(`${e.name}: not the imported bytes`);
      if (e.mode !== 0o644) t.fail(`${e.name}: mode ${e.mode.toString(8)}`);
      if (e.mtime.getTime() !== MTIME.getTime()) t.fail(`${e.name}: mtime ${e.mtime.toISOString()}`);
    }
    t.same(
      entries.map((e) => e.name),
      [...entries.map((e) => e.name)].sort(),
      'names relative to the prefix, in name order',
    );

    const whole = await readTar((await fetchBytes((await call(files_export, {})).downloadUrl, ana.token)).body);
    t.equal(whole.length, files.length, 'without a prefix: every active file, under its full path');
    const big = whole.find((e) => e.name === 'big/one-past-8MiB.bin');
    t.equal(big && sha(big.data), sha(expected.get('big/one-past-8MiB.bin')!.data), 'a file past 8 MiB streams whole');
    t.equal(whole.find((e) => e.name === 'bin/run.sh')?.mode, 0o755, 'an executable file exports with mode 0755');

    const again = await call(files_import, { uploadId: await uploadArchive(app, ana, archive, 'tree.tar') });
    t.same([again.created, again.replaced, again.unchanged], [0, 0, files.length], 'the same tree again: nothing rewritten');
    const changed = await makeTar([
      { name: 'Case/README.md', data: 'upper, edited' },
      { name: 'new/file.txt', data: 'new' },
      { name: 'empty/nothing.bin', data: '' },
    ]);
    const third = await call(files_import, { uploadId: await uploadArchive(app, ana, changed, 'changes.tar') });
    t.same(
      third.entries.map((e) => [e.path, e.status]),
      [
        ['Case/README.md', 'replaced'],
        ['new/file.txt', 'created'],
        ['empty/nothing.bin', 'unchanged'],
      ],
    );
    const trashed = (await call(files_list, { state: 'trashed' })) as { items: { name: string; sha256: string }[] };
    t.same(
      trashed.items.map((f) => [f.name, f.sha256]),
      [['Case/README.md', sha('upper')]],
      'the replaced version is in the trash',
    );
  });

  t.test('zip: import under a folder over REST, then export that folder as zip', async (t) => {
    const bea = await callerFor(app, { email: 'bea@example.com', org: 'zip-org' });
    const archive = await makeZip(files.map((f) => ({ name: f.name, data: f.data, mode: 0o100000 | f.mode })));
    const uploadId = await uploadArchive(app, bea, archive, 'tree.zip');
    const res = await fetch(`${app.url}/app/v1/files/import`, {
      method: 'POST',
      headers: { authorization: `Bearer ${bea.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ uploadId, into: 'restored/' }),
    });
    t.equal(res.status, 200);
    const result = (await res.json()) as { format: string; created: number; entries: { path: string }[] };
    t.equal(result.format, 'zip');
    t.equal(result.created, files.length);
    t.equal(result.entries[0].path, `restored/${files[0].stored}`, 'under `into`');

    const listed = await listAll(bea, 'restored/');
    t.equal(listed.length, files.length);
    for (const f of listed) {
      const want = expected.get(f.name.slice('restored/'.length));
      if (!want || f.sha256 !== sha(want.data)) t.fail(`${f.name}: content differs`);
    }

    const exp = await fetch(`${app.url}/app/v1/files/export`, {
      method: 'POST',
      headers: { authorization: `Bearer ${bea.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ prefix: 'restored', format: 'zip' }),
    });
    t.equal(exp.status, 200);
    const exported = (await exp.json()) as { downloadUrl: string };
    t.match(exported, { format: 'zip', count: files.length });
    const got = await fetchBytes(exported.downloadUrl, bea.token);
    t.equal(got.status, 200);
    t.equal(got.headers['content-type'], 'application/zip');
    const entries = await readZip(got.body);
    t.same(entries.map((e) => e.name).sort(), files.map((f) => f.stored).sort(), 'names relative to the prefix, NFC');
    for (const e of entries) if (!e.data.equals(expected.get(e.name)!.data)) t.fail(`${e.name}: not the imported bytes`);
    t.same(
      entries.filter((e) => e.mode !== 0o100644).map((e) => [e.name, e.mode]),
      [['bin/run.sh', 0o100755]],
      'regular files, mode 0644, the executable one 0755',
    );
  });
});
