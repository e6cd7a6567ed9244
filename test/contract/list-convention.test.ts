// One list shape: every list binding (a name ending in `_list`, or an output carrying `items`) takes `limit` and
// `cursor` and answers exactly `{ items, nextCursor }`, no binding answers a bare array, and walking any list a page of
// one at a time against a real organization gives the same items as one big page, each once, ending on null. The
// faces whose shape the spec fixes as an array (/auth/organization/list, list-invitations) still answer the whole list.
import t from 'tap';
import * as v from 'valibot';
import { BINDINGS } from '../../runtime-api/registry.ts';
import type { Binding } from '../../runtime-api/define.ts';
import { world } from '../identity/org-helpers.ts';
import { oauthFlow } from '../helpers/oauth.ts';
import { startTestApp } from '../helpers/app.ts';
import { callerFor } from '../helpers/callers.ts';
import { defineBinding } from '../../runtime-api/define.ts';
import { listInputEntries, listOutput } from '../../runtime-api/list-page.ts';
import { invokeWholeList } from '../../runtime-api/services/whole-list.ts';
import { invokeDeps } from '../../server/deps.ts';

type Schema = { type: string; wrapped?: Schema; entries?: Record<string, Schema>; item?: Schema };

const isList = (b: Binding) => b.name.endsWith('_list') || (b.output.type === 'object' && 'items' in (b.output as Schema).entries!);

t.test('every list binding declares the one list shape', async (t) => {
  const lists = BINDINGS.filter(isList);
  t.ok(lists.length >= 8, `${lists.map((b) => b.name).join(', ')}`);
  t.ok(
    lists.some((b) => b.name === 'invitations_received'),
    'a list not named *_list is found by its output',
  );
  for (const b of BINDINGS) t.not((b.output as Schema).type, 'array', `${b.name} does not answer a bare array`);
  for (const b of lists) {
    const out = b.output as Schema;
    t.equal(out.type, 'object', `${b.name}: an object`);
    t.same(Object.keys(out.entries ?? {}).sort(), ['items', 'nextCursor'], `${b.name}: exactly items and nextCursor`);
    t.equal(out.entries?.items?.type, 'array', `${b.name}: items is an array`);
    t.equal(out.entries?.nextCursor?.type, 'nullable', `${b.name}: nextCursor may be null`);
    t.equal(out.entries?.nextCursor?.wrapped?.type, 'string', `${b.name}: nextCursor is a string otherwise`);
    // The inputs every list shares: a page size with a default, and a cursor that may be omitted or null.
    const first = v.safeParse(b.input, {});
    t.ok(first.success && Number.isInteger((first.output as { limit: unknown }).limit), `${b.name}: limit has a default`);
    t.ok(v.safeParse(b.input, { limit: 1, cursor: null }).success, `${b.name}: takes limit 1 and cursor null`);
    t.notOk(v.safeParse(b.input, { limit: 0 }).success, `${b.name}: limit 0 is refused`);
    t.ok(v.safeParse(b.input, { cursor: 'abc' }).success, `${b.name}: takes a cursor string`);
  }
});

