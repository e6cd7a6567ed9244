// Hostile archives: entries that climb out, are absolute, carry backslashes or control characters, links, devices,
// duplicates (also after NFC), file/folder clashes with each other and with the catalogue; archives that are too
// many, too large, bombs by ratio or by overlapping entries, damaged, truncated, or no archive at all. With onError
// "abort" nothing is written and the upload can be imported again; with "skip" the rest is written and every
// refused entry reported.
import t from 'tap';
import { randomBytes } from 'node:crypto';
import { startTestApp } from '../helpers/app.ts';
import { callerFor, caller as as } from '../helpers/callers.ts';
import type { ServiceError } from '../../runtime-api/errors.ts';
import { files_import } from '../../runtime-api/bindings/files/files_import.ts';
import { files_list } from '../../runtime-api/bindings/files/files_list.ts';
import { files_write_text } from '../../runtime-api/bindings/files/files_write_text.ts';
import { upload_begin } from '../../runtime-api/bindings/uploads/upload_begin.ts';
import { upload_complete } from '../../runtime-api/bindings/uploads/upload_complete.ts';
import { upload_status } from '../../runtime-api/bindings/uploads/upload_status.ts';
import { makeTar, makeZip, overlappingZip, patch, uploadArchive } from './archive-helpers.ts';
import { MiB, PART, putPart } from './transfer-helpers.ts';

const fail = (p: Promise<unknown>) =>
  p.then(
    () => {
      throw new Error('expected a ServiceError');
    },
    (e) => e as ServiceError,
  );

type Result = {
  created: number;
  refused: number;
  entries: { path: string; status: string; code: string | null; message: string | null; fileId: string | null }[];
};

/** path → code for every refused entry. */
const refusals = (r: Result) => Object.fromEntries(r.entries.filter((e) => e.status === 'refused').map((e) => [e.path, e.code]));

