// The console over plain HTTP: the magic link lands on it, session cookie only (no Bearer, no tokens in pages),
// security headers and a CSP without inline script or style, CSRF refusals (missing or wrong token, a token of
// another session, foreign or missing Origin, JSON instead of a form) that change nothing, and refusals of the
// bindings shown on the page in the user's language.
import t from 'tap';
import { world } from '../identity/org-helpers.ts';
import { http } from '../helpers/http.ts';
import { contract } from '../helpers/openapi-contract.ts';
import { consoleForm, consolePage, csrfOf, withoutLabels } from './helpers.ts';

t.test('console over HTTP', async (t) => {
  const w = await world(t);
  const { app } = w;
  const alice = await w.user('alice@example.com');
  const orgsOf = async (jar = alice) => ((await jar.get('/auth/organization/list')).body as { slug: string }[]).map((o) => o.slug).sort();

  t.test('the magic link lands on /console; without a session the console sends the browser to sign in', async (t) => {
    t.equal(alice.verify.headers.location, '/console');
    for (const path of ['/console', '/console/members', '/console/files']) {
      const res = await http(`${app.url}${path}?lang=pt-BR`);
      t.equal(res.status, 303, path);
      t.equal(res.headers.location, `/auth/sign-in?lang=pt-BR&returnTo=${encodeURIComponent(path)}`, path);
    }
    const expired = await http(`${app.url}/console`, { headers: { cookie: 'session=not-a-session' } });
    t.equal(expired.status, 303, 'an unknown session is not signed in either');
  });

  t.test('pages: headers, CSP without inline script or style, no secret in the page, both languages', async (t) => {
    for (const path of ['/console', '/console/members', '/console/files']) {
      const en = await consolePage(alice, path);
      t.equal(en.status, 200, path);
      t.match(en.headers['content-type'], /^text\/html/);
      t.equal(en.headers['cache-control'], 'no-store');
      t.equal(en.headers['x-frame-options'], 'DENY');
      t.equal(en.headers['x-content-type-options'], 'nosniff');
      const csp = String(en.headers['content-security-policy']);
      t.match(csp, /frame-ancestors 'none'/);
      t.match(csp, /script-src 'self'(;|$)/);
      t.match(csp, /style-src 'self'(;|$)/);
      t.notMatch(csp, /unsafe-inline|nonce-/, 'no inline script or style allowed');
      t.notMatch(en.text, /<script(?![^>]*\bsrc=)[^>]*>/i, 'no inline <script>');
      t.notMatch(en.text, /\sstyle=|<style/i, 'no style attribute or element');
      t.notMatch(en.text, /\son[a-z]+=/i, 'no inline event handler');
      t.notOk(en.text.includes(alice.token), 'the session secret never reaches the page');
      t.match(en.text, /<html lang="en-US">/);
      const pt = await consolePage(alice, path, 'pt-BR');
      t.match(pt.text, /<html lang="pt-BR">/);
    }
    t.match((await consolePage(alice, '/console', 'pt-BR')).text, /Suas organizações/);
    t.match((await consolePage(alice, '/console')).text, /Your organizations/);
    // Accept-Language decides without ?lang.
    t.match((await alice.get('/console', { 'accept-language': 'pt-BR,pt;q=0.9' })).text, /Suas organizações/);
    const css = await http(`${app.url}/console/assets/console.css`);
    t.equal(css.status, 200);
    t.match(css.headers['content-type'], /^text\/css/);
    t.match((await http(`${app.url}/console/assets/console.js`)).headers['content-type'], /javascript/);
  });

  t.test('a Bearer token gets no console page and runs no console form', async (t) => {
    const token = await app.token({ email: 'agent-owner@example.com', org: 'bearer-org' });
    for (const path of ['/console', '/console/members', '/console/files']) {
      const res = await http(`${app.url}${path}`, { token });
      t.equal(res.status, 401, path);
      t.equal(res.body.error.code, 'unauthorized');
      t.notMatch(res.text, /<html/);
    }
    const withCookieToo = await http(`${app.url}/console`, { token, headers: { cookie: alice.cookie } });
    t.equal(withCookieToo.status, 401, 'a Bearer token next to the cookie is refused too');
    const csrf = csrfOf((await consolePage(alice)).text);
    const post = await http(`${app.url}/console/actions/organization-create`, {
      method: 'POST',
      token,
      body: new URLSearchParams({ csrf, name: 'Via token', slug: 'via-token' }).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: app.url },
    });
    t.equal(post.status, 401);
    t.notOk((await orgsOf()).includes('via-token'));
  });

  t.test('CSRF: every refusal changes nothing', async (t) => {
    const bob = await w.user('bob@example.com');
    const bobCsrf = csrfOf((await consolePage(bob)).text);
    const cases: [string, Record<string, string>, Record<string, string>, number, string][] = [
      ['no token', { csrf: '' }, {}, 403, 'ORIGIN_NOT_ALLOWED'],
      ['a wrong token', { csrf: 'x'.repeat(43) }, {}, 403, 'ORIGIN_NOT_ALLOWED'],
      ["another session's token", { csrf: bobCsrf }, {}, 403, 'ORIGIN_NOT_ALLOWED'],
      ['a foreign Origin', {}, { origin: 'https://evil.example' }, 403, 'ORIGIN_NOT_ALLOWED'],
      ['Origin: null', {}, { origin: 'null' }, 403, 'ORIGIN_NOT_ALLOWED'],
      ['no Origin', {}, { origin: '' }, 403, 'ORIGIN_NOT_ALLOWED'],
      ['no session', {}, { cookie: '' }, 401, 'unauthorized'],
      ['JSON instead of a form', {}, { 'content-type': 'application/json' }, 415, 'unsupported_media_type'],
    ];
    for (const [name, fields, headers, status, code] of cases) {
      const res = await consoleForm(alice, 'organization-create', { name: 'Forged', slug: 'forged', ...fields }, { headers });
      t.equal(res.status, status, name);
      t.equal((res.body as any).error?.code, code, name);
    }
    // A person reading pt-BR is told what is wrong in pt-BR, not only how to fix it.
    const pt = await consoleForm(
      alice,
      'organization-create',
      { name: 'Forged', slug: 'forged', csrf: '' },
      { lang: 'pt-BR', headers: { 'x-service-locale': 'pt-BR' } },
    );
    t.equal((pt.body as any).error?.message, 'O token de segurança do formulário está ausente ou não corresponde a esta sessão.');
    t.notOk((await orgsOf()).includes('forged'), 'no organization was created');
    const ok = await consoleForm(alice, 'organization-create', { name: 'Real', slug: 'real-one' });
    t.equal(ok.status, 303);
    t.equal(ok.headers.location, '/console?lang=en-US&done=organization-create');
    t.same(await orgsOf(), ['real-one']);
    const home = await consolePage(alice, '/console?done=organization-create');
    t.match(home.text, /role="status">Organization created\./);
    t.match(withoutLabels(home.text), /Real<\/td><td><code>real-one<\/code><\/td><td>owner<\/td>\s*<td><strong>Active/);
  });

  t.test('a refused action shows the page again with the reason, in the page language', async (t) => {
    const bad = await consoleForm(alice, 'organization-create', { name: 'Bad', slug: 'Not A Slug' }, { lang: 'pt-BR' });
    t.equal(bad.status, 400);
    t.match(bad.headers['content-type'], /^text\/html/);
    // The field is named as the form labels it, never as the API's `slug` marker.
    t.match(bad.text, /role="alert"><p>Os parâmetros não passaram na validação\. Identificador: formato errado\.<\/p>/);
    t.notMatch(bad.text, /`slug`|`\w+`:/, 'no raw field marker');
    t.match(bad.text, /id="org-name"[^>]*value="Bad"/, 'what was typed is still in the form');
    t.match(bad.text, /id="org-slug"[^>]*value="Not A Slug"/);
    t.match(bad.text, /data-page-url="\/console\?lang=pt-BR"/, 'the page names its own address for the location bar');
    t.match(bad.text, /<html lang="pt-BR">/);
    const taken = await consoleForm(alice, 'organization-create', { name: 'Again', slug: 'real-one' });
    t.equal(taken.status, 409);
    t.match(taken.text, /role="alert">/);
    const foreign = await consoleForm(alice, 'organization-switch', { organizationId: 'org_not_mine' });
    t.equal(foreign.status, 404);
    t.same(await orgsOf(), ['real-one']);
  });

  t.test("members: the last owner's controls are disabled with the reason; members see no controls", async (t) => {
    const page = await consolePage(alice, '/console/members');
    t.match(page.text, /<button type="submit" disabled aria-describedby="why-[^"]+">Change role<\/button>/);
    t.match(page.text, /The last owner cannot be removed or demoted/);
    const owned = (await alice.get('/auth/organization/list')).body[0];
    const { jar: carol } = await w.join(alice, owned.id, 'carol@example.com', 'member');
    const asMember = await consolePage(carol, '/console/members');
    t.equal(asMember.status, 200);
    t.notMatch(asMember.text, /Change role|Send invitation/);
    t.match(asMember.text, /Only owners and admins manage members/);
    const me = (await alice.get('/auth/organization/get')).body.members.find((m: { email: string }) => m.email === 'alice@example.com');
    const refused = await consoleForm(carol, 'member-remove', { memberId: me.id });
    t.equal(refused.status, 403);
    t.match(refused.text, /role="alert">/);
    t.same(await w.roles(owned.id), { 'alice@example.com': 'owner', 'carol@example.com': 'member' }, 'nothing changed');
  });

  t.test('every console operation works over HTTP and answers as /openapi.json documents', async (t) => {
    const c = contract((await http(`${app.url}/openapi.json`)).body);
    const dana = await w.user('dana@example.com');
    const erin = await w.user('erin@example.com');
    const form = async (jar: typeof dana, action: string, fields: Record<string, string>, status: number) => {
      const res = await consoleForm(jar, action, fields);
      t.equal(res.status, status, `${action}: ${res.text.match(/role="alert"><p>([^<]*)/)?.[1] ?? ''}`);
      c.check(t, 'post', `/console/actions/${action}`, res);
      return res;
    };
    for (const page of ['/console', '/console/members', '/console/files', '/console/files/trash', '/console/files/details', '/console/activity']) {
      c.check(t, 'get', page, await consolePage(dana, page));
      c.check(t, 'get', page, await http(`${app.url}${page}`));
      c.check(t, 'get', page, await http(`${app.url}${page}`, { token: await app.token({ email: 'contract-agent@example.com' }) }));
    }
    c.check(t, 'get', '/console/assets/console.css', await http(`${app.url}/console/assets/console.css`));
    c.check(t, 'get', '/console/assets/console.js', await http(`${app.url}/console/assets/console.js`));
    c.check(t, 'get', '/console/assets/files.js', await http(`${app.url}/console/assets/files.js`));

    await form(dana, 'organization-create', { name: 'Dana Two', slug: 'dana-two' }, 303);
    await form(dana, 'organization-create', { name: 'Dana One', slug: 'dana-one' }, 303);
    const orgs = (await dana.get('/auth/organization/list')).body as { id: string; slug: string }[];
    const two = orgs.find((o) => o.slug === 'dana-two')!;
    await form(dana, 'organization-switch', { organizationId: two.id }, 303);
    t.equal((await dana.get('/auth/get-session')).body.session.activeOrganizationId, two.id, 'the switch changed the active organization');
    await form(dana, 'organization-switch', { organizationId: 'org_unknown' }, 404);

    // Invite, cancel, invite again; the invitee declines, is invited again and accepts.
    await form(dana, 'member-invite', { email: 'erin@example.com', role: 'admin' }, 303);
    const pending = async () => (await dana.get('/auth/organization/list-invitations')).body as { id: string; email: string }[];
    t.equal((await pending()).length, 1);
    t.match((await consolePage(dana, '/console/members')).text, /erin@example\.com/);
    await form(dana, 'invitation-cancel', { invitationId: (await pending())[0].id }, 303);
    t.equal((await pending()).length, 0, 'cancelled');
    await form(dana, 'member-invite', { email: 'erin@example.com', role: 'member' }, 303);
    await form(dana, 'member-invite', { email: 'not an address', role: 'member' }, 400);
    const erinHome = await consolePage(erin);
    t.match(erinHome.text, /Invitations for you[\s\S]*Dana Two/, 'the invitee sees the invitation on the console home');
    await form(erin, 'invitation-reject', { invitationId: (await pending())[0].id }, 303);
    t.equal((await pending()).length, 0, 'declined');
    await form(dana, 'member-invite', { email: 'erin@example.com', role: 'member' }, 303);
    const invitation = (await pending())[0].id;
    await form(erin, 'invitation-accept', { invitationId: invitation }, 303);
    await form(erin, 'invitation-accept', { invitationId: invitation }, 404);
    t.same(await w.roles(two.id), { 'dana@example.com': 'owner', 'erin@example.com': 'member' });
    t.equal((await erin.get('/auth/get-session')).body.session.activeOrganizationId, two.id, 'accepting makes the organization active');

    // Roles: a member is refused (403, the page says why); the owner promotes, and with two owners either may go.
    const members = (await dana.get('/auth/organization/get')).body.members as { id: string; email: string }[];
    const erinMember = members.find((m) => m.email === 'erin@example.com')!.id;
    const danaMember = members.find((m) => m.email === 'dana@example.com')!.id;
    const refused = await form(erin, 'member-role', { memberId: danaMember, role: 'member' }, 403);
    t.match(refused.text, /role="alert">/);
    await form(dana, 'member-role', { memberId: erinMember, role: 'owner' }, 303);
    t.notMatch((await consolePage(dana, '/console/members')).text, /The last owner cannot/, 'two owners: nothing is locked');
    await form(dana, 'member-role', { memberId: erinMember, role: 'member' }, 303);
    await form(dana, 'member-role', { memberId: danaMember, role: 'admin' }, 409);
    t.same(await w.roles(two.id), { 'dana@example.com': 'owner', 'erin@example.com': 'member' });
    await form(dana, 'member-remove', { memberId: erinMember }, 303);
    t.same(await w.roles(two.id), { 'dana@example.com': 'owner' });

    // The trash: a file written and trashed through /app/v1 (the session cookie), restored from the console.
    const run = await dana.post('/app/v1/execute', {
      script: 'const f = await files_write_text({ name: "notes/plan.txt", text: "hello" }); await files_trash({ fileId: f.fileId }); return f.fileId;',
    });
    t.equal(run.status, 200, run.text);
    const fileId = run.body.result as string;
    t.match((await consolePage(dana, '/console/files')).text, /5 B of 10 GiB used/);
    t.match((await consolePage(dana, '/console/files/trash')).text, /notes\/plan\.txt/);
    await form(dana, 'file-restore', { fileId }, 303);
    t.equal((await dana.get('/app/v1/files')).body.items[0]?.name, 'notes/plan.txt', 'restored');
    await form(dana, 'file-restore', { fileId: 'fil_aaaaaaaaaaaaaaaaaaaaaaaaaa' }, 404);

    // A trashed version whose path a newer file holds: the restore is refused, and the row offers the two ways on.
    const versions = await dana.post('/app/v1/execute', {
      script:
        'const old = await files_write_text({ name: "notes/plan.txt", text: "older" }); const cur = await files_write_text({ name: "notes/plan.txt", text: "newest" }); return [old.replacedFileId, old.fileId, cur.fileId];',
    });
    const [plan, older, newest] = versions.body.result as string[];
    const taken = await form(dana, 'file-restore', { fileId: older }, 409);
    t.match(taken.text, /role="alert"><p>&quot;notes\/plan\.txt&quot; is taken by the active file fil_[a-z2-7]+\.<\/p>/);
    t.notMatch(taken.text, /onConflict:/, 'no API argument in the page');
    t.match(taken.text, new RegExp(`id="taken-${older}">Another file is at notes/plan.txt now`));
    t.match(
      taken.text,
      /name="onConflict" value="replace"><button type="submit" aria-label="Replace the current file with notes\/plan\.txt">Replace the current file</,
    );
    t.match(taken.text, /name="onConflict" value="rename"><button type="submit" class="secondary" aria-label="[^"]+">Restore beside it</);
    t.equal((taken.text.match(/name="onConflict"/g) ?? []).length, 2, 'only the refused row offers the choice');
    await form(dana, 'file-restore', { fileId: older, onConflict: 'rename' }, 303);
    const listed = (await dana.get('/app/v1/files?prefix=notes/')).body.items.map((f: { name: string }) => f.name);
    t.same(listed, ['notes/plan (restored ' + new Date().toISOString().slice(0, 10) + ').txt', 'notes/plan.txt'], 'restored beside it');
    await form(dana, 'file-restore', { fileId: plan, onConflict: 'replace' }, 303);
    const now = (await dana.get('/app/v1/files?prefix=notes/plan.txt')).body.items;
    t.same(
      now.map((f: { fileId: string }) => f.fileId),
      [plan],
      'replaced: the restored file holds the path',
    );
    t.match((await consolePage(dana, '/console/files/trash')).text, new RegExp(newest), 'the file it replaced is in the trash');
    const pt = await consoleForm(dana, 'file-restore', { fileId: newest }, { lang: 'pt-BR' });
    t.equal(pt.status, 409);
    t.match(pt.text, /Outro arquivo está em notes\/plan\.txt agora/);
    t.match(pt.text, />Substituir o arquivo atual</);

    // Refusals before any binding runs: JSON in the spec's shapes.
    c.check(t, 'post', '/console/actions/member-invite', await consoleForm(dana, 'member-invite', { email: 'x@example.com', role: 'member', csrf: 'bad' }));
    c.check(
      t,
      'post',
      '/console/actions/member-invite',
      await consoleForm(dana, 'member-invite', { email: 'x@example.com', role: 'member' }, { headers: { cookie: '' } }),
    );
    c.check(
      t,
      'post',
      '/console/actions/member-invite',
      await consoleForm(dana, 'member-invite', { email: 'x@example.com', role: 'member' }, { headers: { 'content-type': 'text/plain' } }),
    );

    const out = await form(dana, 'sign-out', {}, 303);
    t.match(out.headers.location, /^\/auth\/sign-in\?/);
    t.equal((await consolePage(dana)).status, 303, 'signed out: the console sends the browser to sign in');
  });
});
