// The identity routes' live responses match what /openapi.json documents (schemas, statuses, error shapes).
import t from 'tap';
import { http } from '../helpers/http.ts';
import { contract } from '../helpers/openapi-contract.ts';
import { requestLink } from '../helpers/session.ts';
import { world } from './org-helpers.ts';

t.test('identity routes match /openapi.json', async (t) => {
  const w = await world(t);
  const { app, smtp } = w;
  const doc = (await http(`${app.url}/openapi.json`)).body;
  const c = contract(doc);
  const ana = await w.user('ana-oa@example.com');
  const bo = await w.user('bo-oa@example.com');

  c.check(t, 'post', '/auth/sign-in/magic-link', (await requestLink(app, smtp, 'cy-oa@example.com')).res);
  c.check(t, 'post', '/auth/sign-in/magic-link', await http(`${app.url}/auth/sign-in/magic-link`, { json: { email: 'nope' } }));
  c.check(
    t,
    'post',
    '/auth/sign-in/magic-link',
    await http(`${app.url}/auth/sign-in/magic-link`, { body: 'email=x', headers: { 'content-type': 'text/plain' } }),
  );
  c.check(t, 'get', '/auth/magic-link/verify', await http(`${app.url}/auth/magic-link/verify?token=unknown`));
  c.check(
    t,
    'get',
    '/auth/magic-link/verify',
    await http(`${app.url}/auth/magic-link/verify?token=${(await requestLink(app, smtp, 'dee-oa@example.com')).token}`),
  );
  c.check(t, 'get', '/auth/magic-link', await http(`${app.url}/auth/magic-link?token=abc`));
  c.check(t, 'get', '/auth/sign-in', await http(`${app.url}/auth/sign-in`));
  c.check(t, 'get', '/auth/get-session', await ana.get('/auth/get-session'));
  c.check(t, 'get', '/auth/get-session', await http(`${app.url}/auth/get-session`));

  const created = await ana.post('/auth/organization/create', { name: 'OA', slug: 'oa' });
  c.check(t, 'post', '/auth/organization/create', created);
  c.check(t, 'post', '/auth/organization/create', await ana.post('/auth/organization/create', { name: 'OA', slug: 'oa' }));
  c.check(t, 'post', '/auth/organization/create', await ana.post('/auth/organization/create', { name: 'OA', slug: 'O A' }));
  const orgId = created.body.id;
  c.check(t, 'get', '/auth/organization/list', await ana.get('/auth/organization/list'));
  c.check(t, 'get', '/auth/organization/get', await ana.get(`/auth/organization/get?organizationId=${orgId}`));
  c.check(t, 'get', '/auth/organization/get', await bo.get(`/auth/organization/get?organizationId=${orgId}`));
  c.check(t, 'get', '/auth/organization/get', await ana.get('/auth/organization/get?organizationId=org_missing'));
  const inv = await ana.post('/auth/organization/invite-member', { email: 'bo-oa@example.com', role: 'admin', organizationId: orgId });
  c.check(t, 'post', '/auth/organization/invite-member', inv);
  c.check(t, 'get', '/auth/organization/list-invitations', await ana.get(`/auth/organization/list-invitations?organizationId=${orgId}`));
  const accepted = await bo.post('/auth/organization/accept-invitation', { invitationId: inv.body.id });
  c.check(t, 'post', '/auth/organization/accept-invitation', accepted);
  c.check(t, 'post', '/auth/organization/accept-invitation', await bo.post('/auth/organization/accept-invitation', { invitationId: inv.body.id }));
  c.check(
    t,
    'post',
    '/auth/organization/update-member-role',
    await ana.post('/auth/organization/update-member-role', { memberId: accepted.body.member.id, role: 'member', organizationId: orgId }),
  );
  c.check(
    t,
    'post',
    '/auth/organization/update-member-role',
    await bo.post('/auth/organization/update-member-role', { memberId: accepted.body.member.id, role: 'admin', organizationId: orgId }),
  );
  const inv2 = await ana.post('/auth/organization/invite-member', { email: 'x-oa@example.com', role: 'member', organizationId: orgId });
  c.check(t, 'post', '/auth/organization/cancel-invitation', await ana.post('/auth/organization/cancel-invitation', { invitationId: inv2.body.id }));
  const inv3 = await ana.post('/auth/organization/invite-member', { email: 'ana-oa@example.com', role: 'member', organizationId: orgId });
  c.check(t, 'post', '/auth/organization/invite-member', inv3);
  c.check(t, 'post', '/auth/organization/set-active', await ana.post('/auth/organization/set-active', { organizationId: orgId }));
  c.check(
    t,
    'post',
    '/auth/organization/remove-member',
    await ana.post('/auth/organization/remove-member', { memberIdOrEmail: 'bo-oa@example.com', organizationId: orgId }),
  );
  c.check(
    t,
    'post',
    '/auth/organization/remove-member',
    await ana.post('/auth/organization/remove-member', { memberIdOrEmail: 'ana-oa@example.com', organizationId: orgId }),
  );
  const inv4 = await ana.post('/auth/organization/invite-member', { email: 'bo-oa@example.com', role: 'member', organizationId: orgId });
  c.check(t, 'post', '/auth/organization/reject-invitation', await bo.post('/auth/organization/reject-invitation', { invitationId: inv4.body.id }));
  c.check(t, 'get', '/auth/organization/invitation', await http(`${app.url}/auth/organization/invitation?id=${inv4.body.id}`));
  c.check(t, 'post', '/auth/sign-out', await ana.post('/auth/sign-out'));
  c.check(t, 'get', '/auth/get-session', await ana.get('/auth/get-session'));
});
