// The consent page lets a signed-in user with no organization create one and go on with the authorization:
// real sign-in session, real form posts, the code exchanged for a token bound to the new organization.
import t from 'tap';
import { startTestApp } from '../helpers/app.ts';
import { http } from '../helpers/http.ts';
import { approveAuthorization, authorizeUrl, exchangeCode, parseConsentPage, pkce, registerClient, signInCookie } from '../helpers/oauth.ts';

t.test('create an organization from the consent page', async (t) => {
  const app = await startTestApp(t);
  const cookie = await signInCookie(app, 'newcomer@consent.example');
  const client = await registerClient(app);
  const { verifier, challenge } = pkce();
  const url = authorizeUrl(app, { clientId: client.client_id, challenge });
  const headers = { cookie, accept: 'text/html', origin: app.url, 'content-type': 'application/x-www-form-urlencoded' };
  const page = await http(url, { headers: { cookie, accept: 'text/html' } });
  t.equal(page.status, 200);
  t.match(page.text, /You do not belong to any organization yet\. Create one below/);
  t.match(page.text, /<details open><summary>Create an organization<\/summary>/);
  const { csrfToken, organizations } = parseConsentPage(page.text);
  t.same(organizations, []);
  t.notMatch(page.text, /value="approve"/, 'nothing to approve yet');
  const post = (fields: Record<string, string>) =>
    http(`${app.url}/oauth/authorize`, { method: 'POST', headers, body: new URLSearchParams({ csrf_token: csrfToken!, ...fields }).toString() });

  const bad = await post({ decision: 'create', new_organization_name: 'Acme', new_organization_slug: 'Not A Slug!' });
  t.equal(bad.status, 400);
  t.match(bad.text, /role="alert">Parameters failed validation\. `slug`/);
  t.same(parseConsentPage(bad.text).organizations, [], 'nothing created');

  const made = await post({ decision: 'create', new_organization_name: 'Acme Newcomer', new_organization_slug: 'acme-newcomer' });
  t.equal(made.status, 200, made.text.slice(0, 300));
  const after = parseConsentPage(made.text);
  t.equal(after.organizations.length, 1);
  t.ok(after.organizations[0].checked, 'the new organization is selected');
  t.match(made.text, /Acme Newcomer<\/strong> <span class="note">\(owner\)/);

  const taken = await post({ decision: 'create', new_organization_name: 'Again', new_organization_slug: 'acme-newcomer' });
  t.equal(taken.status, 400, 'a slug in use is refused');
  t.equal(parseConsentPage(taken.text).organizations.length, 1);

  const pt = await http(`${app.url}/oauth/authorize`, {
    method: 'POST',
    headers: { ...headers, 'x-service-locale': 'pt-BR' },
    body: new URLSearchParams({ csrf_token: csrfToken!, decision: 'create', new_organization_name: 'X', new_organization_slug: '-' }).toString(),
  });
  t.match(pt.text, /Criar uma organização/);
  t.match(pt.text, /Os parâmetros não passaram na validação/);

  const approved = await approveAuthorization(url, { cookie, organizationId: after.organizations[0].id });
  t.ok(approved.code, 'the authorization goes on with the new organization');
  const tokens = await exchangeCode(app, { clientId: client.client_id, code: approved.code!, verifier });
  t.equal(tokens.status, 200);
  const ctx = await http(`${app.url}/app/v1/context`, { token: tokens.body.access_token });
  t.equal(ctx.body.organization.slug, 'acme-newcomer');
  t.equal(ctx.body.role, 'owner');
});
