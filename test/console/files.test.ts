// The file browser over HTTP, as a person uses it: folders and files in a folder with breadcrumbs, sortable columns,
// a name search, paging past any number of files; a file's details (size, type, dates, checksums, who wrote it) with
// a preview where one is safe; rename and move with the bindings' path rules; trash with Undo, restore, delete for
// good; downloads and uploads (reserve, parts on the ordinary part route, status, complete) with the session cookie.
// The listing itself is the bindings' (files_list's search, order and folder depth, files_folders), checked as such.
import t from 'tap';
import { createHash } from 'node:crypto';
import { world } from '../identity/org-helpers.ts';
import { http } from '../helpers/http.ts';
import { contract } from '../helpers/openapi-contract.ts';
import { consoleForm, consolePage, csrfOf, withoutLabels } from './helpers.ts';

/** The file list's rows: each row's cells as text. */
function rows(html: string, id = 'file-list'): string[][] {
  const table = new RegExp(`<table class="stack" id="${id}">[\\s\\S]*?</table>`).exec(html)?.[0] ?? '';
  return [...table.matchAll(/<tr>([\s\S]*?)<\/tr>/g)].slice(1).map((r) =>
    [...r[1].matchAll(/<td[^>]*>([\s\S]*?)<\/td>/g)].map((c) =>
      c[1]
        .replace(/<[^>]+>/g, ' ')
        .replace(/\s+/g, ' ')
        .trim(),
    ),
  );
}
const names = (html: string, id?: string) => rows(html, id).map((r) => r[0]);

