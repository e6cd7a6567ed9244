// Records as agents read them: a record of every kind a script gets back carries `id` and its typed id with the same
// value (a file also `path` beside `name` and `size`, never `byteLength`), read the way an agent does, through
// an OAuth token and scripts sent to /app/v1/execute.
import t from 'tap';
import { world } from '../identity/org-helpers.ts';
import { http } from '../helpers/http.ts';
import { oauthFlow } from '../helpers/oauth.ts';

const SCRIPT = `
const file = await files_write_text({ name: "r/a.txt", text: "abc" });
const upload = await upload_begin({ name: "r/b.bin", size: 3 });
const invitation = await member_invite({ email: "guest@example.com", role: "member" });
const key = await api_keys_create({ name: "ci", scopes: ["files:read"] });
const org = await organization_get({});
const ctx = await context();
return {
  file: [file, (await files_list({})).items[0], await files_get({ fileId: file.fileId }), await files_read_text({ fileId: file.fileId }),
    await files_read_bytes({ fileId: file.fileId }), await files_write_bytes({ name: "r/c.bin", base64: "AAE=" })],
  upload: [upload, await upload_status({ uploadId: upload.uploadId })],
  invitation: [invitation, ...(await invitations_list({})).items, ...(await invitations_received({})).items],
  member: [...(await members_list({})).items, ...org.members],
  key: [key, ...(await api_keys_list({})).items],
  execution: (await executions_list({})).items,
  organization: [org, ...(await organizations_list({})).items, ctx.organization],
  grant: (await oauth_grants_list({})).items,
  access: [await mcp_access_get({})],
  user: [ctx.user],
};`;

const TYPED: Record<string, string> = {
  file: 'fileId',
  upload: 'uploadId',
  invitation: 'invitationId',
  member: 'memberId',
  key: 'keyId',
  execution: 'executionId',
  organization: 'organizationId',
  grant: 'grantId',
  access: 'organizationId',
  user: 'userId',
};

t.test('a record of every kind carries `id` and its typed id', async (t) => {
  const w = await world(t);
  const owner = await w.user('owner@example.com');
  const org = await w.org(owner, 'records');
  const other = await w.user('other@example.com');
  const elsewhere = await w.org(other, 'elsewhere');
  t.equal((await other.post('/auth/organization/invite-member', { email: owner.email, role: 'member', organizationId: elsewhere.id })).status, 201);
  const agent = await oauthFlow(w.app, { cookie: owner.cookie, organizationId: org.id });
  const exec = (script: string) => http(`${w.app.url}/app/v1/execute`, { json: { script }, token: agent.tokens.access_token });
  t.equal((await exec('return 1')).body.ok, true, 'one execution to list');

  const res = await exec(SCRIPT);
  t.equal(res.body.ok, true, JSON.stringify(res.body.error));
  const got = res.body.result as Record<string, Record<string, unknown>[]>;
  t.same(Object.keys(got).sort(), Object.keys(TYPED).sort());
  for (const [kind, records] of Object.entries(got)) {
    t.ok(records.length > 0, `some ${kind} records`);
    for (const r of records) {
      t.type(r.id, 'string', `${kind}: \`id\``);
      t.equal(r[TYPED[kind]], r.id, `${kind}: \`${TYPED[kind]}\` is \`id\``);
    }
  }
  for (const f of got.file) {
    t.equal(f.path, f.name, 'a file has `path` beside `name`');
    t.type(f.size, 'number', 'and `size`');
    t.notOk('byteLength' in f, 'never `byteLength`');
  }
  t.equal(got.upload[1].size, 3, 'an upload has `size`');
  t.equal(got.upload[1].path, 'r/b.bin', 'and `path`');
  const invited = got.invitation.find((i) => i.organizationId === elsewhere.id);
  t.ok(invited, 'the invitation received from another organization is listed');
});
