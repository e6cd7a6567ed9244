// Who may import and export, and how: the REST faces and the export download checked against /openapi.json; scopes
// (files:write to import, files:read to export and to download); another organization's export is not found; plan
// mode records both as writes (nothing imported until the apply); what an export fixes, refuses and when it expires.
import t from 'tap';
import { startTestApp } from '../helpers/app.ts';
import { callerFor, caller as as } from '../helpers/callers.ts';
import { http } from '../helpers/http.ts';
import { contract } from '../helpers/openapi-contract.ts';
import type { ServiceError } from '../../runtime-api/errors.ts';
import { newId } from '../../runtime-api/ids.ts';
import { files_export } from '../../runtime-api/bindings/files/files_export.ts';
import { files_import } from '../../runtime-api/bindings/files/files_import.ts';
import { files_list } from '../../runtime-api/bindings/files/files_list.ts';
import { files_trash } from '../../runtime-api/bindings/files/files_trash.ts';
import { files_delete } from '../../runtime-api/bindings/files/files_delete.ts';
import { files_write_text } from '../../runtime-api/bindings/files/files_write_text.ts';
import { upload_status } from '../../runtime-api/bindings/uploads/upload_status.ts';
import { purgeExports } from '../../runtime-api/services/janitors.ts';
import { invokeDeps } from '../../server/deps.ts';
import { fetchBytes, makeTar, readTar, uploadArchive } from './archive-helpers.ts';

const fail = (p: Promise<unknown>) =>
  p.then(
    () => {
      throw new Error('expected a ServiceError');
    },
    (e) => e as ServiceError,
  );