t.test('hostile archives', async (t) => {
  const app = await startTestApp(t);
  let n = 0;
  const fresh = async () => {
    const c = await callerFor(app, { email: `h${++n}@example.com`, org: `hostile-${n}` });
    return { c, call: as(app, c) };
  };
  const names = async (call: ReturnType<typeof as>) =>
    ((await call(files_list, { limit: 1000 })) as { items: { name: string }[] }).items.map((f) => f.name).sort();

  const hostileTar = () =>
    makeTar([
      { name: 'good/ok.txt', data: 'ok' },
      { name: '../escape.txt', data: 'x' },
      { name: 'a/../../escape2.txt', data: 'x' },
      { name: '/etc/passwd', data: 'x' },
      { name: 'C:/windows/evil.txt', data: 'x' },
      { name: 'dir\\evil.txt', data: 'x' },
      { name: 'ctl\u0001.txt', data: 'x' },
      { name: 'a//b.txt', data: 'x' },
      { name: './dotted/./x.txt', data: 'x' },
      { name: './lead.txt', data: 'leading ./ is dropped' },
      { name: 'link', type: 'symlink', linkname: '/etc/passwd' },
      { name: 'hard', type: 'link', linkname: 'good/ok.txt' },
      { name: 'dev/null', type: 'character-device' },
      { name: 'pipe', type: 'fifo' },
      { name: 'good/ok.txt', data: 'again' },
      { name: 'caf\u00e9.txt', data: 'nfc' },
      { name: 'cafe\u0301.txt', data: 'nfd twin' },
      { name: 'clash', data: 'a file first' },
      { name: 'clash/inner.txt', data: 'then under it' },
      { name: 'other/inner.txt', data: 'a folder first' },
      { name: 'other', data: 'then a file' },
      { name: `${'x'.repeat(300)}.txt`, data: 'long' },
      { name: 'taken/inside.txt', data: 'under an active file' },
      { name: 'folder', data: 'where active files make a folder' },
      { name: 'Good/OK.txt', data: 'a case twin is fine' },
    ]);
  const hostileCodes = {
    '../escape.txt': 'path_climbs_out',
    'a/../../escape2.txt': 'path_climbs_out',
    '/etc/passwd': 'absolute_path',
    'C:/windows/evil.txt': 'absolute_path',
    'dir\\evil.txt': 'invalid_path',
    'ctl\\u0001.txt': 'invalid_path',
    'a//b.txt': 'invalid_path',
    './dotted/./x.txt': 'invalid_path',
    link: 'symlink_refused',
    hard: 'hardlink_refused',
    'dev/null': 'special_file_refused',
    pipe: 'special_file_refused',
    'good/ok.txt': 'duplicate_path',
    'caf\u00e9.txt': 'duplicate_path',
    'clash/inner.txt': 'path_conflict',
    other: 'path_conflict',
    [`${'x'.repeat(300)}…`]: 'path_too_long', // refused for its name: reported as the archive spells it, shortened
    'taken/inside.txt': 'path_conflict',
    folder: 'path_conflict',
  };
  const withCatalogue = async (call: ReturnType<typeof as>) => {
    await call(files_write_text, { name: 'taken', text: 'an active file' });
    await call(files_write_text, { name: 'folder/y.txt', text: 'makes `folder` a folder' });
  };

  t.test('tar, onError "skip": the good entries are written, every hostile one reported', async (t) => {
    const { c, call } = await fresh();
    await withCatalogue(call);
    const r = (await call(files_import, { uploadId: await uploadArchive(app, c, await hostileTar()), onError: 'skip' })) as Result;
    t.same(refusals(r), hostileCodes);
    t.equal(r.created, 6);
    t.equal(r.refused, Object.keys(hostileCodes).length);
    t.same(await names(call), ['Good/OK.txt', 'caf\u00e9.txt', 'clash', 'folder/y.txt', 'good/ok.txt', 'lead.txt', 'other/inner.txt', 'taken'].sort());
    const refused = r.entries.filter((e) => e.status === 'refused');
    t.ok(
      refused.every((e) => e.fileId === null && typeof e.message === 'string' && e.message.length > 10),
      'each refusal says why',
    );
    t.match(r.entries.find((e) => e.path === 'link')?.message, /symbolic links/i);
  });

  t.test('tar, onError "abort": nothing is written, the refusals are listed, the upload can be imported again', async (t) => {
    const { c, call } = await fresh();
    await withCatalogue(call);
    const before = await names(call);
    const blobsBefore = await app.deps.blobs.listKeys(`${c.membership!.orgId}/`);
    const uploadId = await uploadArchive(app, c, await hostileTar());
    const err = await fail(call(files_import, { uploadId }));
    t.equal(err.code, 'invalid_input');
    t.equal(err.status, 400);
    const body = err.toBody() as { error: { refused: { path: string; code: string }[]; refusedCount: number } };
    t.equal(body.error.refusedCount, Object.keys(hostileCodes).length);
    t.same(body.error.refused[0], { path: '../escape.txt', code: 'path_climbs_out', message: 'The path climbs out of the archive with `..`.' });
    t.same(await names(call), before, 'nothing written');
    t.same(await app.deps.blobs.listKeys(`${c.membership!.orgId}/`), blobsBefore, 'nothing staged is left behind');
    t.equal((await call(upload_status, { uploadId })).state, 'open', 'the upload is open again');
    const again = (await call(files_import, { uploadId, onError: 'skip' })) as Result;
    t.equal(again.created, 6, 'and can be imported again, skipping');
  });

  t.test('an upload being completed holds its path as a file', async (t) => {
    const { c, call } = await fresh();
    const pending = await call(upload_begin, { name: 'pending', byteLength: 10 });
    await app.deps.sql`update uploads set state = 'completing' where id = ${pending.uploadId}`; // mid-completion
    const r = (await call(files_import, {
      uploadId: await uploadArchive(
        app,
        c,
        await makeTar([
          { name: 'pending/inside.txt', data: 'x' },
          { name: 'free.txt', data: 'y' },
        ]),
      ),
      onError: 'skip',
    })) as Result;
    t.same(refusals(r), { 'pending/inside.txt': 'path_conflict' });
    t.equal(r.created, 1);
  });

  t.test('zip: hostile names, links and devices, each reported', async (t) => {
    const { c, call } = await fresh();
    await withCatalogue(call);
    let zip = await makeZip([
      { name: 'good/ok.txt', data: 'ok' },
      { name: 'XX/escape.txt', data: 'x' },
      { name: 'Xetc/passwd', data: 'x' },
      { name: 'dirXevil.txt', data: 'x' },
      { name: 'ctlX.txt', data: 'x' },
      { name: 'link', data: '/etc/passwd', mode: 0o120777 },
      { name: 'dev/null', data: '', mode: 0o020644 },
      { name: 'Good/ok.txt', data: 'ok' },
      { name: 'good/ok.txt', data: 'duplicate' },
      { name: 'taken/inside.txt', data: 'x' },
      { name: 'emptydir', folder: true },
      { name: 'emptydir', data: 'a file where a folder entry is' },
    ]);
    zip = patch(zip, 'XX/escape.txt', '../escape.txt');
    zip = patch(zip, 'Xetc/passwd', '/etc/passwd');
    zip = patch(zip, 'dirXevil.txt', 'dir\\evil.txt');
    zip = patch(zip, 'ctlX.txt', 'ctl\u0007.txt');
    const r = (await call(files_import, { uploadId: await uploadArchive(app, c, zip), onError: 'skip' })) as Result;
    t.same(refusals(r), {
      '../escape.txt': 'path_climbs_out',
      '/etc/passwd': 'absolute_path',
      'dir\\evil.txt': 'invalid_path',
      'ctl\\u0007.txt': 'invalid_path',
      link: 'symlink_refused',
      'dev/null': 'special_file_refused',
      'good/ok.txt': 'duplicate_path',
      'taken/inside.txt': 'path_conflict',
      emptydir: 'path_conflict',
    });
    t.same(await names(call), ['Good/ok.txt', 'folder/y.txt', 'good/ok.txt', 'taken']);
  });

  t.test('zip bombs: an entry past the ratio is refused; an archive past it, or with overlapping entries, is refused whole', async (t) => {
    const { c, call } = await fresh();
    const mixed = await makeZip([
      { name: 'zeros.bin', data: Buffer.alloc(2 * MiB) },
      { name: 'noise.bin', data: randomBytes(MiB) },
    ]);
    const r = (await call(files_import, { uploadId: await uploadArchive(app, c, mixed), onError: 'skip' })) as Result;
    t.same(refusals(r), { 'zeros.bin': 'ratio_exceeded' });
    t.match(r.entries[0].message, /expands \d+ times/);
    t.equal(r.created, 1);

    const zeros = await makeZip([{ name: 'a.bin', data: Buffer.alloc(3 * MiB) }]);
    const whole = await fail(call(files_import, { uploadId: await uploadArchive(app, c, zeros), onError: 'skip' }));
    t.equal(whole.code, 'payload_too_large', 'the whole archive expands too many times its size');
    t.equal(whole.status, 413);

    const single = await makeZip([{ name: 'bomb-entry-0000.bin', data: Buffer.alloc(64 * 1024, 0x61) }]);
    const bomb = overlappingZip(single, 200);
    const overlap = await fail(call(files_import, { uploadId: await uploadArchive(app, c, bomb), onError: 'skip' }));
    t.equal(overlap.code, 'invalid_input');
    t.match(overlap.resolution, /share their data/);

    const gz = await makeTar([{ name: 'zeros.bin', data: Buffer.alloc(4 * MiB) }], { gzip: true });
    const gzBomb = await fail(call(files_import, { uploadId: await uploadArchive(app, c, gz), onError: 'skip' }));
    t.equal(gzBomb.code, 'payload_too_large', 'a gzip-compressed tar is counted as it expands');
    t.same(await names(call), ['noise.bin']);
  });

  t.test('damaged, truncated and non-archive uploads are refused whole', async (t) => {
    const { c, call } = await fresh();
    const tarBytes = await makeTar([
      { name: 'a.txt', data: randomBytes(5000) },
      { name: 'b.txt', data: randomBytes(5000) },
    ]);
    const cases: [string, Buffer, Record<string, unknown>, RegExp][] = [
      ['a truncated tar', tarBytes.subarray(0, 3000), {}, /damaged or truncated/],
      ['a tar with a broken header checksum', patch(tarBytes, 'b.txt', 'c.txt'), {}, /damaged or truncated/],
      ['a truncated zip', (await makeZip([{ name: 'a.txt', data: 'x' }])).subarray(0, 60), { format: 'zip' }, /damaged or truncated/],
      ['bytes of no archive', Buffer.from('This is not an archive. '.repeat(200)), {}, /neither a tar archive/],
      ['bytes of no archive called zip', Buffer.from('This is not an archive. '.repeat(200)), { format: 'zip' }, /damaged or truncated/],
      ['a tar called zip', tarBytes, { format: 'zip' }, /is a tar archive, not zip/],
      ['an empty upload', Buffer.alloc(0), {}, /neither a tar archive/],
    ];
    for (const [what, bytes, extra, message] of cases) {
      const err = await fail(call(files_import, { uploadId: await uploadArchive(app, c, bytes), onError: 'skip', ...extra }));
      t.equal(err.code, 'invalid_input', what);
      t.match(err.resolution, message, what);
    }
    t.same(await names(call), [], 'nothing written');
  });

  t.test('a zip entry whose data is damaged: skipped or, with abort, the whole import refused', async (t) => {
    const { c, call } = await fresh();
    const good = randomBytes(20_000);
    const zip = await makeZip([
      { name: 'fine.bin', data: good, compress: false },
      { name: 'broken.bin', data: Buffer.alloc(20_000, 0x42), compress: false },
    ]);
    const damaged = Buffer.from(zip);
    damaged.fill(0x43, damaged.indexOf(Buffer.alloc(100, 0x42)), damaged.indexOf(Buffer.alloc(100, 0x42)) + 100); // CRC no longer holds
    const aborted = await fail(call(files_import, { uploadId: await uploadArchive(app, c, damaged) }));
    t.equal(aborted.code, 'invalid_input');
    t.match((aborted.toBody() as { error: { refused: unknown[] } }).error.refused, [{ path: 'broken.bin', code: 'corrupt_entry' }]);
    t.same(await names(call), [], 'nothing written');
    t.same(await app.deps.blobs.listKeys(`${c.membership!.orgId}/`), [], 'the staged body of fine.bin was deleted');
    const r = (await call(files_import, { uploadId: await uploadArchive(app, c, damaged), onError: 'skip' })) as Result;
    t.same(refusals(r), { 'broken.bin': 'corrupt_entry' });
    t.match(r.entries[1].message, /CRC-32/);
    t.same(await names(call), ['fine.bin']);
  });

  t.test('an encrypted zip entry is refused', async (t) => {
    const { c, call } = await fresh();
    const zip = await makeZip([
      { name: 'secret.txt', data: 'x'.repeat(100) },
      { name: 'plain.txt', data: 'y' },
    ]);
    // Set bit 0 (encrypted) of the general purpose flags in the first entry's central directory record.
    const cd = zip.indexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02]));
    zip.writeUInt16LE(zip.readUInt16LE(cd + 8) | 1, cd + 8);
    const r = (await call(files_import, { uploadId: await uploadArchive(app, c, zip), onError: 'skip' })) as Result;
    t.same(refusals(r), { 'secret.txt': 'encrypted_entry' });
  });

  t.test('the upload must be complete, open, and of this organization', async (t) => {
    const { c, call } = await fresh();
    const data = await makeTar([{ name: 'a.txt', data: randomBytes(PART + 10) }]);
    const begun = await call(upload_begin, { name: 'a.tar', byteLength: data.length });
    t.equal((await putPart(app, c.token, begun.uploadId, 1, data.subarray(0, PART))).status, 200);
    t.equal((await fail(call(files_import, { uploadId: begun.uploadId }))).code, 'upload_incomplete');
    t.equal((await putPart(app, c.token, begun.uploadId, 2, data.subarray(PART))).status, 200);
    const { call: other } = await fresh();
    t.equal((await fail(other(files_import, { uploadId: begun.uploadId }))).code, 'not_found', "another organization's upload");
    await call(upload_complete, { uploadId: begun.uploadId });
    t.equal((await fail(call(files_import, { uploadId: begun.uploadId }))).code, 'conflict', 'a completed upload');
    t.equal((await fail(call(files_import, { uploadId: begun.uploadId, into: '../up' }))).code, 'invalid_input', '`into` must be a folder path');
    const imported = await uploadArchive(app, c, await makeTar([{ name: 'b.txt', data: 'b' }]));
    await call(files_import, { uploadId: imported });
    t.equal((await fail(call(files_import, { uploadId: imported }))).code, 'conflict', 'an imported upload is consumed');
    const late = await putPart(app, c.token, imported, 1, Buffer.alloc(1));
    t.equal(late.status, 409, 'and takes no parts');
  });
});

