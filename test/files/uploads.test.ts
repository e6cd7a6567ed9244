// Uploads end to end: upload_begin, PUT parts over HTTP (sizes, digests, replacement, auth, content type),
// upload_status, upload_complete (missing parts, concurrency, the file appearing), abort, and expiry.
import t from 'tap';
import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { crc32 } from 'node:zlib';
import { startTestApp } from '../helpers/app.ts';
import { directIoWorks } from '../helpers/direct-io.ts';
import { callerFor, caller as as } from '../helpers/callers.ts';
import { ServiceError } from '../../runtime-api/errors.ts';
import { upload_begin } from '../../runtime-api/bindings/uploads/upload_begin.ts';
import { upload_status } from '../../runtime-api/bindings/uploads/upload_status.ts';
import { upload_complete } from '../../runtime-api/bindings/uploads/upload_complete.ts';
import { upload_abort } from '../../runtime-api/bindings/uploads/upload_abort.ts';
import { files_list } from '../../runtime-api/bindings/files/files_list.ts';
import { expireUploads } from '../../runtime-api/services/janitors.ts';
import { storageUsedBytes } from '../../runtime-api/services/usage.ts';
import { invokeDeps } from '../../server/deps.ts';
import { bytes, download, PART, partOf, putPart, sha256 } from './transfer-helpers.ts';

const fail = (p: Promise<unknown>) =>
  p.then(
    () => {
      throw new Error('expected a ServiceError');
    },
    (e) => e as ServiceError,
  );

