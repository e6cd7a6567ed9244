// The catalogue bindings through invoke with real token callers: list (keyset pages, prefix), get, update, text
// read/write (caps), name rules, scopes, organization scoping, and the schema descriptions typings are built from.
import t from 'tap';
import { startTestApp } from '../helpers/app.ts';
import { callerFor, caller as as } from '../helpers/callers.ts';
import { ServiceError } from '../../runtime-api/errors.ts';
import { BINDINGS } from '../../runtime-api/registry.ts';
import { jsonSchemaOf } from '../../runtime-api/project/json-schema.ts';
import { files_list } from '../../runtime-api/bindings/files/files_list.ts';
import { files_get } from '../../runtime-api/bindings/files/files_get.ts';
import { files_update } from '../../runtime-api/bindings/files/files_update.ts';
import { files_trash } from '../../runtime-api/bindings/files/files_trash.ts';
import { files_restore } from '../../runtime-api/bindings/files/files_restore.ts';
import { files_delete } from '../../runtime-api/bindings/files/files_delete.ts';
import { files_read_text } from '../../runtime-api/bindings/files/files_read_text.ts';
import { files_write_text } from '../../runtime-api/bindings/files/files_write_text.ts';
import { upload_begin } from '../../runtime-api/bindings/uploads/upload_begin.ts';
import { upload_status } from '../../runtime-api/bindings/uploads/upload_status.ts';
import { upload_complete } from '../../runtime-api/bindings/uploads/upload_complete.ts';
import { upload_abort } from '../../runtime-api/bindings/uploads/upload_abort.ts';
import { nameProblem } from '../../runtime-api/bindings/files/schemas.ts';
import { bytes, download, uploadFile } from './transfer-helpers.ts';

const fail = (p: Promise<unknown>) =>
  p.then(
    () => {
      throw new Error('expected a ServiceError');
    },
    (e) => e as ServiceError,
  );

