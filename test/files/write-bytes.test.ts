// files_write_bytes through invoke with real token callers: binary bytes round-trip over the download route with
// matching checksums; the cap, malformed base64, names and scopes are refused; quota counts the bytes.
import t from 'tap';
import { createHash, randomBytes } from 'node:crypto';
import { crc32 } from 'node:zlib';
import { startTestApp } from '../helpers/app.ts';
import { callerFor, caller as as } from '../helpers/callers.ts';
import type { ServiceError } from '../../runtime-api/errors.ts';
import { files_write_bytes } from '../../runtime-api/bindings/files/files_write_bytes.ts';
import { files_read_bytes } from '../../runtime-api/bindings/files/files_read_bytes.ts';
import { download } from './transfer-helpers.ts';

const fail = (p: Promise<unknown>) =>
  p.then(
    () => {
      throw new Error('expected a ServiceError');
    },
    (e) => e as ServiceError,
  );

t.test('files_write_bytes and files_read_bytes', async (t) => {
  const app = await startTestApp(t, { env: { TEXT_FILE_MAX_BYTES: '4096', QUOTA_BYTES: '14000' } });
  const ana = await callerFor(app, { email: 'ana@bytes.example', org: 'bytes' });
  const call = as(app, ana);

  t.test('binary-safe round trip with checksums', async (t) => {
    const data = Buffer.concat([Buffer.from([0, 255, 0xc3, 0x28, 0xfe, 0xff, 0x0a, 0x0d]), randomBytes(3000)]);
    const file = await call(files_write_bytes, { name: 'bin/blob.dat', base64: data.toString('base64') });
    t.match(file, { name: 'bin/blob.dat', size: data.length, mediaType: 'application/octet-stream', state: 'active' });
    t.equal(file.sha256, createHash('sha256').update(data).digest('hex'));
    t.equal(file.crc32, crc32(data).toString(16).padStart(8, '0'));
    const got = await download(app, ana.token, file.fileId);
    t.equal(got.status, 200);
    t.ok(got.body.equals(data), 'the same bytes, invalid UTF-8 included');
    const back = await call(files_read_bytes, { fileId: file.fileId });
    t.same(back, {
      id: file.fileId,
      fileId: file.fileId,
      name: 'bin/blob.dat',
      path: 'bin/blob.dat',
      size: data.length,
      crc32: file.crc32,
      base64: data.toString('base64'),
    });
    const typed = await call(files_write_bytes, { name: 'img/dot.gif', mediaType: 'image/gif', base64: 'R0lGODlhAQABAAAAACw=' });
    t.equal(typed.mediaType, 'image/gif');
    const empty = await call(files_write_bytes, { name: 'empty.bin', base64: '' });
    t.equal(empty.size, 0);
  });

  t.test('refusals', async (t) => {
    const big = await fail(call(files_write_bytes, { name: 'big.bin', base64: randomBytes(4097).toString('base64') }));
    t.equal(big.code, 'invalid_input');
    t.match(big.resolution, /4097 bytes decoded; files_write_bytes takes at most 4096/);
    for (const base64 of ['abc', 'ab$=', 'YWJj\n', '====']) {
      t.equal((await fail(call(files_write_bytes, { name: 'x.bin', base64 }))).code, 'invalid_input', JSON.stringify(base64));
    }
    t.equal((await fail(call(files_write_bytes, { name: '../x', base64: '' }))).code, 'invalid_input', 'name rules apply');
    t.equal((await fail(call(files_write_bytes, { name: 'x', base64: '', extra: 1 }))).code, 'invalid_input');
    const full = await call(files_write_bytes, { name: 'full.bin', base64: randomBytes(4096).toString('base64') });
    t.equal((await call(files_read_bytes, { fileId: full.fileId })).size, 4096, 'exactly the cap is fine both ways');
    t.equal((await fail(call(files_read_bytes, { fileId: 'fil_aaaaaaaaaaaaaaaaaaaaaaaaaa' }))).code, 'not_found');
    const reader = await callerFor(app, { email: 'reader@bytes.example', org: 'bytes', role: 'member', scopes: ['files:read'] });
    t.equal((await fail(as(app, reader)(files_write_bytes, { name: 'r.bin', base64: '' }))).code, 'INSUFFICIENT_SCOPE');
    await call(files_write_bytes, { name: 'q1.bin', base64: randomBytes(4000).toString('base64') });
    const overQuota = await fail(call(files_write_bytes, { name: 'q2.bin', base64: randomBytes(4000).toString('base64') }));
    t.equal(overQuota.code, 'quota_exceeded', 'the bytes count against the quota (7 KB used of 14 KB, then 4 KB twice)');
  });
});