t.test('uploads', async (t) => {
  const app = await startTestApp(t, { manualClock: true });
  const ana = await callerFor(app, { email: 'ana@example.com', org: 'acme' });
  const call = as(app, ana);

  t.test('upload_begin answers the part layout, expiry and part URL', async (t) => {
    const out = await call(upload_begin, { name: 'big.bin', mediaType: 'application/x-thing', size: 2 * PART + 5 });
    t.match(out.uploadId, /^upl_[a-z2-7]{26}$/);
    t.equal(out.partSize, 8388608);
    t.equal(out.partCount, 3);
    t.equal(out.lastPartSize, 5);
    t.equal(out.expiresAt, new Date(app.clock.now().getTime() + 24 * 3600_000).toISOString());
    t.equal(out.partUrl, `${app.url}/v1/mcp/uploads/${out.uploadId}/parts/{partNumber}`);
    const exact = await call(upload_begin, { name: 'exact.bin', size: PART });
    t.equal(exact.partCount, 1);
    t.equal(exact.lastPartSize, PART);
    const empty = await call(upload_begin, { name: 'empty.bin', size: 0 });
    t.equal(empty.partCount, 1);
    t.equal(empty.lastPartSize, 0);
    const bad = await fail(call(upload_begin, { name: 'x', size: 10_000 * PART + 1 }));
    t.equal(bad.code, 'invalid_input');
    t.equal((await fail(call(upload_begin, { name: 'x', size: 1.5 }))).code, 'invalid_input');
    t.equal((await fail(call(upload_begin, { name: 'a/../b', size: 1 }))).code, 'invalid_input');
    for (const u of [out, exact, empty]) await call(upload_abort, { uploadId: u.uploadId });
  });

  t.test('parts in any order, status, completion, and the file in files_list', async (t) => {
    const data = bytes(2 * PART + 1234);
    const u = await call(upload_begin, { name: 'reports/data.bin', mediaType: 'application/vnd.acme+json; v=2', size: data.length });
    let s = await call(upload_status, { uploadId: u.uploadId });
    t.same([s.receivedParts, s.missingParts, s.receivedBytes, s.state], [[], [1, 2, 3], 0, 'open']);

    const r3 = await putPart(app, ana.token, u.uploadId, 3, partOf(data, 3));
    t.equal(r3.status, 200);
    const crc = crc32(partOf(data, 3)).toString(16).padStart(8, '0');
    t.same(r3.json, { uploadId: u.uploadId, partNumber: 3, size: 1234, crc32: crc, sha256: null });
    t.equal(r3.headers.etag, `"${crc}"`);
    t.equal((await putPart(app, ana.token, u.uploadId, 1, partOf(data, 1))).status, 200);
    s = await call(upload_status, { uploadId: u.uploadId });
    t.same([s.receivedParts, s.missingParts, s.receivedBytes], [[1, 3], [2], PART + 1234]);

    const incomplete = await fail(call(upload_complete, { uploadId: u.uploadId }));
    t.equal(incomplete.code, 'upload_incomplete');
    t.equal(incomplete.status, 400);
    t.same(incomplete.toBody(), { code: 'upload_incomplete', message: 'The upload is missing parts.', missingParts: [2], missingPartCount: 1 });
    t.match(incomplete.resolution, /part\(s\) 2\b/);

    t.equal((await putPart(app, ana.token, u.uploadId, 2, partOf(data, 2))).status, 200);
    const done = await call(upload_complete, { uploadId: u.uploadId });
    t.match(done.file, { name: 'reports/data.bin', mediaType: 'application/vnd.acme+json; v=2', size: data.length, state: 'active', sha256: null });
    t.equal(done.file.fileId, u.fileId);
    const listed = await call(files_list, { state: 'active' });
    t.match(
      listed.items.find((f) => f.fileId === u.fileId),
      { state: 'active', size: data.length, mediaType: 'application/vnd.acme+json; v=2' },
    );
    s = await call(upload_status, { uploadId: u.uploadId });
    t.same([s.state, s.fileId, s.missingParts], ['completed', u.fileId, []]);

    const got = await download(app, ana.token, u.fileId);
    t.equal(got.status, 200);
    t.equal(sha256(got.body), sha256(data), 'the bytes come back exactly');
    // The route receives parts in the fs store's own buffers, which it writes with O_DIRECT (no page-cache copy)
    // wherever the file system allows it; the short final part too (padded, then cut at completion).
    const io = (app.deps.blobs as unknown as { io: { direct: number; buffered: number } }).io;
    if (directIoWorks(app.config.dataDir)) t.ok(io.direct >= 3 && io.buffered === 0, `parts written with O_DIRECT (${JSON.stringify(io)})`);
    else t.ok(io.buffered >= 3, 'no O_DIRECT on this file system: buffered O_DSYNC writes');

    const late = await putPart(app, ana.token, u.uploadId, 1, partOf(data, 1));
    t.equal(late.status, 409, 'parts after completion are a conflict');
    t.equal(late.json.code, 'conflict');
    t.equal((await fail(call(upload_complete, { uploadId: u.uploadId }))).code, 'conflict');
    t.equal((await fail(call(upload_abort, { uploadId: u.uploadId }))).code, 'conflict');
  });

  t.test('a single-part upload records the whole-file SHA-256; a 0-byte file works', async (t) => {
    const data = bytes(1000);
    const u = await call(upload_begin, { name: 'one.bin', size: 1000 });
    t.equal((await putPart(app, ana.token, u.uploadId, 1, data)).status, 200);
    t.equal((await call(upload_complete, { uploadId: u.uploadId })).file.sha256, sha256(data));
    const e = await call(upload_begin, { name: 'empty.txt', mediaType: 'text/plain', size: 0 });
    t.equal((await putPart(app, ana.token, e.uploadId, 1, Buffer.alloc(0))).status, 200);
    const file = (await call(upload_complete, { uploadId: e.uploadId })).file;
    t.equal(file.size, 0);
    const got = await download(app, ana.token, file.fileId);
    t.equal(got.status, 200);
    t.equal(got.headers['content-length'], '0');
    t.equal(got.body.length, 0);
  });

  t.test('wrong part sizes are 400 part_mismatch and store nothing', async (t) => {
    const data = bytes(PART + 100);
    const u = await call(upload_begin, { name: 'sizes.bin', size: data.length });
    const short = await putPart(app, ana.token, u.uploadId, 1, data.subarray(0, 1000));
    t.equal(short.status, 400);
    t.same(Object.keys(short.json).sort(), ['code', 'expectedBytes', 'message', 'partNumber']);
    t.equal(short.json.code, 'part_mismatch');
    t.equal(short.json.expectedBytes, PART);
    const finalShort = await putPart(app, ana.token, u.uploadId, 2, data.subarray(0, 99));
    t.equal(finalShort.status, 400);
    const finalLong = await putPart(app, ana.token, u.uploadId, 2, data.subarray(0, 101));
    t.equal(finalLong.status, 400);
    t.equal(finalLong.json.expectedBytes, 100);
    const tooFar = await putPart(app, ana.token, u.uploadId, 3, data.subarray(0, 100));
    t.equal(tooFar.status, 400, 'a part number past the reservation');
    t.equal(tooFar.json.code, 'part_mismatch');
    t.equal(tooFar.json.message, 'Part 3 is beyond this upload, which has 2 part(s); nothing was stored.', 'says what is wrong, not "the size does not match"');
    t.same([tooFar.json.partNumber, tooFar.json.partCount], [3, 2]);
    const farPt = await putPart(app, ana.token, u.uploadId, 10000, data.subarray(0, 100), { 'x-service-locale': 'pt-BR' });
    t.equal(farPt.json.message, 'A parte 10000 está além deste envio, que tem 2 parte(s); nada foi gravado.');
    t.same((await call(upload_status, { uploadId: u.uploadId })).receivedParts, [], 'nothing was stored');
    // the right sizes still work afterwards, on the same connection pool
    t.equal((await putPart(app, ana.token, u.uploadId, 2, partOf(data, 2))).status, 200);
    t.same((await call(upload_status, { uploadId: u.uploadId })).receivedParts, [2]);
    await call(upload_abort, { uploadId: u.uploadId });
  });

  t.test('a body longer than its declared part (chunked) is cut off with part_mismatch', async (t) => {
    const u = await call(upload_begin, { name: 'chunked.bin', size: 10 });
    const { request } = await import('undici');
    async function* gen() {
      yield Buffer.alloc(6, 1);
      yield Buffer.alloc(6, 2);
    }
    const res = await request(`${app.url}/v1/mcp/uploads/${u.uploadId}/parts/1`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${ana.token}`, 'content-type': 'application/octet-stream' },
      body: Readable.from(gen()),
    }).catch((err) => ({ statusCode: -1, err, body: null }));
    if (res.statusCode !== -1) {
      t.equal(res.statusCode, 400);
      await (res as { body: { text(): Promise<string> } }).body.text();
    } else t.pass('the server closed the oversized stream');
    t.same((await call(upload_status, { uploadId: u.uploadId })).receivedParts, []);
    async function* exact() {
      yield Buffer.alloc(4, 1);
      yield Buffer.alloc(6, 2);
    }
    const ok = await request(`${app.url}/v1/mcp/uploads/${u.uploadId}/parts/1`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${ana.token}`, 'content-type': 'application/octet-stream' },
      body: Readable.from(exact()),
    });
    t.equal(ok.statusCode, 200, 'a chunked body of the exact size is accepted');
    await ok.body.text();
    await call(upload_abort, { uploadId: u.uploadId });
  });

  t.test('re-sending a part before completion replaces it', async (t) => {
    const first = bytes(500);
    const second = bytes(500);
    const u = await call(upload_begin, { name: 'replace.bin', size: 500 });
    t.equal((await putPart(app, ana.token, u.uploadId, 1, first)).status, 200);
    t.equal((await putPart(app, ana.token, u.uploadId, 1, second)).status, 200);
    const done = await call(upload_complete, { uploadId: u.uploadId });
    t.equal(done.file.sha256, sha256(second));
    t.equal(sha256((await download(app, ana.token, done.file.fileId)).body), sha256(second));
  });

  t.test('concurrent copies of one part: each stored whole, the manifest names the one staged', async (t) => {
    const u = await call(upload_begin, { name: 'racing.bin', size: 64 * 1024 });
    const copies = [bytes(64 * 1024), bytes(64 * 1024), bytes(64 * 1024)];
    t.equal((await putPart(app, ana.token, u.uploadId, 1, copies[0])).status, 200);
    // The first copy again (identical: stays recorded while rewritten) racing two different ones (each forgets the
    // recorded copy before overwriting its bytes).
    const sent = [copies[0], copies[1], copies[2], copies[1], copies[0]];
    const statuses = (await Promise.all(sent.map((c) => putPart(app, ana.token, u.uploadId, 1, c)))).map((r) => r.status);
    t.same(statuses, [200, 200, 200, 200, 200]);
    const [row] = await app.deps.sql`select crc32, sha256 from upload_parts where upload_id = ${u.uploadId} and part_number = 1`;
    const winner = copies.find((c) => sha256(c) === row.sha256);
    t.ok(winner, 'the manifest names one of the copies');
    t.equal(row.crc32, crc32(winner!).toString(16).padStart(8, '0'));
    const done = await call(upload_complete, { uploadId: u.uploadId });
    t.equal(sha256((await download(app, ana.token, done.file.fileId)).body), row.sha256, 'and that copy is the file');
  });

  t.test('Content-MD5 and Content-Digest are verified', async (t) => {
    const data = bytes(4096);
    const md5 = createHash('md5').update(data).digest('base64');
    const s256 = createHash('sha256').update(data).digest('base64');
    const s512 = createHash('sha512').update(data).digest('base64');
    const wrong = createHash('md5').update('other').digest('base64');
    const u = await call(upload_begin, { name: 'digest.bin', size: data.length });
    const badMd5 = await putPart(app, ana.token, u.uploadId, 1, data, { 'content-md5': wrong });
    t.equal(badMd5.status, 400);
    t.equal(badMd5.json.code, 'part_mismatch');
    t.equal(badMd5.json.digest, 'Content-MD5');
    const badDigest = await putPart(app, ana.token, u.uploadId, 1, data, {
      'content-digest': `sha-256=:${createHash('sha256').update('x').digest('base64')}:`,
    });
    t.equal(badDigest.status, 400);
    t.equal(badDigest.json.digest, 'Content-Digest sha-256');
    t.same((await call(upload_status, { uploadId: u.uploadId })).receivedParts, [], 'a mismatch stores nothing');
    const malformed = await putPart(app, ana.token, u.uploadId, 1, data, { 'content-digest': 'sha-256=abc' });
    t.equal(malformed.status, 400);
    t.equal(malformed.json.error.code, 'invalid_request');
    t.equal((await putPart(app, ana.token, u.uploadId, 1, data, { 'content-md5': md5 })).status, 200);
    const withDigest = await putPart(app, ana.token, u.uploadId, 1, data, { 'content-digest': `sha-256=:${s256}:` });
    t.equal(withDigest.json.sha256, createHash('sha256').update(data).digest('hex'), 'the verified SHA-256 is echoed');
    t.equal((await putPart(app, ana.token, u.uploadId, 1, data, { 'content-digest': `sha-512=:${s512}:, sha-256=:${s256}:` })).status, 200);
    t.equal((await putPart(app, ana.token, u.uploadId, 1, data, { 'content-digest': 'md5=:AAAA:' })).status, 200, 'unknown algorithms are ignored');
    // Other bytes whose digest does not match, over a stored copy: refused, and the stored copy stays whole.
    const other = Buffer.alloc(data.length, 0x5a);
    t.equal((await putPart(app, ana.token, u.uploadId, 1, other, { 'content-digest': `sha-256=:${s256}:` })).status, 400);
    const status = await call(upload_status, { uploadId: u.uploadId });
    t.same(status.receivedParts, [1], 'the earlier copy is still recorded');
    const done = await call(upload_complete, { uploadId: u.uploadId });
    t.equal(sha256((await download(app, ana.token, done.file.fileId)).body), sha256(data), 'and its bytes are the ones stored');
  });

  t.test('part requests: part numbers, Content-Type, tokens, scopes and MCP access', async (t) => {
    const u = await call(upload_begin, { name: 'auth.bin', size: 10 });
    const ten = Buffer.alloc(10, 7);
    for (const n of ['0', '10001', 'abc', '1.5', '-1']) {
      const r = await putPart(app, ana.token, u.uploadId, n, ten);
      t.equal(r.status, 400, `partNumber ${n}`);
      t.equal(r.json.error.code, 'invalid_input');
    }
    const badType = await putPart(app, ana.token, u.uploadId, 1, ten, { 'content-type': 'application/json' });
    t.equal(badType.status, 415);
    t.equal(badType.json.error.code, 'unsupported_media_type');
    const noToken = await putPart(app, null, u.uploadId, 1, ten);
    t.equal(noToken.status, 401);
    const reader = await callerFor(app, { email: 'reader@example.com', org: 'acme', scopes: ['files:read'], role: 'member' });
    const ro = await putPart(app, reader.token, u.uploadId, 1, ten);
    t.equal(ro.status, 403);
    t.equal(ro.json.error.code, 'INSUFFICIENT_SCOPE');
    const other = await callerFor(app, { email: 'eve@example.com', org: 'evil' });
    const foreign = await putPart(app, other.token, u.uploadId, 1, ten);
    t.equal(foreign.status, 404, "another organization's upload id is not found");
    t.equal(foreign.json.code, 'not_found');
    t.equal((await fail(as(app, other)(upload_status, { uploadId: u.uploadId }))).code, 'not_found');
    t.equal((await fail(as(app, other)(upload_complete, { uploadId: u.uploadId }))).code, 'not_found');
    t.equal((await fail(as(app, other)(upload_abort, { uploadId: u.uploadId }))).code, 'not_found');
    const unknown = await putPart(app, ana.token, 'upl_aaaaaaaaaaaaaaaaaaaaaaaaaa', 1, ten);
    t.equal(unknown.status, 404);

    await app.deps.sql`update org_mcp_access set state = 'revoked' where org_id = ${ana.membership!.orgId}`;
    const revoked = await putPart(app, ana.token, u.uploadId, 1, ten);
    t.equal(revoked.status, 403);
    t.equal(revoked.json.error.code, 'MCP_ACCESS_REVOKED');
    await app.deps.sql`update org_mcp_access set state = 'testing' where org_id = ${ana.membership!.orgId}`;
    t.equal((await putPart(app, ana.token, u.uploadId, 1, ten)).status, 200);
    await call(upload_abort, { uploadId: u.uploadId });
  });

  t.test('concurrent completions: one wins, the others get 409 conflict', async (t) => {
    const data = bytes(PART + 10);
    const u = await call(upload_begin, { name: 'race.bin', size: data.length });
    await Promise.all([1, 2].map((n) => putPart(app, ana.token, u.uploadId, n, partOf(data, n))));
    const results = await Promise.allSettled(Array.from({ length: 6 }, () => call(upload_complete, { uploadId: u.uploadId })));
    const won = results.filter((r) => r.status === 'fulfilled');
    const lost = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
    t.equal(won.length, 1, 'exactly one completion succeeds');
    t.equal(lost.length, 5);
    for (const r of lost) {
      t.equal((r.reason as ServiceError).code, 'conflict');
      t.equal((r.reason as ServiceError).status, 409);
    }
    const [{ n }] = await app.deps.sql`select count(*)::int as n from files where id = ${u.fileId}`;
    t.equal(n, 1, 'one file');
    t.equal(sha256((await download(app, ana.token, u.fileId)).body), sha256(data));
  });

  t.test('a part in flight holds completion back until it is stored', async (t) => {
    const data = bytes(PART + 10);
    const u = await call(upload_begin, { name: 'inflight.bin', size: data.length });
    t.equal((await putPart(app, ana.token, u.uploadId, 2, partOf(data, 2))).status, 200);
    // part 1 and a completion race: whichever order, the result is consistent
    const [part, complete] = await Promise.allSettled([
      putPart(app, ana.token, u.uploadId, 1, partOf(data, 1)),
      new Promise((r) => setTimeout(r, 5)).then(() => call(upload_complete, { uploadId: u.uploadId })),
    ]);
    t.equal(part.status, 'fulfilled');
    if (complete.status === 'fulfilled') {
      t.equal(sha256((await download(app, ana.token, u.fileId)).body), sha256(data), 'completion saw the part');
    } else {
      t.equal((complete.reason as ServiceError).code, 'upload_incomplete', 'completion ran before the part arrived');
      t.equal((await call(upload_complete, { uploadId: u.uploadId })).file.size, data.length);
    }
  });

  t.test('abort deletes the parts and releases the reservation', async (t) => {
    const data = bytes(100);
    const u = await call(upload_begin, { name: 'abort.bin', size: 100 });
    t.equal((await putPart(app, ana.token, u.uploadId, 1, data)).status, 200);
    t.ok((await app.deps.blobs.listUploads()).includes(u.uploadId));
    const before = await storageUsedBytes(app.deps.sql, ana.membership!.orgId, app.clock.now());
    t.same(await call(upload_abort, { uploadId: u.uploadId }), { id: u.uploadId, uploadId: u.uploadId, state: 'aborted' });
    t.notOk((await app.deps.blobs.listUploads()).includes(u.uploadId), 'staging bytes are gone');
    t.equal(await storageUsedBytes(app.deps.sql, ana.membership!.orgId, app.clock.now()), before - 100);
    t.equal((await fail(call(upload_status, { uploadId: u.uploadId }))).code, 'not_found');
    t.equal((await putPart(app, ana.token, u.uploadId, 1, data)).status, 404);
  });

  t.test('an expired reservation answers 410 upload_expired; the janitor deletes its bytes', async (t) => {
    const data = bytes(PART + 1);
    const u = await call(upload_begin, { name: 'late.bin', size: data.length });
    t.equal((await putPart(app, ana.token, u.uploadId, 1, partOf(data, 1))).status, 200);
    const orgId = ana.membership!.orgId;
    const used = await storageUsedBytes(app.deps.sql, orgId, app.clock.now());
    app.clock.advance!(24 * 3600_000 - 1);
    const later = await callerFor(app, { email: 'ana@example.com', org: 'acme' }); // access tokens live 1 h
    t.equal((await putPart(app, later.token, u.uploadId, 2, partOf(data, 2))).status, 200, 'still open 1 ms before expiry');
    app.clock.advance!(1);
    const part = await putPart(app, later.token, u.uploadId, 2, partOf(data, 2));
    t.equal(part.status, 410);
    t.same(Object.keys(part.json).sort(), ['code', 'message']);
    t.equal(part.json.code, 'upload_expired');
    const complete = await fail(call(upload_complete, { uploadId: u.uploadId }));
    t.equal(complete.code, 'upload_expired');
    t.equal(complete.status, 410);
    t.equal((await fail(call(upload_status, { uploadId: u.uploadId }))).code, 'upload_expired');
    t.equal(await storageUsedBytes(app.deps.sql, orgId, app.clock.now()), used - data.length, 'an expired reservation no longer counts');

    t.ok((await app.deps.blobs.listUploads()).includes(u.uploadId));
    const run = await expireUploads({ ...invokeDeps(app.deps), logger: app.deps.logger });
    t.ok(run && run.expired >= 1);
    t.notOk((await app.deps.blobs.listUploads()).includes(u.uploadId), 'the janitor deleted the bytes');
    const [row] = await app.deps.sql`select state from uploads where id = ${u.uploadId}`;
    t.equal(row.state, 'expired');
    t.equal((await putPart(app, later.token, u.uploadId, 2, partOf(data, 2))).status, 410, 'still 410 afterwards');
  });
});