t.test('every list walks page by page to the same items as one page', async (t) => {
  const w = await world(t);
  const { app } = w;
  const owner = await w.user('owner@lists.example');
  await w.org(owner, 'lists-other-a');
  await w.org(owner, 'lists-other-b');
  const org = await w.org(owner, 'lists-org'); // created last: the session's active organization
  for (const n of [1, 2, 3]) await w.join(owner, org.id, `member${n}@lists.example`, 'member');
  for (const n of [1, 2, 3]) {
    const inv = await owner.post('/auth/organization/invite-member', { email: `pending${n}@lists.example`, role: 'member', organizationId: org.id });
    t.equal(inv.status, 201);
  }
  // Invitations addressed to the owner from three other organizations (invitations_received).
  for (const n of [1, 2, 3]) {
    const inviter = await w.user(`inviter${n}@lists.example`);
    const other = await w.org(inviter, `lists-inviter-${n}`);
    t.equal((await inviter.post('/auth/organization/invite-member', { email: 'owner@lists.example', role: 'member', organizationId: other.id })).status, 201);
  }
  for (let n = 0; n < 3; n++) await oauthFlow(app, { cookie: owner.cookie, organizationId: org.id });
  const run = async (script: string) => {
    const res = await owner.post('/app/v1/execute', { script });
    t.equal(res.status, 200, res.status === 200 ? 'answered' : res.text.slice(0, 300));
    return res.body;
  };
  const seeded = await run(`for (const n of [1, 2, 3]) {
  await files_write_text({ name: \`list-\${n}.txt\`, text: String(n) });
  await files_write_text({ name: \`folder-\${n}/inside.txt\`, text: String(n) });
  await api_keys_create({ name: \`key-\${n}\`, scopes: ["files:read"] });
  await mcp_access_set({ state: n === 2 ? "testing" : "active" });
}
return true;`);
  t.equal(seeded.ok, true, seeded.ok ? 'seeded' : JSON.stringify(seeded.error));

  for (const b of BINDINGS.filter(isList)) {
    const r = await run(`const walked = [];
let cursor = null, pages = 0;
do {
  const page = await ${b.name}({ limit: 1, cursor });
  if (!Array.isArray(page.items) || page.items.length > 1) throw new Error("not a page of one: " + JSON.stringify(page));
  walked.push(...page.items);
  cursor = page.nextCursor;
  pages++;
} while (cursor && pages < 100);
const whole = await ${b.name}({});
return { walked, whole, pages, last: cursor };`);
    t.equal(r.ok, true, `${b.name}: ${r.ok ? 'ran' : JSON.stringify(r.error)}`);
    if (!r.ok) continue;
    const { walked, whole, pages, last } = r.result;
    t.equal(last, null, `${b.name}: the walk ends on a null nextCursor`);
    t.equal(whole.nextCursor, null, `${b.name}: one default page holds them all`);
    t.ok(whole.items.length >= 3, `${b.name}: ${whole.items.length} items seeded`);
    t.same(walked, whole.items, `${b.name}: pages of one give the same items in the same order`);
    t.equal(pages, whole.items.length, `${b.name}: one page per item`);
    const foreign = await run(
      `const c = (await ${b.name === 'files_list' ? 'members_list' : 'files_list'}({ limit: 1 })).nextCursor; try { await ${b.name}({ cursor: c }); return "accepted"; } catch (e) { return [e.code, e.resolution]; }`,
    );
    t.equal(foreign.result[0], 'invalid_input', `${b.name}: another list's cursor is refused`);
    t.match(foreign.result[1], /`cursor`/, `${b.name}: and the resolution names the field`);
  }
});

t.test("the spec's array faces answer every item, however many pages the binding takes", async (t) => {
  const w = await world(t);
  const { app } = w;
  const owner = await w.user('owner@many.example');
  const org = await w.org(owner, 'many-org');
  // 130 pending invitations: more than one default page (100) of invitations_list. Inserted as rows: mailing 130
  // invitations is not what this test is about.
  const now = app.clock.now();
  for (let i = 0; i < 130; i++) {
    await app.deps.sql`insert into invitations (id, org_id, email, role, locale, created_at, expires_at, updated_at)
      values (${`inv_many${String(i).padStart(3, '0')}`}, ${org.id}, ${`p${i}@many.example`}, 'member', 'en-US', ${new Date(now.getTime() - 1000 + i)}, ${new Date(now.getTime() + 86_400_000)}, ${now})`;
  }
  const listed = await owner.get(`/auth/organization/list-invitations?organizationId=${org.id}`);
  t.equal(listed.status, 200);
  t.ok(Array.isArray(listed.body), 'an array, as spec 4.3 says');
  t.equal(listed.body.length, 130, 'every pending invitation');
  t.equal(new Set(listed.body.map((i: { id: string }) => i.id)).size, 130, 'each once');
  const orgs = await owner.get('/auth/organization/list');
  t.ok(Array.isArray(orgs.body) && orgs.body.some((o: { id: string }) => o.id === org.id), 'organizations: an array too');
  const page = await owner.post('/app/v1/execute', { script: 'return await invitations_list({})' });
  t.equal(page.body.result.items.length, 100, 'the binding itself answers a page');
  t.type(page.body.result.nextCursor, 'string');
});

t.test('a whole-list walk stops on a cursor that does not advance instead of looping', async (t) => {
  const app = await startTestApp(t);
  const c = await callerFor(app, { email: 'loop@lists.example' });
  let calls = 0;
  const stuck = defineBinding({
    name: 'stuck_list',
    summary: 'A broken list.',
    input: v.strictObject({ ...listInputEntries() }),
    output: listOutput(v.number(), 'numbers'),
    scope: null,
    writes: false,
    async handler() {
      calls++;
      return { items: [calls], nextCursor: 'same' };
    },
  });
  await t.rejects(invokeWholeList(stuck, {}, c, invokeDeps(app.deps)), { code: 'internal_error' });
  t.equal(calls, 2, 'the second page, which handed back the same cursor, ends the walk');
});