t.test('console: files', async (t) => {
  const w = await world(t);
  const { app } = w;
  const c = contract((await http(`${app.url}/openapi.json`)).body);
  const owner = await w.user('files-owner@example.com');
  const org = await w.org(owner, 'files-org');
  const { jar: member } = await w.join(owner, org.id, 'files-member@example.com', 'member');
  const run = async (jar: typeof owner, script: string) => {
    const res = await jar.post('/app/v1/execute', { script });
    if (res.status !== 200 || !res.body.ok) throw new Error(`script failed: ${res.text}`);
    return res.body.result;
  };
  const ids: Record<string, string> = await run(
    owner,
    `const out = {};
for (const [name, text] of [["reports/2026/q1.csv", "a,b\\n1,2\\n"], ["reports/2026/q2.csv", "a,b\\n3,4\\n5,6\\n"], ["reports/summary.md", "# Summary\\n<script>alert(1)</script>"],
  ["reports/Relatório Anual.txt", "olá"], ["notes.txt", "hello"], ["photos/cat.png", "not really a png"]])
  out[name] = (await files_write_text({ name, text, mediaType: name.endsWith(".csv") ? "text/csv" : name.endsWith(".png") ? "image/png" : name.endsWith(".md") ? "text/markdown" : "text/plain" })).fileId;
return out;`,
  );
  await run(member, 'await files_write_text({ name: "reports/by-member.txt", text: "from the member" });');

  t.test('the bindings: a folder level, a search ignoring case, an order, and the folders with what they hold', async (t) => {
    const r = await run(
      owner,
      `return {
  top: (await files_list({ recursive: false })).items.map((f) => f.name),
  reports: (await files_list({ prefix: "reports/", recursive: false })).items.map((f) => f.name),
  search: (await files_list({ search: "RELATÓRIO" })).items.map((f) => f.name),
  bySize: (await files_list({ prefix: "reports/2026/", sort: "size", order: "desc" })).items.map((f) => f.name),
  folders: (await files_folders({})).items,
  sub: (await files_folders({ prefix: "reports/" })).items.map((f) => [f.path, f.files]),
  writer: (await files_get({ fileId: ${JSON.stringify(ids['notes.txt'])} })).createdBy,
};`,
    );
    t.same(r.top, ['notes.txt']);
    t.same(r.reports, ['reports/Relatório Anual.txt', 'reports/by-member.txt', 'reports/summary.md']);
    t.same(r.search, ['reports/Relatório Anual.txt'], 'accents and case folded');
    t.same(r.bySize, ['reports/2026/q2.csv', 'reports/2026/q1.csv']);
    t.same(
      r.folders.map((f: { path: string; files: number }) => [f.path, f.files]),
      [
        ['photos/', 1],
        ['reports/', 5],
      ],
    );
    t.same(r.sub, [['reports/2026/', 2]]);
    t.match(r.writer, /^usr_/);
    // Every order pages stably, ties broken by id, and a cursor only continues the listing it came from.
    const walk = await run(
      owner,
      `const out = {};
for (const sort of ["name", "size", "createdAt", "updatedAt"]) for (const order of ["asc", "desc"]) {
  const whole = (await files_list({ sort, order })).items.map((f) => f.fileId);
  const walked = [];
  let cursor = null;
  do { const page = await files_list({ sort, order, limit: 2, cursor }); walked.push(...page.items.map((f) => f.fileId)); cursor = page.nextCursor; } while (cursor);
  out[sort + " " + order] = JSON.stringify(whole) === JSON.stringify(walked) && whole.length === 7;
}
const c = (await files_list({ sort: "size", limit: 1 })).nextCursor;
try { await files_list({ sort: "name", cursor: c }); out.mixed = "accepted"; } catch (e) { out.mixed = e.code; }
return out;`,
    );
    t.same(walk, {
      'name asc': true,
      'name desc': true,
      'size asc': true,
      'size desc': true,
      'createdAt asc': true,
      'createdAt desc': true,
      'updatedAt asc': true,
      'updatedAt desc': true,
      mixed: 'invalid_input',
    });
    const refused = await owner.post('/app/v1/execute', { script: 'return await files_folders({ prefix: "reports" })' });
    t.match(JSON.stringify(refused.body.error), /ends with `\/`/);
  });

  t.test('a folder: its subfolders then its files, breadcrumbs, columns to sort by', async (t) => {
    const top = await consolePage(owner, '/console/files');
    c.check(t, 'get', '/console/files', top);
    t.same(names(top.text), ['photos/', 'reports/', 'notes.txt']);
    t.match(rows(top.text)[1], ['reports/', /^\d+ B \(5 files\)$/, /UTC/, 'Folder', '']);
    t.match(
      top.text,
      /<nav class="crumbs" aria-label="Folder path"><ol><li><a href="\/console\/files\?lang=en-US" aria-current="page">All files<\/a><\/li><\/ol><\/nav>/,
    );
    const reports = await consolePage(owner, '/console/files?path=reports/');
    t.same(names(reports.text), ['2026/', 'Relatório Anual.txt', 'by-member.txt', 'summary.md']);
    t.match(reports.text, /<li><a href="\/console\/files\?lang=en-US&amp;path=reports%2F" aria-current="page">reports<\/a><\/li>/);
    t.match(reports.text, /<th scope="col" aria-sort="ascending"><a href="[^"]*sort=name&amp;order=desc"/, 'sorted by name; its header reverses it');
    const bySize = await consolePage(owner, '/console/files?path=reports/&sort=size&order=desc');
    t.same(names(bySize.text), ['2026/', 'summary.md', 'by-member.txt', 'Relatório Anual.txt']);
    t.match(bySize.text, /<th scope="col" class="num" aria-sort="descending">/);
    t.match(withoutLabels(reports.text), /href="\/v1\/mcp\/files\/fil_[a-z2-7]+\/download" download aria-label="Download reports\/summary\.md"/);
    const pt = await consolePage(owner, '/console/files?path=reports/', 'pt-BR');
    t.match(pt.text, /Todos os arquivos/);
    t.match(pt.text, /Enviar uma pasta/);
  });

  t.test('a name search covers the folder and below, whatever the case', async (t) => {
    const res = await consolePage(owner, `/console/files?path=reports/&q=${encodeURIComponent('Q1')}`);
    t.same(names(res.text), ['2026/q1.csv'], 'paths shown from the folder searched');
    t.match(res.text, /Files whose name contains “Q1”/);
    const none = await consolePage(owner, '/console/files?q=zzz');
    t.match(none.text, /No file name here contains that/);
  });

  t.test('paging through any number of files', async (t) => {
    // Six scripts of 20 writes made together: each stays well within a script's time limit on a busy machine.
    for (let from = 0; from < 120; from += 20)
      await run(
        owner,
        `await Promise.all(Array.from({ length: 20 }, (_, k) => files_write_text({ name: \`bulk/f\${String(${from} + k).padStart(3, "0")}.txt\`, text: String(k) })));`,
      );
    const seen: string[] = [];
    let path = '/console/files?path=bulk/';
    for (let pages = 0; path && pages < 10; pages++) {
      const res = await consolePage(owner, path);
      seen.push(...names(res.text));
      path = /href="([^"]+)" rel="next">Next page/.exec(res.text)?.[1]?.replaceAll('&amp;', '&') ?? '';
    }
    t.equal(seen.length, 120, 'three pages of 50, 50 and 20');
    t.same(seen, [...seen].sort(), 'in order, none twice');
    const first = await consolePage(owner, '/console/files?path=bulk/&cursor=not-a-cursor');
    t.equal(names(first.text)[0], 'f000.txt', 'an edited cursor starts over instead of failing');
  });

  t.test('details: facts, who wrote it, a preview where it is safe', async (t) => {
    const csv = await consolePage(owner, `/console/files/details?fileId=${ids['reports/2026/q2.csv']}`);
    c.check(t, 'get', '/console/files/details', csv);
    t.match(csv.text, /<title>q2\.csv · Siglata<\/title>/);
    t.match(csv.text, /<dt>Path<\/dt><dd><code>reports\/2026\/q2\.csv<\/code><\/dd>/);
    t.match(csv.text, /<dt>Size<\/dt><dd>12 B <span class="note">\(12 bytes\)<\/span><\/dd>/);
    t.match(csv.text, /<dt>Type<\/dt><dd><code>text\/csv<\/code><\/dd>/);
    t.match(csv.text, /<dt>Written by<\/dt><dd>files-owner@example\.com<\/dd>/);
    const sha = createHash('sha256').update('a,b\n3,4\n5,6\n').digest('hex');
    t.match(csv.text, new RegExp(`<dt>SHA-256</dt><dd><code class="hash">${sha}</code>`));
    t.match(csv.text, /<pre class="preview"[^>]*><code>a,b\n3,4\n5,6\n<\/code><\/pre>/);
    t.match(csv.text, /<a class="button" href="\/v1\/mcp\/files\/fil_[a-z2-7]+\/download" download>Download<\/a>/);
    const md = await consolePage(owner, `/console/files/details?fileId=${ids['reports/summary.md']}`);
    t.match(md.text, /<code># Summary\n&lt;script&gt;alert\(1\)&lt;\/script&gt;<\/code>/, 'markup is shown as text');
    const image = await consolePage(owner, `/console/files/details?fileId=${ids['photos/cat.png']}`);
    t.match(image.text, /<img class="preview" src="\/v1\/mcp\/files\/fil_[a-z2-7]+\/download" alt="Preview of cat\.png">/);
    const byMember = await run(owner, 'return (await files_list({ search: "by-member" })).items[0].fileId');
    t.match((await consolePage(owner, `/console/files/details?fileId=${byMember}`)).text, /<dt>Written by<\/dt><dd>files-member@example\.com<\/dd>/);
    const big = await run(owner, 'return (await files_write_text({ name: "logs/big.log", text: "line\\n".repeat(40000) })).fileId');
    const bigPage = await consolePage(owner, `/console/files/details?fileId=${big}`);
    t.match(
      bigPage.text,
      /data-preview-src="\/v1\/mcp\/files\/fil_[a-z2-7]+\/download" data-preview-bytes="65536"/,
      'a large text (200 KB): its first 64 KiB, by the script',
    );
    const binary = await run(owner, 'return (await files_write_bytes({ name: "bin/blob.bin", base64: "AAECAw==" })).fileId');
    t.match((await consolePage(owner, `/console/files/details?fileId=${binary}`)).text, /No preview for this type of file/);
    const missing = await consolePage(owner, '/console/files/details?fileId=fil_aaaaaaaaaaaaaaaaaaaaaaaaaa');
    t.equal(missing.status, 404);
    t.match(missing.text, /No such file in this organization/);
  });

  t.test('rename and move follow the path rules; a refusal keeps what was typed', async (t) => {
    const fileId = ids['notes.txt'];
    const moved = await consoleForm(owner, 'file-rename', { fileId, newName: 'archive/2025/notes.txt', mediaType: 'text/plain' });
    t.equal(moved.status, 303);
    t.equal(moved.headers.location, `/console/files/details?lang=en-US&fileId=${fileId}&done=file-rename`);
    c.check(t, 'post', '/console/actions/file-rename', moved);
    const after = await owner.get(moved.headers.location as string);
    t.match(after.text, /<code>archive\/2025\/notes\.txt<\/code>/);
    t.match(after.text, /role="status">Saved\./);
    t.match(after.text, /<li><a href="[^"]*path=archive%2F2025%2F">2025<\/a><\/li>/, 'breadcrumbs to its new folder');
    const bad = await consoleForm(owner, 'file-rename', { fileId, newName: 'archive/../etc/passwd', mediaType: 'text/plain' });
    t.equal(bad.status, 400);
    t.match(bad.text, /role="alert"><p>[^<]*Path: file name must not contain an empty, `\.` or `\.\.` segment/);
    t.match(bad.text, /id="rename-path"[^>]*value="archive\/\.\.\/etc\/passwd"/, 'what was typed is still there');
    t.match(bad.text, /data-page-url="\/console\/files\/details\?lang=en-US&amp;fileId=fil_/);
    const pt = await consoleForm(owner, 'file-rename', { fileId, newName: ' espaço', mediaType: 'text/plain' }, { lang: 'pt-BR' });
    t.match(pt.text, /role="alert"><p>[^<]*Caminho: /);
  });

  t.test('several files at once: move to a folder, move to the trash', async (t) => {
    const page = await consolePage(owner, '/console/files?path=bulk/');
    t.match(page.text, /<input type="checkbox" name="fileId" value="fil_[a-z2-7]+" form="bulk" aria-label="Select: bulk\/f000\.txt" data-select>/);
    t.match(page.text, /<form id="bulk" method="post" action="\/console\/actions\/files-bulk\?lang=en-US"/);
    const ids = (await run(owner, 'return (await files_list({ prefix: "bulk/", limit: 3 })).items.map((f) => f.fileId)')) as string[];
    const form = (fields: [string, string][]) => {
      const csrf = csrfOf(page.text);
      return http(`${app.url}/console/actions/files-bulk?lang=en-US`, {
        method: 'POST',
        body: new URLSearchParams([['csrf', csrf], ...fields]).toString(),
        headers: { ...owner.headers(), 'content-type': 'application/x-www-form-urlencoded' },
      });
    };
    const moved = await form([
      ['op', 'move'],
      ['target', 'bulk/old'],
      ['path', 'bulk/'],
      ['fileId', ids[0]],
      ['fileId', ids[1]],
    ]);
    t.equal(moved.status, 303, moved.text.match(/role="alert"><p>([^<]*)/)?.[1] ?? '');
    c.check(t, 'post', '/console/actions/files-bulk', moved);
    t.same(names((await consolePage(owner, '/console/files?path=bulk/old/')).text), ['f000.txt', 'f001.txt']);
    const none = await form([
      ['op', 'trash'],
      ['path', 'bulk/'],
    ]);
    t.equal(none.status, 400);
    t.match(none.text, /No file is selected\./);
    const partly = await form([
      ['op', 'trash'],
      ['path', 'bulk/'],
      ['fileId', ids[2]],
      ['fileId', 'fil_aaaaaaaaaaaaaaaaaaaaaaaaaa'],
    ]);
    t.equal(partly.status, 409, 'one of two refused');
    t.match(partly.text, /role="alert"><p>1 done; not done: fil_a+ \(/);
    t.equal(await run(owner, `return (await files_get({ fileId: ${JSON.stringify(ids[2])} })).state`), 'trashed', 'the other one is done');
    await run(owner, `await files_restore({ fileId: ${JSON.stringify(ids[2])} });`);
  });

  t.test('trash with Undo, the trash page, restore, delete for good', async (t) => {
    const fileId = ids['reports/2026/q1.csv'];
    const trashed = await consoleForm(owner, 'file-trash', { fileId, path: 'reports/2026/' });
    t.equal(trashed.status, 303);
    c.check(t, 'post', '/console/actions/file-trash', trashed);
    const folder = await owner.get(trashed.headers.location as string);
    t.match(folder.text, /Moved to the trash\./);
    t.match(folder.text, /q1\.csv was moved to the trash\.[\s\S]*name="back" value="files"[\s\S]*>Undo<\/button>/);
    t.same(names(folder.text), ['q2.csv']);
    const undone = await consoleForm(owner, 'file-restore', { fileId, back: 'files', path: 'reports/2026/' });
    t.equal(undone.status, 303);
    t.match(undone.headers.location, /^\/console\/files\?lang=en-US&path=reports%2F2026%2F&done=file-restore$/);
    t.same(names((await consolePage(owner, '/console/files?path=reports/2026/')).text), ['q1.csv', 'q2.csv']);

    for (const name of ['reports/2026/q1.csv', 'reports/summary.md']) t.equal((await consoleForm(owner, 'file-trash', { fileId: ids[name] })).status, 303);
    const trash = await consolePage(owner, '/console/files/trash');
    c.check(t, 'get', '/console/files/trash', trash);
    t.same(names(trash.text, 'trash-list'), ['reports/summary.md', 'reports/2026/q1.csv'], 'most recently trashed first');
    t.match(trash.text, /data-confirm="Delete reports\/summary\.md forever\? It cannot be restored afterwards\."/);
    t.same(names((await consolePage(owner, '/console/files/trash?q=SUMMARY')).text, 'trash-list'), ['reports/summary.md']);
    const details = await consolePage(owner, `/console/files/details?fileId=${ids['reports/summary.md']}`);
    t.match(details.text, /in the trash/);
    t.match(details.text, /Restore the file to rename or move it/);
    const deleted = await consoleForm(owner, 'file-delete', { fileId: ids['reports/summary.md'] });
    t.equal(deleted.status, 303);
    c.check(t, 'post', '/console/actions/file-delete', deleted);
    t.same(names((await consolePage(owner, '/console/files/trash')).text, 'trash-list'), ['reports/2026/q1.csv']);
    const restored = await consoleForm(owner, 'file-restore', { fileId: ids['reports/2026/q1.csv'] });
    t.equal(restored.headers.location, '/console/files/trash?lang=en-US&done=file-restore');
  });

  t.test("downloads with the session cookie, under the download route's sandbox", async (t) => {
    const res = await http(`${app.url}/v1/mcp/files/${ids['reports/2026/q2.csv']}/download`, { headers: { cookie: owner.cookie } });
    t.equal(res.status, 200);
    c.check(t, 'get', '/v1/mcp/files/{fileId}/download', res);
    t.equal(res.text, 'a,b\n3,4\n5,6\n');
    t.equal(res.headers['content-security-policy'], "default-src 'none'; sandbox");
    t.match(res.headers['content-disposition'], /^attachment;/);
    const range = await http(`${app.url}/v1/mcp/files/${ids['reports/2026/q2.csv']}/download`, { headers: { cookie: owner.cookie, range: 'bytes=0-2' } });
    t.equal(range.status, 206);
    t.equal(range.text, 'a,b');
    const foreign = await http(`${app.url}/v1/mcp/files/${ids['reports/2026/q2.csv']}/download`, {
      headers: { cookie: owner.cookie, origin: 'https://evil.example' },
    });
    t.equal(foreign.status, 403, 'another origin is refused');
  });

  t.test('uploads: reserve, parts on the part route, status, complete, with the session and the CSRF token', async (t) => {
    const csrf = csrfOf((await consolePage(owner, '/console/files')).text);
    const api = (name: string, json: unknown, headers: Record<string, string> = {}) =>
      http(`${app.url}/console/api/${name}`, { json, headers: { ...owner.headers(), 'x-csrf-token': csrf, ...headers } });
    const bytes = Buffer.alloc(8 * 1024 * 1024 + 5, 7);
    const begun = await api('upload_begin', { name: 'uploads/big.bin', mediaType: 'application/octet-stream', size: bytes.length });
    t.equal(begun.status, 200, begun.text);
    c.check(t, 'post', '/console/api/upload_begin', begun);
    t.equal(begun.body.partCount, 2);
    const part = (n: number, body: Buffer, headers: Record<string, string> = {}) =>
      http(`${app.url}/v1/mcp/uploads/${begun.body.uploadId}/parts/${n}`, {
        method: 'PUT',
        body,
        headers: { ...owner.headers(), 'content-type': 'application/octet-stream', ...headers },
      });
    const first = await part(1, bytes.subarray(0, 8 * 1024 * 1024));
    t.equal(first.status, 200, first.text);
    c.check(t, 'put', '/v1/mcp/uploads/{uploadId}/parts/{partNumber}', first);
    t.equal((await part(2, bytes.subarray(8 * 1024 * 1024), { origin: 'https://evil.example' })).status, 403, 'a part from another origin is refused');
    const status = await api('upload_status', { uploadId: begun.body.uploadId });
    c.check(t, 'post', '/console/api/upload_status', status);
    t.same(status.body.missingParts, [2], 'what an interrupted upload still needs');
    t.equal((await part(2, bytes.subarray(8 * 1024 * 1024))).status, 200);
    const done = await api('upload_complete', { uploadId: begun.body.uploadId });
    t.equal(done.status, 200, done.text);
    c.check(t, 'post', '/console/api/upload_complete', done);
    t.equal(done.body.file.name, 'uploads/big.bin');
    const other = await api('upload_begin', { name: 'uploads/dropped.bin', size: 3 });
    const aborted = await api('upload_abort', { uploadId: other.body.uploadId });
    c.check(t, 'post', '/console/api/upload_abort', aborted);
    t.equal(aborted.status, 200);

    const noCsrf = await api('upload_begin', { name: 'x.bin', size: 1 }, { 'x-csrf-token': '' });
    t.equal(noCsrf.status, 403);
    t.equal(noCsrf.body.error.code, 'ORIGIN_NOT_ALLOWED');
    const foreign = await api('upload_begin', { name: 'x.bin', size: 1 }, { origin: 'https://evil.example' });
    t.equal(foreign.status, 403);
    const bearer = await http(`${app.url}/console/api/upload_begin`, {
      json: { name: 'x.bin', size: 1 },
      token: await app.token({ email: 'files-owner@example.com', org: 'files-org' }),
    });
    t.equal(bearer.status, 401, 'a Bearer token is refused');
    const badName = await api('upload_begin', { name: 'a//b.bin', size: 1 }, { 'x-service-locale': 'pt-BR' });
    t.equal(badName.status, 400);
    c.check(t, 'post', '/console/api/upload_begin', badName);
    t.equal(badName.body.error.message, 'Os parâmetros não passaram na validação.', 'refusals in the page language');
  });

  t.test('a member browses, uploads and trashes too', async (t) => {
    const page = await consolePage(member, '/console/files?path=reports/');
    t.equal(page.status, 200);
    t.match(page.text, /id="upload-files"/);
    const fileId = await run(member, 'return (await files_list({ search: "by-member" })).items[0].fileId');
    t.equal((await consoleForm(member, 'file-trash', { fileId })).status, 303);
  });
});
