// research/auth.md section 6, cases 20 and 21: who may accept an invitation and when, and ids from another
// organization (404, nothing changed).
import t from 'tap';
import { http } from '../helpers/http.ts';
import { world } from './org-helpers.ts';

t.test('invitations', async (t) => {
  const w = await world(t, { manualClock: true });
  const { app } = w;
  const invitationRow = async (id: string) => (await app.deps.sql`select status from invitations where id = ${id}`)[0];

  t.test('case 20: another e-mail is 403; expired, cancelled, answered or unknown invitations are 404', async (t) => {
    const owner = await w.user('owner20@example.com');
    const org = await w.org(owner, 'case20');
    const invite = async (email: string) => (await owner.post('/auth/organization/invite-member', { email, role: 'member', organizationId: org.id })).body;

    const forBea = await invite('bea20@example.com');
    const mallory = await w.user('mallory20@example.com');
    const wrong = await mallory.post('/auth/organization/accept-invitation', { invitationId: forBea.id });
    t.equal(wrong.status, 403);
    t.match(wrong.body.error.resolution, 'sent to another e-mail address');
    const wrongPt = await mallory.post('/auth/organization/accept-invitation', { invitationId: forBea.id }, { 'x-service-locale': 'pt-BR' });
    t.match(wrongPt.body.error.resolution, 'enviado para outro endereço');
    t.equal((await mallory.post('/auth/organization/reject-invitation', { invitationId: forBea.id })).status, 403);
    t.equal((await invitationRow(forBea.id)).status, 'pending', 'untouched');

    const bea = await w.user('bea20@example.com');
    const ok = await bea.post('/auth/organization/accept-invitation', { invitationId: forBea.id });
    t.equal(ok.status, 200);
    t.equal((await bea.get('/auth/get-session')).body.session.activeOrganizationId, org.id, 'accepting makes it the active organization');
    const twice = await bea.post('/auth/organization/accept-invitation', { invitationId: forBea.id });
    t.equal(twice.status, 404);
    t.same(twice.body, { code: 'INVITATION_NOT_FOUND', message: 'The invitation does not exist or is no longer pending.' });
    const twicePt = await bea.post('/auth/organization/accept-invitation', { invitationId: forBea.id }, { 'x-service-locale': 'pt-BR' });
    t.same(twicePt.body, { code: 'INVITATION_NOT_FOUND', message: 'O convite não existe ou não está mais pendente.' });

    const forCid = await invite('cid20@example.com');
    t.equal((await owner.post('/auth/organization/cancel-invitation', { invitationId: forCid.id })).status, 200);
    const cid = await w.user('cid20@example.com');
    t.equal((await cid.post('/auth/organization/accept-invitation', { invitationId: forCid.id })).status, 404, 'cancelled');
    t.equal((await owner.post('/auth/organization/cancel-invitation', { invitationId: forCid.id })).body.code, 'INVITATION_NOT_FOUND', 'cancel twice');

    const forDot = await invite('dot20@example.com');
    const dot = await w.user('dot20@example.com');
    t.equal((await dot.post('/auth/organization/reject-invitation', { invitationId: forDot.id })).body.status, 'rejected');
    t.equal((await dot.post('/auth/organization/accept-invitation', { invitationId: forDot.id })).status, 404, 'rejected');

    t.equal((await dot.post('/auth/organization/accept-invitation', { invitationId: 'inv_unknown' })).status, 404, 'unknown');

    const forEd = await invite('ed20@example.com');
    const ed = await w.user('ed20@example.com');
    app.clock.advance!(48 * 3600_000 + 1000);
    const expired = await ed.post('/auth/organization/accept-invitation', { invitationId: forEd.id });
    t.equal(expired.status, 404, 'expired after 48 h');
    t.equal(expired.body.code, 'INVITATION_NOT_FOUND');
    t.same((await owner.get(`/auth/organization/list-invitations?organizationId=${org.id}`)).body, [], 'no longer listed');
    t.equal((await http(`${app.url}/auth/organization/invitation?id=${forEd.id}`)).status, 404, 'the invitation page says so too');
    const fresh = await owner.post('/auth/organization/invite-member', { email: 'ed20@example.com', role: 'admin', organizationId: org.id });
    t.equal(fresh.status, 201, 'a lapsed invitation does not block a new one');
    t.equal((await ed.post('/auth/organization/accept-invitation', { invitationId: fresh.body.id })).body.member.role, 'admin');
    t.same(await w.roles(org.id), { 'owner20@example.com': 'owner', 'bea20@example.com': 'member', 'ed20@example.com': 'admin' });
  });

  t.test('case 21: ids of another organization answer 404 and change nothing', async (t) => {
    const adminA = await w.user('admin-a21@example.com');
    const orgA = await w.org(adminA, 'org-a21');
    const ownerB = await w.user('owner-b21@example.com');
    const orgB = await w.org(ownerB, 'org-b21');
    const { memberId: bMember } = await w.join(ownerB, orgB.id, 'member-b21@example.com', 'member');
    const bInvite = (await ownerB.post('/auth/organization/invite-member', { email: 'x21@example.com', role: 'member', organizationId: orgB.id })).body;
    const before = await w.roles(orgB.id);

    for (const body of [{ invitationId: bInvite.id }, { invitationId: bInvite.id, organizationId: orgA.id }]) {
      const res = await adminA.post('/auth/organization/cancel-invitation', body);
      t.equal(res.status, 404, JSON.stringify(body));
      t.equal(res.body.code, 'INVITATION_NOT_FOUND');
    }
    t.equal((await invitationRow(bInvite.id)).status, 'pending');

    const update = await adminA.post('/auth/organization/update-member-role', { memberId: bMember, role: 'admin', organizationId: orgA.id });
    t.equal(update.status, 404);
    t.equal(update.body.code, 'not_found');
    const remove = await adminA.post('/auth/organization/remove-member', { memberIdOrEmail: bMember, organizationId: orgA.id });
    t.equal(remove.status, 404);
    const byEmail = await adminA.post('/auth/organization/remove-member', { memberIdOrEmail: 'member-b21@example.com', organizationId: orgA.id });
    t.equal(byEmail.status, 404);
    t.same(await w.roles(orgB.id), before, 'organization B unchanged');

    const direct = await adminA.post('/auth/organization/update-member-role', { memberId: bMember, role: 'admin', organizationId: orgB.id });
    t.equal(direct.status, 403, 'naming organization B itself: not a member');
    t.equal(direct.body.error.code, 'ORGANIZATION_MEMBERSHIP_REQUIRED');
  });
});
