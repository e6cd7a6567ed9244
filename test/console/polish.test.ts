// The console's rough edges, each as a person meets it: a refusal says its fix once; a refusal whose API fix is an
// argument (`"resend": true`) offers the button instead; a failed form keeps what was typed and names its page's own
// address; revoking an app or a key asks first; the MCP access states are explained; saving MCP access with no scope
// at all needs a confirmation, and the page then warns; pt-BR refusals name fields as the form labels them.
import t from 'tap';
import { world } from '../identity/org-helpers.ts';
import { http } from '../helpers/http.ts';
import { contract } from '../helpers/openapi-contract.ts';
import { oauthFlow } from '../helpers/oauth.ts';
import { consoleForm, consolePage } from './helpers.ts';

const alertOf = (html: string) => /role="alert"><p>([^<]*)<\/p>/.exec(html)?.[1] ?? '';

t.test('console polish', async (t) => {
  const w = await world(t);
  const { app } = w;
  const c = contract((await http(`${app.url}/openapi.json`)).body);
  const owner = await w.user('polish-owner@example.com');
  const org = await w.org(owner, 'polish-org');

  t.test('a refusal states its fix once', async (t) => {
    for (const lang of ['en-US', 'pt-BR']) {
      const taken = await consoleForm(owner, 'organization-create', { name: 'Again', slug: 'polish-org' }, { lang });
      t.equal(taken.status, 409);
      const text = alertOf(taken.text);
      const fix = lang === 'en-US' ? 'Choose another slug.' : 'Escolha outro slug.';
      t.equal(text.split(fix).length - 1, 1, `${lang}: the fix once, in “${text}”`);
    }
    const member = await consoleForm(owner, 'member-role', { memberId: 'mem_nobody', role: 'admin' });
    t.equal(alertOf(member.text).split('. ').length, new Set(alertOf(member.text).split('. ')).size, 'no sentence repeated');
  });

  t.test('inviting someone already invited offers to send it again, with a button', async (t) => {
    t.equal((await consoleForm(owner, 'member-invite', { email: 'again@example.com', role: 'admin' })).status, 303);
    const before = w.smtp.to('again@example.com').length;
    const twice = await consoleForm(owner, 'member-invite', { email: 'again@example.com', role: 'member' });
    t.equal(twice.status, 409);
    t.match(alertOf(twice.text), /again@example\.com already has a pending invitation\. Send it again/);
    t.notMatch(twice.text, /"resend": true|&quot;resend&quot;/, 'no API argument in the page');
    t.match(twice.text, /role="alert">[\s\S]*action="\/console\/actions\/invitation-resend\?lang=en-US"[\s\S]*Send again/, 'the way out is a button');
    t.match(twice.text, /name="role" value="member"/, 'with the role just chosen');
    const members = await consolePage(owner, '/console/members');
    t.match(members.text, /aria-label="Send again: the invitation to again@example\.com">Send again</, 'each pending invitation has it too');
    const resent = await consoleForm(owner, 'invitation-resend', { email: 'again@example.com', role: 'member' });
    t.equal(resent.status, 303);
    c.check(t, 'post', '/console/actions/invitation-resend', resent);
    await w.smtp.next('again@example.com', before);
    t.equal(w.smtp.to('again@example.com').length, before + 1, 'mailed again');
    const after = await owner.get(resent.headers.location as string);
    t.match(after.text, /Invitation sent again/);
    const pending = (await owner.get('/auth/organization/list-invitations')).body as { email: string; role: string }[];
    t.same(
      pending.filter((i) => i.email === 'again@example.com').map((i) => i.role),
      ['member'],
      'one invitation, with the new role',
    );
    const pt = await consoleForm(owner, 'member-invite', { email: 'again@example.com', role: 'member' }, { lang: 'pt-BR' });
    t.match(alertOf(pt.text), /já tem um convite pendente\. Envie de novo/);
  });

  t.test('a failed form keeps what was typed, and the page knows its own address', async (t) => {
    const bad = await consoleForm(owner, 'member-invite', { email: 'not an address', role: 'admin' });
    t.equal(bad.status, 400);
    t.match(bad.text, /id="invite-email"[^>]*value="not an address"/);
    t.match(bad.text, /<option value="admin" selected>/);
    t.match(bad.text, /data-page-url="\/console\/members\?lang=en-US"/);
    const key = await consoleForm(owner, 'api-key-create', { name: 'nightly export', expiresInDays: '12' });
    t.equal(key.status, 400, 'no scope');
    t.match(key.text, /id="key-name"[^>]*value="nightly export"/);
    t.match(key.text, /id="key-days"[^>]*value="12"/);
    t.notMatch(key.text, /id="key-files-read" checked|name="scopes" value="files:read" id="key-files-read" checked/, 'the boxes as they were sent: none');
  });

  t.test('pt-BR refusals name fields by their labels', async (t) => {
    const bad = await consoleForm(owner, 'member-invite', { email: 'não é endereço', role: 'member' }, { lang: 'pt-BR' });
    t.match(alertOf(bad.text), /E-mail: precisa ser um endereço de e-mail/);
    t.notMatch(alertOf(bad.text), /`/);
    const days = await consoleForm(owner, 'api-key-create', { name: 'x', expiresInDays: 'dez', scopes: 'files:read' }, { lang: 'pt-BR' });
    t.match(alertOf(days.text), /Expira em \(dias\): formato errado/);
  });

  t.test('revoking an app or a key asks first', async (t) => {
    await oauthFlow(app, { cookie: owner.cookie, organizationId: org.id });
    t.equal((await consoleForm(owner, 'api-key-create', { name: 'deploy', expiresInDays: '30', scopes: 'files:read' })).status, 200);
    for (const lang of ['en-US', 'pt-BR']) {
      const page = await consolePage(owner, '/console/agents', lang);
      const forms = (action: string) => page.text.match(new RegExp(`<form method="post" action="/console/actions/${action}[^>]*>`, 'g')) ?? [];
      t.equal(forms('grant-revoke').length, 1);
      t.match(
        forms('grant-revoke')[0],
        lang === 'en-US' ? /data-confirm="Revoke Test client, allowed by polish-owner@example\.com\?/ : /data-confirm="Revogar Test client/,
      );
      t.match(forms('api-key-revoke')[0], lang === 'en-US' ? /data-confirm="Revoke the API key “deploy”\?/ : /data-confirm="Revogar a chave de API “deploy”\?/);
    }
  });

  t.test('each MCP access state is explained where it is chosen', async (t) => {
    const en = await consolePage(owner, '/console/agents');
    t.match(
      en.text,
      /id="mcp-state">testing<\/strong>\. <span class="note">Agents and API keys work, within the scopes below\. Every organization starts here/,
    );
    t.match(en.text, /<input type="radio" name="state" value="testing" id="state-testing" checked aria-describedby="state-testing-means">/);
    t.match(en.text, /id="state-revoked-means">Every agent token and API key of this organization is refused/);
    const pt = await consolePage(owner, '/console/agents', 'pt-BR');
    t.match(pt.text, /id="state-testing-means">Agentes e chaves de API funcionam[^<]*Toda organização começa aqui/);
  });

  t.test('no scope at all needs a confirmation, then the page warns', async (t) => {
    const before = (await owner.get('/auth/organization/mcp-access')).body;
    const refused = await consoleForm(owner, 'mcp-access-set', { state: 'active' });
    t.equal(refused.status, 400);
    t.match(alertOf(refused.text), /No scope is checked\. Agents could then do nothing here/);
    t.match(refused.text, /<input type="checkbox" name="allowNone" value="1" id="allow-none">/, 'a box to confirm it');
    t.match(refused.text, /<input type="radio" name="state" value="active" id="state-active" checked/, 'the state as chosen');
    t.match(refused.text, /data-confirm-no-scopes="With no scope allowed/, 'the script asks before sending');
    t.same((await owner.get('/auth/organization/mcp-access')).body.maxScopes, before.maxScopes, 'nothing changed');
    const revoked = await consoleForm(owner, 'mcp-access-set', { state: 'revoked' });
    t.equal(revoked.status, 303, 'revoking with no scope needs no confirmation');
    const confirmed = await consoleForm(owner, 'mcp-access-set', { state: 'active', allowNone: '1' });
    t.equal(confirmed.status, 303);
    const page = await consolePage(owner, '/console/agents');
    t.match(page.text, /class="warning" role="status">No scope is allowed: every agent call and every API key is refused/);
    t.equal((await consoleForm(owner, 'mcp-access-set', { state: 'active', scopes: 'files:read' })).status, 303);
    t.notMatch((await consolePage(owner, '/console/agents')).text, /No scope is allowed/);
  });
});
