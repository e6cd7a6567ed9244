// research/auth.md section 6, cases 15-19: e-mail case, creating and listing organizations, admin rules on
// invitations, duplicate invitations and the localized invitation mail.
import t from 'tap';
import { http } from '../helpers/http.ts';
import { signIn } from '../helpers/session.ts';
import { world } from './org-helpers.ts';

t.test('organizations', async (t) => {
  const w = await world(t);
  const { app, smtp } = w;

  t.test('case 15: Alice@Example.com and alice@example.com are one user; invitations match case-insensitively', async (t) => {
    const upper = await signIn(app, smtp, 'Alice@Example.com');
    const lower = await signIn(app, smtp, 'alice@example.com');
    const a = (await upper.get('/auth/get-session')).body.user;
    const b = (await lower.get('/auth/get-session')).body.user;
    t.equal(a.id, b.id);
    t.equal(a.email, 'alice@example.com');
    t.equal((await app.deps.sql`select count(*)::int as n from users where email = 'ALICE@EXAMPLE.COM'`)[0].n, 1);

    const owner = await w.user('owner15@example.com');
    const org = await w.org(owner, 'case15');
    const inv = await owner.post('/auth/organization/invite-member', { email: 'ALICE@Example.COM', role: 'member', organizationId: org.id });
    t.equal(inv.status, 201);
    t.equal(inv.body.email, 'alice@example.com', 'stored lower-case');
    t.equal(smtp.latest('alice@example.com').subject, 'You are invited to join CASE15 on Siglata');
    const accepted = await upper.post('/auth/organization/accept-invitation', { invitationId: inv.body.id });
    t.equal(accepted.status, 200);
    t.match(accepted.body, { invitation: { status: 'accepted' }, member: { email: 'alice@example.com', role: 'member', organizationId: org.id } });
    const dup = await owner.post('/auth/organization/invite-member', { email: 'Alice@example.com', role: 'member', organizationId: org.id });
    t.equal(dup.status, 409, 'already a member, whatever the case');
  });

  t.test('case 16: create is 201 with the caller as owner; a taken slug is 409; a bad slug is 400', async (t) => {
    const ana = await w.user('ana16@example.com');
    const res = await ana.post('/auth/organization/create', { name: '  Acme Ltda  ', slug: 'acme' });
    t.equal(res.status, 201);
    t.match(res.body, { name: 'Acme Ltda', slug: 'acme', role: 'owner', metadata: {} });
    t.match(res.body.id, /^org_[a-z2-7]{26}$/);
    t.same(await w.roles(res.body.id), { 'ana16@example.com': 'owner' });

    const bo = await w.user('bo16@example.com');
    const taken = await bo.post('/auth/organization/create', { name: 'Other', slug: 'acme' });
    t.equal(taken.status, 409);
    t.same(Object.keys(taken.body).sort(), ['code', 'message'], 'typed shape');
    t.equal(taken.body.code, 'conflict');
    const takenPt = await bo.post('/auth/organization/create', { name: 'Other', slug: 'acme' }, { 'x-service-locale': 'pt-BR' });
    t.equal(taken.body.message, 'The slug "acme" is taken. Choose another slug.');
    t.equal(takenPt.body.message, 'O slug "acme" já está em uso. Escolha outro slug.');

    for (const slug of ['A', 'Bad Slug', '-acme', 'acme-', 'acmé', '', 'x'.repeat(49), 'a']) {
      const bad = await bo.post('/auth/organization/create', { name: 'Bad', slug });
      t.equal(bad.status, 400, JSON.stringify(slug));
      t.equal(bad.body.error.code, 'invalid_input');
    }
    const noName = await bo.post('/auth/organization/create', { name: '   ', slug: 'no-name' }, { 'x-service-locale': 'pt-BR' });
    t.equal(noName.status, 400);
    t.equal(noName.body.error.message, 'Os parâmetros não passaram na validação.');
    t.match(noName.body.error.resolution, '`name`: curto demais: no mínimo 1 caracteres ou itens');
    const anonymous = await http(`${app.url}/auth/organization/create`, { json: { name: 'x', slug: 'anon' } });
    t.equal(anonymous.status, 401);
  });

  t.test("case 17: list shows the caller's organizations with roles only; get by a non-member is 403; unknown id 404", async (t) => {
    const cy = await w.user('cy17@example.com');
    const dee = await w.user('dee17@example.com');
    const mine = await w.org(cy, 'cy17');
    const theirs = await w.org(dee, 'dee17');
    await w.org(dee, 'dee17-private');
    await w.join(dee, theirs.id, 'cy17@example.com', 'admin');
    const list = await cy.get('/auth/organization/list');
    t.equal(list.status, 200);
    t.same(list.body.map((o: { slug: string; role: string }) => [o.slug, o.role]).sort(), [
      ['cy17', 'owner'],
      ['dee17', 'admin'],
    ]);

    const get = await cy.get(`/auth/organization/get?organizationId=${theirs.id}`);
    t.equal(get.status, 200);
    t.match(get.body, { id: theirs.id, slug: 'dee17', role: 'admin', metadata: {} });
    t.same(
      get.body.members.map((m: { email: string; role: string }) => [m.email, m.role]),
      [
        ['dee17@example.com', 'owner'],
        ['cy17@example.com', 'admin'],
      ],
    );

    const stranger = await w.user('stranger17@example.com');
    const forbidden = await stranger.get(`/auth/organization/get?organizationId=${mine.id}`);
    t.equal(forbidden.status, 403);
    t.equal(forbidden.body.error.code, 'ORGANIZATION_MEMBERSHIP_REQUIRED');
    const forbiddenPt = await stranger.get(`/auth/organization/get?organizationId=${mine.id}`, { 'x-service-locale': 'pt-BR' });
    t.equal(forbiddenPt.body.error.message, 'Você não é membro ativo desta organização.');
    t.match(forbiddenPt.body.error.resolution, 'peça um convite');
    for (const path of ['list-invitations', 'get']) {
      const unknown = await cy.get(`/auth/organization/${path}?organizationId=org_doesnotexist`);
      t.equal(unknown.status, 404, path);
      t.same(unknown.body, { code: 'not_found', message: 'Not found.' });
    }
    t.same((await stranger.get('/auth/organization/list')).body, []);
  });

  t.test('case 18: members cannot administer; an admin cannot invite an owner; an unknown role is 400', async (t) => {
    const owner = await w.user('owner18@example.com');
    const org = await w.org(owner, 'case18');
    const { jar: member, memberId } = await w.join(owner, org.id, 'member18@example.com', 'member');
    const { jar: admin } = await w.join(owner, org.id, 'admin18@example.com', 'admin');
    const pending = (await owner.post('/auth/organization/invite-member', { email: 'pending18@example.com', role: 'member', organizationId: org.id })).body;

    const attempts = [
      ['/auth/organization/invite-member', { email: 'x18@example.com', role: 'member', organizationId: org.id }],
      ['/auth/organization/update-member-role', { memberId, role: 'admin', organizationId: org.id }],
      ['/auth/organization/remove-member', { memberIdOrEmail: 'admin18@example.com', organizationId: org.id }],
      ['/auth/organization/cancel-invitation', { invitationId: pending.id }],
    ] as const;
    for (const [path, body] of attempts) {
      const res = await member.post(path, body);
      t.equal(res.status, 403, path);
      t.equal(res.body.error.code, 'ORGANIZATION_ADMIN_REQUIRED', path);
    }
    const pt = await member.post(attempts[0][0], attempts[0][1], { 'x-service-locale': 'pt-BR' });
    t.equal(pt.body.error.message, 'Esta operação exige o papel de proprietário ou administrador.');
    t.same(await w.roles(org.id), { 'owner18@example.com': 'owner', 'member18@example.com': 'member', 'admin18@example.com': 'admin' }, 'nothing changed');
    t.equal((await member.get(`/auth/organization/list-invitations?organizationId=${org.id}`)).status, 200, 'a member may list invitations');

    const ownerInvite = await admin.post('/auth/organization/invite-member', { email: 'boss18@example.com', role: 'owner', organizationId: org.id });
    t.equal(ownerInvite.status, 403);
    t.equal(ownerInvite.body.error.code, 'ORGANIZATION_ADMIN_REQUIRED');
    t.match(ownerInvite.body.error.resolution, 'Only an owner can grant');
    t.equal((await admin.post('/auth/organization/invite-member', { email: 'new18@example.com', role: 'admin', organizationId: org.id })).status, 201);
    t.equal((await owner.post('/auth/organization/invite-member', { email: 'boss18@example.com', role: 'owner', organizationId: org.id })).status, 201);

    const root = await owner.post('/auth/organization/invite-member', { email: 'root18@example.com', role: 'root', organizationId: org.id });
    t.equal(root.status, 400);
    t.equal(root.body.error.code, 'invalid_input');
    t.match(root.body.error.resolution, '`role`');
    const rootUpdate = await owner.post('/auth/organization/update-member-role', { memberId, role: 'root', organizationId: org.id });
    t.equal(rootUpdate.status, 400);
  });

  t.test('case 19: inviting a member or a pending invitee is 409; the mail follows x-service-locale', async (t) => {
    const owner = await w.user('owner19@example.com');
    const org = await w.org(owner, 'case19');
    await w.join(owner, org.id, 'member19@example.com', 'member');
    const existing = await owner.post('/auth/organization/invite-member', { email: 'member19@example.com', role: 'admin', organizationId: org.id });
    t.equal(existing.status, 409);
    t.equal(existing.body.code, 'conflict');
    t.equal(existing.body.message, "This address already belongs to a member of the organization. Change that member's role instead of inviting them.");

    const pt = await owner.post(
      '/auth/organization/invite-member',
      { email: 'pt19@example.com', role: 'admin', organizationId: org.id },
      { 'x-service-locale': 'pt-BR' },
    );
    t.equal(pt.status, 201);
    t.match(pt.body, { email: 'pt19@example.com', role: 'admin', status: 'pending', organizationId: org.id });
    t.equal(new Date(pt.body.expiresAt).getTime() - new Date(pt.body.createdAt).getTime(), 48 * 3600_000);
    const ptMail = smtp.latest('pt19@example.com');
    t.equal(ptMail.subject, 'Você foi convidado para participar de CASE19 na Siglata');
    t.match(ptMail.text, 'owner19@example.com convidou você para participar de CASE19 como administrador.');
    t.match(ptMail.text, 'O convite expira em 48 horas');
    t.equal(ptMail.lang, 'pt-BR');
    const link = ptMail.links.find((l) => l.includes('/auth/organization/invitation'))!;
    t.match(link, `id=${pt.body.id}`);
    const page = await http(link);
    t.equal(page.status, 200);
    t.match(page.text, 'Você foi convidado para participar de CASE19 como administrador.');

    const again = await owner.post('/auth/organization/invite-member', { email: 'PT19@example.com', role: 'member', organizationId: org.id });
    t.equal(again.status, 409, 'a pending invitee');
    t.equal(again.body.message, 'This address already has a pending invitation. Cancel it, or send again with "resend": true.');
    const againPt = await owner.post(
      '/auth/organization/invite-member',
      { email: 'PT19@example.com', role: 'member', organizationId: org.id },
      { 'x-service-locale': 'pt-BR' },
    );
    t.equal(againPt.body.message, 'Este endereço já tem um convite pendente. Cancele-o ou envie de novo com "resend": true.');
    t.equal(smtp.to('pt19@example.com').length, 1);
    const resent = await owner.post('/auth/organization/invite-member', { email: 'pt19@example.com', role: 'member', organizationId: org.id, resend: true });
    t.equal(resent.status, 201);
    t.equal(resent.body.id, pt.body.id, 'the same invitation, refreshed');
    t.equal(resent.body.role, 'member');
    t.equal(smtp.to('pt19@example.com').length, 2);
    t.equal(smtp.latest('pt19@example.com').subject, 'You are invited to join CASE19 on Siglata', 'this time in en-US');
    t.match(smtp.latest('pt19@example.com').text, 'owner19@example.com invited you to join CASE19 as member.');
    const list = await owner.get(`/auth/organization/list-invitations?organizationId=${org.id}`);
    t.same(
      list.body.map((i: { email: string }) => i.email),
      ['pt19@example.com'],
    );
  });
});