t.test('catalogue bindings', async (t) => {
  const app = await startTestApp(t, { env: { TEXT_FILE_MAX_BYTES: '2048' } });
  const ana = await callerFor(app, { email: 'ana@example.com', org: 'acme' });
  const call = as(app, ana);

  t.test('files_write_text creates; files_get, files_read_text and files_list see it', async (t) => {
    const f = await call(files_write_text, { name: 'notes/todo.md', mediaType: 'text/markdown', text: '# To do\nçà ✓\n' });
    t.match(f, {
      name: 'notes/todo.md',
      mediaType: 'text/markdown',
      size: Buffer.byteLength('# To do\nçà ✓\n'),
      state: 'active',
      trashedAt: null,
      restorableUntil: null,
    });
    t.match(f.fileId, /^fil_/);
    t.equal(f.id, f.fileId, 'a file carries `id` and `fileId`');
    t.equal(f.path, f.name, 'and its path as `path` beside `name`');
    t.notOk('byteLength' in f, 'its size is `size` only');
    t.match(f.sha256, /^[0-9a-f]{64}$/);
    t.equal(f.downloadUrl, `${app.url}/v1/mcp/files/${f.fileId}/download`);
    t.equal(f.replacedFileId, null, 'the path was free');
    const { replacedFileId: _none, ...record } = f;
    t.same(await call(files_get, { fileId: f.fileId }), record);
    t.same(await call(files_get, { name: 'notes/todo.md' }), record, 'or by its path');
    t.same(await call(files_read_text, { fileId: f.fileId }), {
      id: f.fileId,
      fileId: f.fileId,
      name: 'notes/todo.md',
      path: 'notes/todo.md',
      mediaType: 'text/markdown',
      size: f.size,
      text: '# To do\nçà ✓\n',
    });
    const plain = await call(files_write_text, { name: 'plain.txt', text: '' });
    t.equal(plain.mediaType, 'text/plain; charset=utf-8');
    t.equal(plain.size, 0);
    t.equal((await call(files_read_text, { fileId: plain.fileId })).text, '');
    const dl = await download(app, ana.token, f.fileId);
    t.equal(dl.headers['content-type'], 'text/markdown');
    t.equal(dl.body.toString(), '# To do\nçà ✓\n');
  });

  t.test('files_write_text with fileId gives the file new content and keeps the previous content in the trash', async (t) => {
    const f = await call(files_write_text, { name: 'draft.txt', text: 'v1' });
    const keysBefore = (await app.deps.blobs.listKeys('')).map((b) => b.key);
    const g = await call(files_write_text, { fileId: f.fileId, text: 'version two', mediaType: 'text/x-draft' });
    t.equal(g.fileId, f.fileId);
    t.equal(g.name, 'draft.txt');
    t.equal(g.mediaType, 'text/x-draft');
    t.equal(g.size, 11);
    t.not(g.sha256, f.sha256);
    t.equal((await call(files_read_text, { fileId: f.fileId })).text, 'version two');
    const keysAfter = (await app.deps.blobs.listKeys('')).map((b) => b.key);
    t.equal(keysAfter.length, keysBefore.length + 1, 'the old bytes are kept beside the new');
    t.match(g.replacedFileId, /^fil_/);
    t.not(g.replacedFileId, f.fileId);
    const previous = await call(files_get, { fileId: g.replacedFileId! });
    t.match(previous, { name: 'draft.txt', state: 'trashed', size: 2, sha256: f.sha256, mediaType: f.mediaType });
    t.equal((await call(files_read_text, { fileId: previous.fileId })).text, 'v1', 'the previous version reads back');
    const renamed = await call(files_write_text, { fileId: f.fileId, name: 'final.txt', text: 'v3' });
    t.equal(renamed.name, 'final.txt');
    await call(files_trash, { fileId: f.fileId });
    t.equal((await fail(call(files_write_text, { fileId: f.fileId, text: 'x' }))).code, 'conflict', 'a trashed file must be restored first');
    t.equal((await fail(call(files_write_text, { text: 'no name' }))).code, 'invalid_input');
  });

  t.test('text caps: textFileMaxBytes for writes and reads; non-UTF-8 is refused', async (t) => {
    const big = await fail(call(files_write_text, { name: 'big.txt', text: 'x'.repeat(2049) }));
    t.equal(big.code, 'invalid_input');
    t.match(big.resolution, /2049 bytes.*at most 2048/);
    t.equal((await call(files_write_text, { name: 'max.txt', text: 'é'.repeat(1024) })).size, 2048, 'the cap counts UTF-8 bytes');
    const large = await uploadFile(app, ana, 'large.bin', bytes(4096));
    const tooLarge = await fail(call(files_read_text, { fileId: large.fileId }));
    t.equal(tooLarge.code, 'invalid_input');
    t.match(tooLarge.resolution, /download/i);
    const binary = await uploadFile(app, ana, 'binary.bin', Buffer.from([0xff, 0xfe, 0x00, 0xc3]));
    const notText = await fail(call(files_read_text, { fileId: binary.fileId }));
    t.equal(notText.code, 'invalid_input');
    t.match(notText.resolution, /UTF-8/);
  });

  t.test('files_update renames and changes the media type; trashed files are a conflict', async (t) => {
    const f = await call(files_write_text, { name: 'a.csv', text: 'a,b\n' });
    const u = await call(files_update, { fileId: f.fileId, name: 'reports/2026/a.csv', mediaType: 'text/csv; charset=utf-8' });
    t.match(u, { name: 'reports/2026/a.csv', mediaType: 'text/csv; charset=utf-8', size: 4 });
    t.ok(u.updatedAt >= f.updatedAt);
    t.equal((await call(files_update, { fileId: f.fileId, name: 'b.csv' })).mediaType, 'text/csv; charset=utf-8');
    t.equal((await fail(call(files_update, { fileId: f.fileId }))).code, 'invalid_input', 'something to change is required');
    t.equal((await fail(call(files_update, { fileId: f.fileId, mediaType: 'not a type' }))).code, 'invalid_input');
    t.equal((await fail(call(files_update, { fileId: f.fileId, mediaType: 'text/plain\r\nX-Evil: 1' }))).code, 'invalid_input');
    await call(files_trash, { fileId: f.fileId });
    t.equal((await fail(call(files_update, { fileId: f.fileId, name: 'c.csv' }))).code, 'conflict');
  });

  t.test('file names: the documented rules', async (t) => {
    const ok = ['a', 'relatório final (v2).xlsx', 'reports/2026/q1.csv', '日本語.txt', 'x'.repeat(255), '😀'.repeat(255), 'a b', '.hidden', 'a..b'];
    const bad = [
      '',
      ' lead',
      'trail ',
      'a\u0000b',
      'tab\there',
      'new\nline',
      'del\u007f',
      'c1\u0085',
      '/abs',
      'dir/',
      'a//b',
      'a/./b',
      'a/../b',
      '..',
      '.',
      'back\\slash',
      'x'.repeat(256),
      'bidi\u202eexe.txt',
      'a/ b',
      '\ud800',
    ];
    for (const name of ok) t.equal(nameProblem(name.normalize('NFC')), null, `ok: ${JSON.stringify(name).slice(0, 40)}`);
    for (const name of bad) t.not(nameProblem(name), null, `bad: ${JSON.stringify(name).slice(0, 40)}`);
    const err = await fail(call(files_write_text, { name: 'a/../b', text: '' }));
    t.equal(err.code, 'invalid_input');
    t.match(err.resolution, /^`name`: file name must not contain/);
    const nfd = await call(files_write_text, { name: 'cafe\u0301.txt', text: '' });
    t.equal(nfd.name, 'caf\u00e9.txt', 'names are stored NFC-normalized');
  });

  t.test('files_list: stable keyset pages by name then id, prefix, states', async (t) => {
    const bob = await callerFor(app, { email: 'bob@example.com', org: 'pages' });
    const b = as(app, bob);
    const names = ['m', 'b', 'a', 'z', 'dir/x', 'dir/y', 'dir2/z', 'B', 'é', 'a', 'a', 'm', 'n', 'o', 'p', 'q', 'r'];
    for (const name of names) await b(files_write_text, { name, text: name });
    const all = (await b(files_list, { limit: 1000 })).items;
    t.equal(all.length, new Set(names).size, 'one active file per name: writing a name again replaced the file');
    t.equal((await b(files_list, { state: 'trashed', limit: 1000 })).items.length, names.length - new Set(names).size, 'the replaced ones are in the trash');
    const order = all.map((f) => [f.name, f.fileId]);
    const sorted = [...order].sort((x, y) => Buffer.compare(Buffer.from(x[0]), Buffer.from(y[0])) || (x[1] < y[1] ? -1 : 1));
    t.same(order, sorted, 'ordered by name byte-wise, then id');

    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    let after = '';
    let before = '';
    do {
      const page: { items: { fileId: string }[]; nextCursor: string | null } = await b(files_list, { limit: 5, cursor });
      seen.push(...page.items.map((f) => f.fileId));
      cursor = page.nextCursor;
      pages++;
      if (pages === 1) {
        // writes between pages neither duplicate nor skip what was there: keyset, not offset
        before = (await b(files_write_text, { name: '0-before-everything', text: '' })).fileId;
        after = (await b(files_write_text, { name: 'zz-after-everything', text: '' })).fileId;
      }
    } while (cursor);
    t.equal(pages, 3);
    const final = (await b(files_list, { limit: 1000 })).items.map((f) => f.fileId);
    t.ok(final.includes(after) && final[0] === before);
    t.same(
      seen,
      final.filter((id) => id !== before),
      'every file once, in order; an insert behind the cursor is not revisited, one ahead appears',
    );

    const dir = await b(files_list, { prefix: 'dir/' });
    t.same(
      dir.items.map((f) => f.name),
      ['dir/x', 'dir/y'],
    );
    const dirPage = await b(files_list, { prefix: 'dir', limit: 2 });
    t.same(
      dirPage.items.map((f) => f.name),
      ['dir/x', 'dir/y'],
    );
    t.ok(dirPage.nextCursor);
    t.same(
      (await b(files_list, { prefix: 'dir', limit: 2, cursor: dirPage.nextCursor })).items.map((f) => f.name),
      ['dir2/z'],
    );
    t.equal((await fail(b(files_list, { prefix: 'di', cursor: dirPage.nextCursor }))).code, 'invalid_input', 'a cursor is bound to its filters');
    t.equal((await fail(b(files_list, { state: 'trashed', cursor: dirPage.nextCursor }))).code, 'invalid_input');
    t.equal((await fail(b(files_list, { cursor: 'garbage' }))).code, 'invalid_input');
    t.equal((await fail(b(files_list, { limit: 0 }))).code, 'invalid_input');
    t.equal((await fail(b(files_list, { limit: 1001 }))).code, 'invalid_input');
    t.equal((await fail(b(files_list, { state: 'deleted' }))).code, 'invalid_input');
    t.equal((await b(files_list, {})).items.length, 16, 'defaults: active, 100');

    await b(files_trash, { fileId: all[0].fileId });
    t.ok(
      (await b(files_list, { state: 'trashed' })).items.some((f) => f.fileId === all[0].fileId),
      'a trashed file is listed in the trash',
    );
    t.notOk((await b(files_list, { state: 'active' })).items.some((f) => f.fileId === all[0].fileId));
  });

  t.test("another organization's ids answer not_found, never their data", async (t) => {
    const f = await call(files_write_text, { name: 'secret.txt', text: 'acme secret' });
    const u = await call(upload_begin, { name: 'secret.bin', size: 10 });
    const eve = await callerFor(app, { email: 'eve@example.com', org: 'evil' });
    const e = as(app, eve);
    for (const [binding, input] of [
      [files_get, { fileId: f.fileId }],
      [files_read_text, { fileId: f.fileId }],
      [files_update, { fileId: f.fileId, name: 'x' }],
      [files_trash, { fileId: f.fileId }],
      [files_restore, { fileId: f.fileId }],
      [files_delete, { fileId: f.fileId }],
      [files_write_text, { fileId: f.fileId, text: 'overwritten' }],
      [upload_status, { uploadId: u.uploadId }],
      [upload_complete, { uploadId: u.uploadId }],
      [upload_abort, { uploadId: u.uploadId }],
    ] as const) {
      const err = await fail(e(binding, input));
      t.equal(err.code, 'not_found', binding.name);
      t.notMatch(JSON.stringify(err.toBody()), /secret/);
    }
    t.notOk((await e(files_list, { limit: 1000 })).items.some((x) => x.fileId === f.fileId));
    const dl = await download(app, eve.token, f.fileId);
    t.equal(dl.status, 404);
    t.notMatch(dl.body.toString(), /acme secret/);
    t.equal((await call(files_read_text, { fileId: f.fileId })).text, 'acme secret', 'untouched');
    await call(upload_abort, { uploadId: u.uploadId });
  });

  t.test('scopes: files:read reads, files:write writes', async (t) => {
    const reader = await callerFor(app, { email: 'reader@example.com', org: 'acme', scopes: ['files:read'], role: 'member' });
    const r = as(app, reader);
    const f = await call(files_write_text, { name: 'scoped.txt', text: 'x' });
    t.equal((await r(files_get, { fileId: f.fileId })).fileId, f.fileId);
    t.ok((await r(files_list, {})).items.length);
    t.equal((await r(files_read_text, { fileId: f.fileId })).text, 'x');
    for (const [binding, input] of [
      [files_write_text, { name: 'n', text: '' }],
      [files_update, { fileId: f.fileId, name: 'y' }],
      [files_trash, { fileId: f.fileId }],
      [files_restore, { fileId: f.fileId }],
      [files_delete, { fileId: f.fileId }],
      [upload_begin, { name: 'n', size: 1 }],
      [upload_complete, { uploadId: 'upl_aaaaaaaaaaaaaaaaaaaaaaaaaa' }],
      [upload_abort, { uploadId: 'upl_aaaaaaaaaaaaaaaaaaaaaaaaaa' }],
    ] as const) {
      const err = await fail(r(binding, input));
      t.equal(err.code, 'INSUFFICIENT_SCOPE', binding.name);
      t.equal(err.status, 403);
    }
    const orgOnly = await callerFor(app, { email: 'orgonly@example.com', org: 'acme', scopes: ['org:read'], role: 'member' });
    t.equal((await fail(as(app, orgOnly)(files_list, {}))).code, 'INSUFFICIENT_SCOPE');
    t.equal((await fail(as(app, orgOnly)(upload_status, { uploadId: 'upl_aaaaaaaaaaaaaaaaaaaaaaaaaa' }))).code, 'INSUFFICIENT_SCOPE');
  });

  t.test('every input and output field of the file bindings has a description', async (t) => {
    const mine = BINDINGS.filter((b) => b.name.startsWith('files_') || b.name.startsWith('upload_'));
    t.equal(mine.length, 17);
    const missing: string[] = [];
    const walk = (schema: Record<string, any>, path: string) => {
      for (const [key, prop] of Object.entries<Record<string, any>>(schema.properties ?? {})) {
        if (!prop.description) missing.push(`${path}.${key}`);
        walk(prop, `${path}.${key}`);
        if (prop.items) walk(prop.items, `${path}.${key}[]`);
      }
      for (const alt of [...(schema.anyOf ?? []), ...(schema.oneOf ?? []), ...(schema.allOf ?? [])]) walk(alt, path);
    };
    for (const b of mine) {
      t.ok(b.summary && b.examples?.length, `${b.name} has a summary and an example`);
      walk(jsonSchemaOf(b.input, 'input'), `${b.name}.input`);
      walk(jsonSchemaOf(b.output, 'output'), `${b.name}.output`);
    }
    t.same(missing, []);
  });
});