t.test('archive access', async (t) => {
  const app = await startTestApp(t, { manualClock: true, env: { SCRIPT_WALL_MS: '30000' } });
  const doc = (await http(`${app.url}/openapi.json`)).body;
  const c = contract(doc);
  const ana = await callerFor(app, { email: 'ana@example.com', org: 'acme' });
  const call = as(app, ana);
  const archive = await makeTar([
    { name: 'site/index.html', data: '<h1>hi</h1>' },
    { name: 'site/css/main.css', data: 'h1 { color: red }' },
  ]);
  const downloadPath = '/v1/mcp/files/exports/{exportId}/download';

  t.test('the REST faces and the download answer as /openapi.json says', async (t) => {
    const uploadId = await uploadArchive(app, ana, archive, 'site.tar');
    const imported = await http(`${app.url}/app/v1/files/import`, { token: ana.token, json: { uploadId } });
    t.equal(imported.status, 200);
    t.match(imported.body, { format: 'tar', created: 2, entries: [{ path: 'site/index.html', status: 'created' }, { path: 'site/css/main.css' }] });
    c.check(t, 'post', '/app/v1/files/import', imported);
    const again = await http(`${app.url}/app/v1/files/import`, { token: ana.token, json: { uploadId } });
    t.equal(again.status, 409);
    c.check(t, 'post', '/app/v1/files/import', again);
    const typo = await http(`${app.url}/app/v1/files/import`, { token: ana.token, json: { uploadId, onErorr: 'skip' } });
    t.equal(typo.status, 400);
    t.equal(typo.body.error.code, 'invalid_input');
    c.check(t, 'post', '/app/v1/files/import', typo);
    const anon = await http(`${app.url}/app/v1/files/import`, { json: { uploadId } });
    t.equal(anon.status, 401);
    c.check(t, 'post', '/app/v1/files/import', anon);

    const exported = await http(`${app.url}/app/v1/files/export`, { token: ana.token, json: { prefix: 'site' } });
    t.equal(exported.status, 200);
    t.match(exported.body, { format: 'tar', count: 2, bytes: 28 });
    c.check(t, 'post', '/app/v1/files/export', exported);
    const missing = await http(`${app.url}/app/v1/files/export`, { token: ana.token, json: { fileIds: [newId('fil')] } });
    t.equal(missing.status, 404);
    c.check(t, 'post', '/app/v1/files/export', missing);

    const got = await http(exported.body.downloadUrl, { token: ana.token });
    t.equal(got.status, 200);
    t.equal(got.headers['cache-control'], 'private, no-store');
    c.check(t, 'get', downloadPath, got);
    const unknown = await http(`${app.url}/v1/mcp/files/exports/${newId('exp')}/download`, { token: ana.token });
    t.equal(unknown.status, 404);
    c.check(t, 'get', downloadPath, unknown);
    const bad = await http(`${app.url}/v1/mcp/files/exports/nope/download`, { token: ana.token });
    t.equal(bad.status, 400);
    c.check(t, 'get', downloadPath, bad);
    const noToken = await http(exported.body.downloadUrl);
    t.equal(noToken.status, 401);
    c.check(t, 'get', downloadPath, noToken);
  });

  t.test('scopes: files:write to import, files:read to export and to download', async (t) => {
    const reader = await callerFor(app, { email: 'ana@example.com', org: 'acme', scopes: ['files:read'] });
    const writer = await callerFor(app, { email: 'ana@example.com', org: 'acme', scopes: ['files:write'] });
    const uploadId = await uploadArchive(app, writer, archive, 'site.tar');
    const refused = await fail(as(app, reader)(files_import, { uploadId }));
    t.equal(refused.code, 'INSUFFICIENT_SCOPE');
    const rest = await http(`${app.url}/app/v1/files/import`, { token: reader.token, json: { uploadId } });
    t.equal(rest.status, 403);
    t.equal(rest.body.error.code, 'INSUFFICIENT_SCOPE');
    t.equal((await as(app, ana)(upload_status, { uploadId })).state, 'open', 'nothing happened to the upload');
    t.equal((await fail(as(app, writer)(files_export, {}))).code, 'INSUFFICIENT_SCOPE');
    const exported = await as(app, reader)(files_export, { prefix: 'site' });
    const download = await fetchBytes(exported.downloadUrl, writer.token);
    t.equal(download.status, 403, 'a token without files:read cannot download an export');
    t.equal((await fetchBytes(exported.downloadUrl, reader.token)).status, 200);
  });

  t.test("another organization's export is not found, whatever its scopes", async (t) => {
    const exported = await call(files_export, { prefix: 'site' });
    const bo = await callerFor(app, { email: 'bo@example.com', org: 'other-org' });
    const res = await http(exported.downloadUrl, { token: bo.token });
    t.equal(res.status, 404);
    t.equal(res.body.code, 'not_found');
    c.check(t, 'get', downloadPath, res);
    t.equal((await fetchBytes(exported.downloadUrl, ana.token)).status, 200, 'while its own organization downloads it');
  });

  t.test('plan mode records files_import and files_export as writes; the apply performs them', async (t) => {
    const bea = await callerFor(app, { email: 'bea@example.com', org: 'planners' });
    const uploadId = await uploadArchive(app, bea, archive, 'site.tar');
    const script = `const r = await files_import({ uploadId: ${JSON.stringify(uploadId)}, into: "planned" });\nconst e = await files_export({ prefix: "planned" });\nreturn { r, e };`;
    const exec = (body: unknown) => http(`${app.url}/app/v1/execute`, { token: bea.token, json: body });
    const plan = await exec({ script, mode: 'plan' });
    t.equal(plan.status, 200);
    t.equal(plan.body.ok, true, JSON.stringify(plan.body.error));
    t.match(plan.body.operations, [
      { index: 0, binding: 'files_import', input: { uploadId, into: 'planned' } },
      { index: 1, binding: 'files_export', input: { prefix: 'planned' } },
    ]);
    t.same(plan.body.result, { r: { planned: true, index: 0 }, e: { planned: true, index: 1 } });
    t.equal(((await as(app, bea)(files_list, {})) as { items: unknown[] }).items.length, 0, 'nothing imported by planning');
    t.equal((await as(app, bea)(upload_status, { uploadId })).state, 'open');
    const applied = await exec({ script, mode: 'apply', planToken: plan.body.planToken });
    t.equal(applied.status, 200);
    t.equal(applied.body.ok, true, JSON.stringify(applied.body.error));
    t.match(applied.body.result, { r: { created: 2, entries: [{ path: 'planned/site/index.html' }] }, e: { count: 2 } });
    const entries = await readTar((await fetchBytes(applied.body.result.e.downloadUrl, bea.token)).body);
    t.same(entries.map((e) => e.name).sort(), ['site/css/main.css', 'site/index.html']);
    t.equal((await as(app, bea)(upload_status, { uploadId })).state, 'imported');
  });

  t.test('what an export fixes and refuses', async (t) => {
    const cy = await callerFor(app, { email: 'cy@example.com', org: 'exporters' });
    const cyCall = as(app, cy);
    const a = await cyCall(files_write_text, { name: 'docs/a.txt', text: 'A' });
    const b = await cyCall(files_write_text, { name: 'docs/sub/b.txt', text: 'B' });
    const out = await cyCall(files_write_text, { name: 'elsewhere/c.txt', text: 'C' });

    const listed = await cyCall(files_export, { prefix: 'docs/', fileIds: [b.fileId, a.fileId, a.fileId] });
    t.match(listed, { count: 2, bytes: 2 });
    t.same(
      (await readTar((await fetchBytes(listed.downloadUrl, cy.token)).body)).map((e) => [e.name, e.data.toString()]),
      [
        ['a.txt', 'A'],
        ['sub/b.txt', 'B'],
      ],
    );
    const outside = await fail(cyCall(files_export, { prefix: 'docs', fileIds: [out.fileId] }));
    t.equal(outside.code, 'invalid_input');
    t.match(outside.resolution, /not under the folder `docs`/);
    t.equal((await fail(cyCall(files_export, { prefix: '../x' }))).code, 'invalid_input');
    t.equal((await fail(cyCall(files_export, { fileIds: [] }))).code, 'invalid_input');

    // Trashed after the export: still in it (a trashed file keeps its bytes). Deleted for good: 409 conflict.
    const fixed = await cyCall(files_export, { prefix: 'docs' });
    await cyCall(files_trash, { fileId: a.fileId });
    t.equal((await fail(cyCall(files_export, { fileIds: [a.fileId] }))).code, 'not_found', 'a new export takes active files only');
    t.equal((await readTar((await fetchBytes(fixed.downloadUrl, cy.token)).body)).length, 2);
    await cyCall(files_delete, { fileId: a.fileId });
    const gone = await http(fixed.downloadUrl, { token: cy.token });
    t.equal(gone.status, 409);
    t.equal(gone.body.code, 'conflict');

    // A file that would be a folder of another in the archive (the catalogue can hold such names from before).
    await app.deps.sql`insert into files (id, org_id, name, media_type, byte_length, blob_key, state, created_at, updated_at, modified_at)
      values (${newId('fil')}, ${cy.membership!.orgId}, 'clash', 'text/plain', 0, ${`${cy.membership!.orgId}/${newId('blb')}`}, 'active', now(), now(), now()),
             (${newId('fil')}, ${cy.membership!.orgId}, 'clash/inner', 'text/plain', 0, ${`${cy.membership!.orgId}/${newId('blb')}`}, 'active', now(), now(), now())`;
    const clash = await fail(cyCall(files_export, {}));
    t.equal(clash.code, 'conflict');
    t.match(clash.message, /`clash`/);

    const empty = await cyCall(files_export, { prefix: 'nothing-here', format: 'zip' });
    t.match(empty, { count: 0, bytes: 0, format: 'zip' });
    t.equal((await fetchBytes(empty.downloadUrl, cy.token)).status, 200, 'an empty archive');
  });

  t.test('an export expires, and the janitor forgets it', async (t) => {
    const exported = await call(files_export, { prefix: 'site' });
    t.equal(exported.expiresAt, new Date(app.clock.now().getTime() + 3600_000).toISOString(), 'an hour by default');
    app.clock.advance!(3600_000 + 1);
    const token = (await callerFor(app, { email: 'ana@example.com', org: 'acme' })).token; // the old one expired too
    const expired = await http(exported.downloadUrl, { token });
    t.equal(expired.status, 404);
    t.match(expired.body.message, /expired/);
    const purged = await purgeExports({ ...invokeDeps(app.deps), logger: app.deps.logger });
    t.ok(purged && purged.exports >= 1, 'the janitor forgot the expired exports');
    const forgotten = await http(exported.downloadUrl, { token });
    t.equal(forgotten.status, 404);
    t.notMatch(forgotten.body.message, /expired/);
  });
});