t.test('archive limits: entries, expanded bytes, path length and the quota (configured low)', async (t) => {
  const app = await startTestApp(t, {
    env: { ARCHIVE_MAX_ENTRIES: '50', ARCHIVE_MAX_EXPANDED_BYTES: String(MiB), ARCHIVE_MAX_PATH_CHARS: '40', QUOTA_BYTES: String(1.5 * MiB) },
  });
  let n = 0;
  const fresh = async () => {
    const c = await callerFor(app, { email: `l${++n}@example.com`, org: `limits-${n}` });
    return { c, call: as(app, c) };
  };
  const text = (bytes: number) => randomBytes(bytes / 2).toString('hex'); // compresses about twice

  t.test('more entries than allowed: 413 for tar and zip, whatever onError says', async (t) => {
    const { c, call } = await fresh();
    const many = Array.from({ length: 51 }, (_, i) => ({ name: `f${i}.txt`, data: '' }));
    for (const bytes of [await makeTar(many), await makeZip(many)]) {
      const err = await fail(call(files_import, { uploadId: await uploadArchive(app, c, bytes), onError: 'skip' }));
      t.equal(err.code, 'payload_too_large');
      t.match(err.toBody(), { error: { maxEntries: 50 } });
    }
    const fifty = await call(files_import, { uploadId: await uploadArchive(app, c, await makeTar(many.slice(0, 50))) });
    t.equal((fifty as Result).created, 50, 'exactly the limit is fine');
  });

  t.test('expanding past the limit: 413', async (t) => {
    const { c, call } = await fresh();
    const zip = await makeZip([
      { name: 'a.txt', data: text(600 * 1024) },
      { name: 'b.txt', data: text(600 * 1024) },
    ]);
    const err = await fail(call(files_import, { uploadId: await uploadArchive(app, c, zip), onError: 'skip' }));
    t.equal(err.code, 'payload_too_large');
    t.match(err.message, /expands to more than 1048576 bytes/);
  });

  t.test('paths longer than the limit, `into` included, are refused', async (t) => {
    const { c, call } = await fresh();
    const r = (await call(files_import, {
      uploadId: await uploadArchive(
        app,
        c,
        await makeTar([
          { name: 'short.txt', data: '1' },
          { name: 'a-name-of-thirty-characters.txt', data: '2' },
        ]),
      ),
      into: 'projects/x',
      onError: 'skip',
    })) as Result;
    t.same(refusals(r), { 'a-name-of-thirty-characters.txt': 'path_too_long' }, 'reported under its name in the archive');
    t.match(r.entries[1].message, /42 characters \(`into` included\); at most 40/);
  });

  t.test('the quota is checked against the expanded size before anything is written', async (t) => {
    const { c, call } = await fresh();
    await call(files_write_text, { name: 'filler.txt', text: 'f'.repeat(900 * 1024) });
    const zip = await makeZip([{ name: 'big.txt', data: text(800 * 1024) }]);
    const uploadId = await uploadArchive(app, c, zip);
    const err = await fail(call(files_import, { uploadId, onError: 'skip' }));
    t.equal(err.code, 'quota_exceeded');
    t.equal(err.status, 409);
    t.same(
      ((await call(files_list, {})) as { items: { name: string }[] }).items.map((f) => f.name),
      ['filler.txt'],
    );
    t.same((await app.deps.blobs.listKeys(`${c.membership!.orgId}/`)).length, 1, 'only the filler has bytes: nothing was staged');
    t.equal((await call(upload_status, { uploadId })).state, 'open');
  });
});
