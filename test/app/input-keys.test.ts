// Input keys as agents guess them, for the whole class of bindings and routes: every binding that takes one record id
// accepts `id` for it (same outcome as the typed key), a misspelt key is refused naming the key meant, in both
// languages, in scripts and on REST routes alike.
import t from 'tap';
import { startTestApp } from '../helpers/app.ts';
import { callerFor, caller as as } from '../helpers/callers.ts';
import { http } from '../helpers/http.ts';
import { BINDINGS } from '../../runtime-api/registry.ts';
import { recordIdKey } from '../../runtime-api/input-keys.ts';
import { ServiceError } from '../../runtime-api/errors.ts';
import { files_write_text } from '../../runtime-api/bindings/files/files_write_text.ts';
import { upload_begin } from '../../runtime-api/bindings/uploads/upload_begin.ts';
import { upload_status } from '../../runtime-api/bindings/uploads/upload_status.ts';

/** A value the id's schema accepts (an unknown record: the binding answers not_found or a refusal, the same either way). */
const ID_VALUES: Record<string, string> = {
  fileId: `fil_${'a'.repeat(26)}`,
  uploadId: `upl_${'a'.repeat(26)}`,
};

function outcome(p: Promise<unknown>) {
  return p.then(
    (value) => ({ ok: true, value }),
    (e: unknown) => (e instanceof ServiceError ? { ok: false, code: e.code, resolution: e.resolution } : { ok: false, thrown: String(e) }),
  );
}

t.test('input keys', async (t) => {
  const app = await startTestApp(t);
  const ana = await callerFor(app, { email: 'ana@example.com', org: 'acme' });
  const call = as(app, ana);
  const exec = (script: string, headers: Record<string, string> = {}) => http(`${app.url}/app/v1/execute`, { json: { script }, token: ana.token, headers });

  t.test('every binding taking one record id accepts `id` for it, with the same outcome', async (t) => {
    const single = BINDINGS.map((b) => ({ b, key: recordIdKey(Object.keys((b.input as { entries?: object }).entries ?? {})) })).filter((x) => x.key);
    t.ok(single.length >= 15, `${single.length} bindings take one record id`);
    for (const { b, key } of single) {
      const value = ID_VALUES[key!] ?? 'nope_0000';
      const typed = await outcome(call(b, { [key!]: value }));
      const byId = await outcome(call(b, { id: value }));
      t.same(byId, typed, `${b.name}({ id }) is ${b.name}({ ${key} })`);
      t.notMatch(JSON.stringify(byId), /`id`/, `${b.name} does not refuse \`id\``);
    }
    const f = await call(files_write_text, { name: 'notes/a.txt', text: 'hi' });
    t.match(await call(BINDINGS.find((b) => b.name === 'files_get')!, { id: f.fileId }), { fileId: f.fileId, name: 'notes/a.txt' });
  });

  t.test('a file name is accepted as `path`, a size as `byteLength`', async (t) => {
    const f = await call(files_write_text, { path: 'notes/b.txt', text: 'hi' });
    t.match(f, { name: 'notes/b.txt', path: 'notes/b.txt', size: 2 });
    const u = await call(upload_begin, { path: 'big/c.bin', byteLength: 10 });
    t.match(await call(upload_status, { id: u.id }), { name: 'big/c.bin', path: 'big/c.bin', size: 10 });
    const typo = await exec('return await upload_begin({ name: "x.bin", sise: 10 });');
    t.match(typo.body.error.resolution, /`sise`: not a field of this input; did you mean `size`\?/);
  });

  t.test('a misspelt key is refused with the key meant, in scripts, in both languages', async (t) => {
    const en = await exec('return await files_get({ fileid: "fil_x" });');
    t.equal(en.body.ok, false);
    t.equal(en.body.error.code, 'invalid_input');
    t.match(en.body.error.resolution, /`fileid`: not a field of this input; did you mean `fileId`\?/);
    const pt = await exec('return await files_get({ fileid: "fil_x" });', { 'x-service-locale': 'pt-BR' });
    t.match(pt.body.error.resolution, /`fileid`: não é um campo desta entrada; você quis dizer `fileId`\?/);
    const far = await exec('return await files_list({ colour: "blue" });');
    t.match(
      far.body.error.resolution,
      /`colour`: not a field of this input \(its fields: `state`, `limit`, `cursor`, `prefix`, `search`, `recursive`, `sort`, `order`\); remove it/,
    );
    const twice = await exec('return await files_get({ id: "fil_aaaaaaaaaaaaaaaaaaaaaaaaaa", fileId: "fil_bbbbbbbbbbbbbbbbbbbbbbbbbb" });');
    t.match(twice.body.error.resolution, /`fileId`: given twice with different values/);
  });

  t.test('REST routes give the same hint', async (t) => {
    const files = await http(`${app.url}/app/v1/files?prefx=notes/`, { token: ana.token });
    t.equal(files.status, 400);
    t.match(files.body.error, { code: 'invalid_input', resolution: /`prefx`: not a field of this input; did you mean `prefix`\?/ });
    const pt = await http(`${app.url}/app/v1/files?prefx=notes/`, { token: ana.token, headers: { 'x-service-locale': 'pt-BR' } });
    t.match(pt.body.error.resolution, /você quis dizer `prefix`\?/);
    const role = await http(`${app.url}/auth/organization/update-member-role`, { token: ana.token, json: { memberid: 'mem_x', role: 'admin' } });
    t.equal(role.status, 400);
    t.match(role.body.error.resolution, /did you mean `memberId`\?/);
    const removed = await http(`${app.url}/auth/organization/remove-member`, { token: ana.token, json: { email: 'nobody@example.com' } });
    t.equal(removed.status, 404, 'remove-member takes `email` for `memberIdOrEmail`: the member is looked up, not the body refused');
    const cancelled = await http(`${app.url}/auth/organization/cancel-invitation`, { token: ana.token, json: { id: 'inv_nope' } });
    t.equal(cancelled.body.error?.code ?? cancelled.body.code, 'INVITATION_NOT_FOUND', 'cancel-invitation takes `id`');
  });
});
