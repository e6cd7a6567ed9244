// Organization API keys end to end over loopback HTTP: created by an admin through the bindings, scoped within the
// organization's maxScopes, shown once and stored hashed, accepted as Bearer on MCP, /app/v1 and the transfer
// routes, listed with last use, rate-limited per key, expiring and revocable.
import t from 'tap';
import { createHash, randomBytes } from 'node:crypto';
import { startTestApp } from '../helpers/app.ts';
import { http } from '../helpers/http.ts';
import { download, putPart } from '../files/transfer-helpers.ts';

const LIMIT = 25;

t.test('organization API keys', async (t) => {
  const app = await startTestApp(t, { manualClock: true, env: { RATE_LIMIT_MAX: String(LIMIT) } });
  const owner = await app.token({ email: 'owner@keys.example', org: 'keys-org' });
  const member = await app.token({ email: 'member@keys.example', org: 'keys-org', role: 'member' });
  const outsider = await app.token({ email: 'boss@other.example', org: 'other-org' });
  const sql = app.deps.sql;
  // Each step starts a new rate-limit window so that only the rate-limit step ever reaches the limit.
  const freshWindow = () => app.clock.advance!(61_000);
  const run = async (token: string, script: string) => {
    const res = await http(`${app.url}/v1/mcp`, {
      token,
      headers: { accept: 'application/json, text/event-stream' },
      json: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'execute', arguments: { script } } },
    });
    const content = res.body?.result?.structuredContent;
    // The MCP endpoint refuses a missing scope before running the script (403 step-up); a binding refuses inside it.
    return { status: res.status, headers: res.headers, body: res.body, content, code: content?.error?.code ?? res.body?.error?.code };
  };
  const call = (token: string, name: string, input: unknown) => run(token, `return await ${name}(${JSON.stringify(input)});`);
  const create = async (input: unknown, token = owner) => {
    const r = await call(token, 'api_keys_create', input);
    t.equal(r.content?.ok, true, JSON.stringify(r.content?.error ?? r.body));
    return r.content.result as { id: string; key: string; scopes: string[]; state: string; expiresAt: string; lastUsedAt: string | null };
  };

  t.test('created by an admin, shown once, stored only as its hash', async (t) => {
    freshWindow();
    const k = await create({ name: 'ci-nightly', scopes: ['files:write', 'files:read'], expiresInDays: 30 });
    t.match(k.key, /^slk_[A-Za-z0-9_-]{43}$/);
    t.same(k.scopes, ['files:read', 'files:write'], 'scopes in canonical order');
    t.equal(k.state, 'active');
    t.equal(k.lastUsedAt, null);
    t.equal(new Date(k.expiresAt).getTime() - app.clock.now().getTime(), 30 * 86_400_000);
    const rows = await sql`select * from api_keys where id = ${k.id}`;
    t.equal(rows.length, 1);
    t.notOk(JSON.stringify(rows[0]).includes(k.key.slice(4)), 'the secret is nowhere in the row');
    t.equal(rows[0].secret_hash, createHash('sha256').update(k.key).digest('hex'));
    const listed = await call(owner, 'api_keys_list', {});
    const entry = listed.content.result.items.find((e: any) => e.id === k.id);
    t.match(entry, { name: 'ci-nightly', state: 'active', createdBy: 'owner@keys.example' });
    t.notOk('key' in entry, 'a listing never shows the secret');
    t.notOk(JSON.stringify(listed.body).includes(k.key.slice(4)));
  });

  t.test('only owners and admins; never beyond maxScopes; a key cannot mint keys', async (t) => {
    freshWindow();
    const byMember = await call(member, 'api_keys_create', { name: 'x', scopes: ['files:read'] });
    t.equal(byMember.content.error.code, 'ORGANIZATION_ADMIN_REQUIRED');
    const listByMember = await call(member, 'api_keys_list', {});
    t.equal(listByMember.content.error.code, 'ORGANIZATION_ADMIN_REQUIRED');
    const orgId = (await call(owner, 'context', {})).content.result.organization.id;
    await sql`update org_mcp_access set max_scopes = ${['files:read', 'org:read', 'org:admin']} where org_id = ${orgId}`;
    try {
      const beyond = await call(owner, 'api_keys_create', { name: 'too-wide', scopes: ['files:read', 'files:write'] });
      // An uncaught scope refusal is the request's 403 INSUFFICIENT_SCOPE on every face.
      t.equal(beyond.status, 403);
      t.equal(beyond.code, 'INSUFFICIENT_SCOPE');
      t.match(beyond.body.error.message + beyond.body.error.resolution, /files:write/);
    } finally {
      await sql`update org_mcp_access set max_scopes = ${['files:read', 'files:write', 'org:read', 'org:admin']} where org_id = ${orgId}`;
    }
    for (const bad of [
      { name: '', scopes: ['files:read'] },
      { name: 'a', scopes: [] },
      { name: 'a', scopes: ['root'] },
      { name: 'a', scopes: ['files:read'], expiresInDays: 0 },
      { name: 'a', scopes: ['files:read'], expiresInDays: 366 },
      { name: 'a', scopes: ['files:read'], expiresInDays: 1.5 },
      { name: 'a', scopes: ['files:read'], extra: 1 },
    ]) {
      const r = await call(owner, 'api_keys_create', bad);
      t.equal(r.content.error.code, 'invalid_input', JSON.stringify(bad));
    }
    const admin = await create({ name: 'admin-key', scopes: ['org:admin', 'org:read'] });
    const minted = await call(admin.key, 'api_keys_create', { name: 'child', scopes: ['org:read'] });
    t.equal(minted.status, 403, "an uncaught scope refusal is the request's 403");
    t.equal(minted.code, 'INSUFFICIENT_SCOPE');
    t.match(minted.body.error.resolution, /cannot create API keys/);
    t.equal((await call(admin.key, 'api_keys_list', {})).content.ok, true, 'but it may list them with org:admin');
  });

  t.test('accepted on MCP, /app/v1 and the transfer routes, with its own scopes only', async (t) => {
    freshWindow();
    const k = await create({ name: 'uploader', scopes: ['files:read', 'files:write'] });
    const ctx = await call(k.key, 'context', {});
    t.equal(ctx.content.ok, true, JSON.stringify(ctx.content.error));
    t.same([...ctx.content.result.scopes].sort(), ['files:read', 'files:write']);
    const denied = await call(k.key, 'members_list', {});
    t.equal(denied.code, 'INSUFFICIENT_SCOPE', 'org:read was not granted');
    const appCtx = await http(`${app.url}/app/v1/context`, { token: k.key });
    t.equal(appCtx.status, 200);
    t.equal(appCtx.body.organization.slug, 'keys-org');
    const data = randomBytes(50_000);
    const begin = await http(`${app.url}/app/v1/execute`, {
      token: k.key,
      json: { mode: 'run', script: `return await upload_begin({ name: "ci/build.bin", mediaType: "application/octet-stream", size: ${data.length} });` },
    });
    t.equal(begin.status, 200, begin.text);
    const { uploadId } = begin.body.result;
    t.equal((await putPart(app, k.key, uploadId, 1, data)).status, 200);
    const done = await call(k.key, 'upload_complete', { uploadId });
    t.equal(done.content.ok, true, JSON.stringify(done.content.error));
    const got = await download(app, k.key, done.content.result.file.fileId);
    t.equal(got.status, 200, got.body.toString().slice(0, 300));
    t.ok(got.body.equals(data), 'the bytes uploaded with the key come back with it');
    const used = (await call(owner, 'api_keys_list', {})).content.result.items.find((e: any) => e.id === k.id);
    t.equal(used.lastUsedAt, app.clock.now().toISOString(), 'last use recorded');
    // Lowering the organization's ceiling after creation narrows the key at once.
    const orgId = ctx.content.result.organization.id;
    await sql`update org_mcp_access set max_scopes = ${['files:read', 'org:read', 'org:admin']} where org_id = ${orgId}`;
    try {
      t.same((await call(k.key, 'context', {})).content.result.scopes, ['files:read']);
      t.equal((await call(k.key, 'files_write_text', { name: 'x.txt', text: 'x' })).code, 'INSUFFICIENT_SCOPE');
    } finally {
      await sql`update org_mcp_access set max_scopes = ${['files:read', 'files:write', 'org:read', 'org:admin']} where org_id = ${orgId}`;
    }
  });

  t.test('rate-limited per key: one key at its limit does not hold back another', async (t) => {
    freshWindow();
    const a = await create({ name: 'busy', scopes: ['files:read'] });
    const b = await create({ name: 'calm', scopes: ['files:read'] });
    freshWindow();
    const statuses: number[] = [];
    for (let i = 0; i <= LIMIT; i++) statuses.push((await http(`${app.url}/app/v1/context`, { token: a.key })).status);
    t.same(statuses.slice(0, LIMIT), Array(LIMIT).fill(200));
    const over = await http(`${app.url}/app/v1/context`, { token: a.key });
    t.equal(over.status, 429);
    t.equal(over.body.error.code, 'rate_limited');
    t.ok(over.headers['retry-after']);
    const other = await http(`${app.url}/app/v1/context`, { token: b.key });
    t.equal(other.status, 200, 'another key has its own window');
    t.equal(other.headers['ratelimit-remaining'], String(LIMIT - 1));
  });

  t.test('expired, revoked and unknown keys are 401; revocation is per organization', async (t) => {
    freshWindow();
    const short = await create({ name: 'one-day', scopes: ['files:read'], expiresInDays: 1 });
    const revoked = await create({ name: 'to-revoke', scopes: ['files:read'] });
    t.equal((await http(`${app.url}/app/v1/context`, { token: revoked.key })).status, 200);
    const foreign = await call(outsider, 'api_keys_revoke', { keyId: revoked.id });
    t.equal(foreign.content.error.code, 'not_found', 'another organization cannot see or revoke it');
    t.equal((await http(`${app.url}/app/v1/context`, { token: revoked.key })).status, 200);
    const r = await call(owner, 'api_keys_revoke', { keyId: revoked.id });
    t.equal(r.content.result.state, 'revoked');
    const firstRevokedAt = r.content.result.revokedAt;
    for (const path of ['/app/v1/context', '/v1/mcp/files/file_x/download']) {
      const res = await http(`${app.url}${path}`, { token: revoked.key });
      t.equal(res.status, 401, path);
      t.equal(res.body.error.code, 'unauthorized');
      t.match(res.body.error.resolution, /unknown, expired or revoked API key/);
      t.match(String(res.headers['www-authenticate']), /error="invalid_token"/);
    }
    t.equal((await run(revoked.key, 'return 1')).status, 401, 'MCP refuses it too');
    app.clock.advance!(1000);
    const again = await call(owner, 'api_keys_revoke', { keyId: revoked.id });
    t.equal(again.content.result.revokedAt, firstRevokedAt, 'revoking twice keeps the first date');
    t.equal((await http(`${app.url}/app/v1/context`, { token: short.key })).status, 200);
    app.clock.advance!(86_400_000);
    t.equal((await http(`${app.url}/app/v1/context`, { token: short.key })).status, 401, 'expired after its day');
    // The owner's one-hour access token expired with the day too: a fresh one.
    const ownerNow = await app.token({ email: 'owner@keys.example', org: 'keys-org' });
    const listed = (await call(ownerNow, 'api_keys_list', {})).content.result.items;
    t.equal(listed.find((e: any) => e.id === short.id).state, 'expired');
    t.equal(listed.find((e: any) => e.id === revoked.id).state, 'revoked');
    for (const bogus of ['slk_', `slk_${randomBytes(32).toString('base64url')}`, `${short.key.slice(0, -1)}A`]) {
      t.equal((await http(`${app.url}/app/v1/context`, { token: bogus })).status, 401, bogus);
    }
    const pt = await http(`${app.url}/app/v1/context`, { token: short.key, headers: { 'x-service-locale': 'pt-BR' } });
    t.match(pt.body.error.resolution, /chave de API é desconhecida, expirou ou foi revogada/);
  });

  t.test('a key stops working when its creator leaves the organization', async (t) => {
    freshWindow();
    const admin = await app.token({ email: 'leaving@keys.example', org: 'keys-org', role: 'admin' });
    const k = await create({ name: 'left-behind', scopes: ['files:read'] }, admin);
    t.equal((await http(`${app.url}/app/v1/context`, { token: k.key })).status, 200);
    await sql`delete from members where user_id = (select id from users where email = 'leaving@keys.example')`;
    const res = await http(`${app.url}/app/v1/context`, { token: k.key });
    t.equal(res.status, 403);
    t.equal(res.body.error.code, 'ORGANIZATION_MEMBERSHIP_REQUIRED');
  });
});
