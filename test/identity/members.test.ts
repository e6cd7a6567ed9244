// research/auth.md section 6, cases 22 and 23: the last-owner rule (also under concurrent removals and demotions),
// removing by e-mail or id, and a removed member's credentials losing the organization at once. Plus the same
// rules through `invoke`, as scripts reach them.
import t from 'tap';
import { http } from '../helpers/http.ts';
import { world } from './org-helpers.ts';
import { invoke } from '../../runtime-api/invoke.ts';
import { member_remove } from '../../runtime-api/bindings/organization/member_remove.ts';
import { member_update_role } from '../../runtime-api/bindings/organization/member_update_role.ts';
import { members_list } from '../../runtime-api/bindings/organization/members_list.ts';
import { invokeDeps } from '../../server/deps.ts';
import type { Caller } from '../../runtime-api/identity/caller.ts';

t.test('members', async (t) => {
  const w = await world(t);
  const { app } = w;

  t.test('case 22: the sole owner cannot demote or remove himself (409); owner rules', async (t) => {
    const solo = await w.user('solo22@example.com');
    const org = await w.org(solo, 'case22');
    const me = (await solo.get(`/auth/organization/get?organizationId=${org.id}`)).body.members[0];
    const demote = await solo.post('/auth/organization/update-member-role', { memberId: me.id, role: 'admin', organizationId: org.id });
    t.equal(demote.status, 409);
    t.equal(demote.body.code, 'conflict');
    const demotePt = await solo.post(
      '/auth/organization/update-member-role',
      { memberId: me.id, role: 'admin', organizationId: org.id },
      { 'x-service-locale': 'pt-BR' },
    );
    t.equal(demote.body.message, "This member is the organization's last owner, and an organization must keep at least one. Make another member owner first.");
    t.equal(
      demotePt.body.message,
      'Este membro é o último proprietário da organização, e uma organização precisa manter pelo menos um. Torne outro membro proprietário antes.',
    );
    for (const memberIdOrEmail of [me.id, 'SOLO22@example.com']) {
      const remove = await solo.post('/auth/organization/remove-member', { memberIdOrEmail, organizationId: org.id });
      t.equal(remove.status, 409, memberIdOrEmail);
    }
    t.same(await w.roles(org.id), { 'solo22@example.com': 'owner' });

    const { jar: admin, memberId: adminId } = await w.join(solo, org.id, 'admin22@example.com', 'admin');
    t.equal(
      (await admin.post('/auth/organization/update-member-role', { memberId: me.id, role: 'member', organizationId: org.id })).status,
      403,
      'admin demotes owner',
    );
    t.equal((await admin.post('/auth/organization/remove-member', { memberIdOrEmail: me.id, organizationId: org.id })).status, 403, 'admin removes owner');
    const grant = await admin.post('/auth/organization/update-member-role', { memberId: adminId, role: 'owner', organizationId: org.id });
    t.equal(grant.status, 403, 'admin grants owner (even to himself)');
    t.equal(grant.body.error.code, 'ORGANIZATION_ADMIN_REQUIRED');
    const promoted = await solo.post('/auth/organization/update-member-role', { memberId: adminId, role: 'owner', organizationId: org.id });
    t.equal(promoted.status, 200);
    t.match(promoted.body, { id: adminId, role: 'owner', email: 'admin22@example.com' });
    t.equal(
      (await solo.post('/auth/organization/update-member-role', { memberId: me.id, role: 'member', organizationId: org.id })).status,
      200,
      'with two owners one may step down',
    );
    t.same(await w.roles(org.id), { 'solo22@example.com': 'member', 'admin22@example.com': 'owner' });
  });

  t.test('case 22: concurrent removals and demotions of two owners: one 409, an owner always remains', async (t) => {
    const ownersOf = async (orgId: string) => Object.values(await w.roles(orgId)).filter((r) => r === 'owner').length;
    for (let round = 0; round < 3; round++) {
      const a = await w.user(`a${round}-22@example.com`);
      const org = await w.org(a, `race22-${round}`);
      const { memberId: bId } = await w.join(a, org.id, `b${round}-22@example.com`, 'owner');
      const aId = (await a.get(`/auth/organization/get?organizationId=${org.id}`)).body.members.find((m: { email: string }) => m.email.startsWith('a')).id;

      // One owner removes the other while stepping down himself: each alone is fine, together they would leave none.
      // The loser is 409 (last owner) when both run inside the lock, or 403 when the demotion landed before the
      // removal began (an admin may not remove an owner).
      const [remove, demote] = await Promise.all([
        a.post('/auth/organization/remove-member', { memberIdOrEmail: bId, organizationId: org.id }),
        a.post('/auth/organization/update-member-role', { memberId: aId, role: 'admin', organizationId: org.id }),
      ]);
      const statuses = [remove.status, demote.status].sort();
      t.ok(statuses[0] === 200 && (statuses[1] === 409 || statuses[1] === 403), `round ${round}, remove + demote: ${remove.status} ${demote.status}`);
      t.equal(await ownersOf(org.id), 1, 'exactly one owner remains');
    }
    for (let round = 0; round < 5; round++) {
      const a = await w.user(`c${round}-22@example.com`);
      const org = await w.org(a, `race22b-${round}`);
      const { jar: b, memberId: bId } = await w.join(a, org.id, `d${round}-22@example.com`, 'owner');
      const aId = (await a.get(`/auth/organization/get?organizationId=${org.id}`)).body.members.find((m: { email: string }) => m.email.startsWith('c')).id;
      const demotions = await Promise.all([
        a.post('/auth/organization/update-member-role', { memberId: aId, role: 'admin', organizationId: org.id }),
        b.post('/auth/organization/update-member-role', { memberId: bId, role: 'member', organizationId: org.id }),
      ]);
      t.same(demotions.map((r) => r.status).sort(), [200, 409], `round ${round}, both step down`);
      t.equal(await ownersOf(org.id), 1);
    }
    for (let round = 0; round < 3; round++) {
      const a = await w.user(`e${round}-22@example.com`);
      const org = await w.org(a, `race22c-${round}`);
      const { jar: b, memberId: bId } = await w.join(a, org.id, `f${round}-22@example.com`, 'owner');
      const aId = (await a.get(`/auth/organization/get?organizationId=${org.id}`)).body.members.find((m: { email: string }) => m.email.startsWith('e')).id;
      // Each removes the other: the loser is 409 inside the lock, or 403 when its own removal landed before it began.
      const mutual = await Promise.all([
        a.post('/auth/organization/remove-member', { memberIdOrEmail: bId, organizationId: org.id }),
        b.post('/auth/organization/remove-member', { memberIdOrEmail: aId, organizationId: org.id }),
      ]);
      const statuses = mutual.map((r) => r.status).sort();
      t.ok(statuses[0] === 200 && (statuses[1] === 409 || statuses[1] === 403), `round ${round}, mutual removal: ${statuses}`);
      t.equal(await ownersOf(org.id), 1);
    }
  });

  t.test("case 23: remove by e-mail and by id; the removed user's Bearer and session calls are 403 at once", async (t) => {
    const owner = await w.user('owner23@example.com');
    const org = await w.org(owner, 'case23');
    const { jar: kim, memberId: kimId } = await w.join(owner, org.id, 'kim23@example.com', 'admin');
    const { jar: lou } = await w.join(owner, org.id, 'lou23@example.com', 'member');
    const kimToken = await app.token({ email: 'kim23@example.com', org: 'case23' });
    const louToken = await app.token({ email: 'lou23@example.com', org: 'case23' });
    t.equal((await http(`${app.url}/api`, { token: kimToken })).status, 200);
    t.equal((await http(`${app.url}/auth/organization/get`, { token: louToken })).body.id, org.id, 'a token acts on its organization');

    const byEmail = await owner.post('/auth/organization/remove-member', { memberIdOrEmail: 'Lou23@Example.com', organizationId: org.id });
    t.equal(byEmail.status, 200);
    t.match(byEmail.body, { member: { email: 'lou23@example.com', role: 'member' } });
    const byId = await owner.post('/auth/organization/remove-member', { memberIdOrEmail: kimId, organizationId: org.id });
    t.equal(byId.status, 200);
    t.equal(byId.body.member.id, kimId);
    t.same(await w.roles(org.id), { 'owner23@example.com': 'owner' });

    for (const [label, token] of [
      ['kim', kimToken],
      ['lou', louToken],
    ] as const) {
      const api = await http(`${app.url}/api`, { token });
      t.equal(api.status, 403, `${label}: GET /api with the token`);
      t.equal(api.body.error.code, 'ORGANIZATION_MEMBERSHIP_REQUIRED');
      const get = await http(`${app.url}/auth/organization/get`, { token });
      t.equal(get.body.error.code, 'ORGANIZATION_MEMBERSHIP_REQUIRED', `${label}: organization route with the token`);
    }
    const session = await kim.get(`/auth/organization/get?organizationId=${org.id}`);
    t.equal(session.status, 403);
    t.equal(session.body.error.code, 'ORGANIZATION_MEMBERSHIP_REQUIRED');
    t.equal((await lou.get('/auth/get-session')).body.session.activeOrganizationId, null, 'the session has no organization left');
    t.equal((await kim.post('/auth/organization/invite-member', { email: 'z23@example.com', role: 'member', organizationId: org.id })).status, 403);
    const again = await owner.post('/auth/organization/remove-member', { memberIdOrEmail: kimId, organizationId: org.id });
    t.equal(again.status, 404, 'already removed');
  });

  t.test('scripts get the same rules through invoke', async (t) => {
    const owner = await w.user('owner-s@example.com');
    const org = await w.org(owner, 'scripted');
    const { memberId } = await w.join(owner, org.id, 'mia-s@example.com', 'member');
    const [row] = await app.deps.sql`select m.id, m.user_id from members m join users u on u.id = m.user_id where u.email = 'owner-s@example.com'`;
    const caller: Caller = {
      kind: 'session',
      userId: row.user_id,
      email: 'owner-s@example.com',
      locale: 'en-US',
      membership: { orgId: org.id, memberId: row.id, role: 'owner' },
      scopes: ['files:read', 'files:write', 'org:read', 'org:admin'],
    };
    const deps = invokeDeps(app.deps);
    t.equal((await invoke(members_list, {}, caller, deps)).items.length, 2);
    await t.rejects(invoke(member_update_role, { memberId: row.id, role: 'admin' }, caller, deps), { code: 'conflict' });
    await t.rejects(invoke(member_remove, { memberIdOrEmail: 'nobody@example.com' }, caller, deps), { code: 'not_found' });
    const removed = await invoke(member_remove, { memberIdOrEmail: memberId }, caller, deps);
    t.equal(removed.member.email, 'mia-s@example.com');
    // Two owners' callers resolved before either acts (as in a script run), removing each other at once: the
    // organization row lock serializes them and the second sees the last owner — always 409.
    for (let round = 0; round < 5; round++) {
      const a = await w.user(`ia${round}@example.com`);
      const o = await w.org(a, `invoke-race-${round}`);
      await w.join(a, o.id, `ib${round}@example.com`, 'owner');
      const rows = await app.deps
        .sql`select m.id, m.user_id, u.email::text as email from members m join users u on u.id = m.user_id where m.org_id = ${o.id} order by u.email`;
      const owners: Caller[] = rows.map((r) => ({
        kind: 'session',
        userId: r.user_id,
        email: r.email,
        locale: 'en-US',
        membership: { orgId: o.id, memberId: r.id, role: 'owner' },
        scopes: ['files:read', 'files:write', 'org:read', 'org:admin'],
      }));
      const settled = await Promise.allSettled([
        invoke(member_remove, { memberIdOrEmail: rows[1].id }, owners[0], deps),
        invoke(member_remove, { memberIdOrEmail: rows[0].id }, owners[1], deps),
      ]);
      t.same(settled.map((r) => r.status).sort(), ['fulfilled', 'rejected'], `round ${round}`);
      const failure = settled.find((r) => r.status === 'rejected') as PromiseRejectedResult;
      t.equal(failure.reason.code, 'conflict', `round ${round}: the loser is 409`);
      t.equal(Object.values(await w.roles(o.id)).filter((r) => r === 'owner').length, 1);
    }
    const readOnly = { ...caller, scopes: ['org:read'] as const };
    await t.rejects(invoke(member_remove, { memberIdOrEmail: 'x@example.com' }, readOnly, deps), { code: 'INSUFFICIENT_SCOPE' });
  });
});
