// research/auth.md section 6, cases 1-10 and 13: magic-link sign-in over real HTTP and real SMTP.
import t from 'tap';
import { createHash } from 'node:crypto';
import { startTestApp } from '../helpers/app.ts';
import { http } from '../helpers/http.ts';
import { startSmtpCatcher } from '../helpers/smtp-catcher.ts';
import { requestLink, sessionCookieOf, signIn } from '../helpers/session.ts';

const ENV = { RATE_LIMIT_MAX: '100000' };

t.test('magic link', async (t) => {
  const smtp = await startSmtpCatcher(t);
  const app = await startTestApp(t, { manualClock: true, env: { ...ENV, SMTP_URL: smtp.url } });
  const { sql } = app.deps;
  const userCount = async (email: string) => (await sql`select count(*)::int as n from users where email = ${email}`)[0].n as number;
  const sessionCount = async (email: string) =>
    (await sql`select count(*)::int as n from sessions s join users u on u.id = s.user_id where u.email = ${email}`)[0].n as number;
  const verifyGet = (token: string, headers: Record<string, string> = {}) =>
    http(`${app.url}/auth/magic-link/verify?token=${encodeURIComponent(token)}`, { headers });

  t.test('case 1: unknown and known e-mail get the same answer, one mail each, no user before verify', async (t) => {
    await signIn(app, smtp, 'known@example.com');
    const known = await requestLink(app, smtp, 'known@example.com');
    const unknown = await requestLink(app, smtp, 'unknown@example.com');
    for (const r of [known.res, unknown.res]) {
      t.equal(r.status, 200);
      t.same(r.body, { status: true });
    }
    t.equal(known.res.text, unknown.res.text, 'byte-identical bodies');
    t.equal(known.res.headers['content-type'], unknown.res.headers['content-type']);
    t.equal(smtp.to('unknown@example.com').length, 1, 'one mail to the unknown address');
    t.equal(smtp.to('known@example.com').length, 2, 'one mail per request to the known address');
    t.equal(await userCount('unknown@example.com'), 0, 'no user row before verify');
    const res = await verifyGet(unknown.token);
    t.equal(res.status, 302);
    t.equal(await userCount('unknown@example.com'), 1, 'created on first sign-in');
  });

  t.test('case 2: verify sets an HttpOnly, Secure, SameSite=Lax, Path=/ cookie; get-session returns the user', async (t) => {
    const { token } = await requestLink(app, smtp, 'case2@example.com');
    const res = await verifyGet(token);
    t.equal(res.status, 302);
    t.equal(res.headers.location, '/console', 'the console is the default landing');
    const cookie = sessionCookieOf(res)!;
    t.ok(cookie, 'a session cookie');
    t.match(cookie.value, /^[A-Za-z0-9_-]{43}$/, '256-bit random value');
    for (const attr of ['HttpOnly', 'Secure', 'SameSite=Lax', 'Path=/', 'Max-Age=604800']) t.match(cookie.attributes, attr, attr);
    const session = await http(`${app.url}/auth/get-session`, { headers: { cookie: `session=${cookie.value}` } });
    t.equal(session.status, 200);
    t.match(session.body, { user: { email: 'case2@example.com', name: 'case2', image: null }, session: { activeOrganizationId: null } });
    const api = await http(`${app.url}/api`, { headers: { cookie: `session=${cookie.value}` } });
    t.equal(api.body.user.email, 'case2@example.com', 'GET /api knows the cookie user');
    const [row] = await sql`select token_hash from sessions where id = ${session.body.session.id}`;
    t.equal(row.token_hash, createHash('sha256').update(cookie.value).digest('hex'), 'the session is stored hashed');
  });

  t.test('case 3: the same token again is rejected and opens no second session', async (t) => {
    const { token } = await requestLink(app, smtp, 'case3@example.com');
    t.equal((await verifyGet(token)).status, 302);
    const again = await verifyGet(token);
    t.equal(again.status, 401);
    t.equal(again.body.error.code, 'unauthorized');
    t.notOk(sessionCookieOf(again), 'no cookie');
    const browser = await verifyGet(token, { accept: 'text/html' });
    t.equal(browser.status, 401);
    t.match(browser.headers['content-type'], /text\/html/);
    t.match(browser.text, 'cannot be used');
    t.equal(await sessionCount('case3@example.com'), 1);
  });

  t.test('case 4: ten concurrent verifies of one token open exactly one session', async (t) => {
    const { token } = await requestLink(app, smtp, 'case4@example.com');
    const results = await Promise.all(Array.from({ length: 10 }, () => verifyGet(token)));
    t.same(results.map((r) => r.status).sort(), [302, 401, 401, 401, 401, 401, 401, 401, 401, 401]);
    t.equal(results.filter((r) => sessionCookieOf(r)).length, 1);
    t.equal(await sessionCount('case4@example.com'), 1);
  });

  t.test('case 5: a token past its 10-minute TTL is rejected; the database holds only its hash', async (t) => {
    const { token } = await requestLink(app, smtp, 'case5@example.com');
    const rows = await sql`select * from magic_links where email = 'case5@example.com'`;
    t.equal(rows.length, 1);
    t.notOk(JSON.stringify(rows).includes(token), 'the raw token is in no column');
    t.equal(rows[0].token_hash, createHash('sha256').update(token).digest('hex'));
    t.equal(rows[0].expires_at.getTime() - rows[0].created_at.getTime(), 10 * 60_000);
    app.clock.advance!(10 * 60_000 + 1000);
    const res = await verifyGet(token);
    t.equal(res.status, 401);
    t.equal(await userCount('case5@example.com'), 0);
  });

  t.test('case 6: HEAD, the landing page and prefetches do not consume the token', async (t) => {
    const { token, link } = await requestLink(app, smtp, 'case6@example.com');
    t.match(link, `${app.url}/auth/magic-link?token=`, 'the mail links to the landing page');
    const head = await http(`${app.url}/auth/magic-link/verify?token=${token}`, { method: 'HEAD' });
    t.equal(head.status, 200);
    t.notOk(sessionCookieOf(head));
    const landing = await http(link);
    t.equal(landing.status, 200);
    t.match(landing.headers['content-type'], /text\/html/);
    t.equal(landing.headers['referrer-policy'], 'same-origin', 'no-referrer would make the button post Origin: null');
    t.match(landing.headers['content-security-policy'], "frame-ancestors 'none'");
    t.match(landing.text, 'action="/auth/magic-link/verify"');
    const prefetch = await verifyGet(token, { 'sec-purpose': 'prefetch' });
    t.equal(prefetch.status, 200);
    t.notOk(sessionCookieOf(prefetch));
    t.equal(await userCount('case6@example.com'), 0);
    const verify = await http(`${app.url}/auth/magic-link/verify`, {
      method: 'POST',
      body: `token=${token}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: app.url },
    });
    t.equal(verify.status, 303, 'the landing page button still signs in');
    t.ok(sessionCookieOf(verify));
  });

  t.test('case 7: altered, empty or 10 kB tokens are 401 or 400 invalid_input, never 500', async (t) => {
    const { token } = await requestLink(app, smtp, 'case7@example.com');
    const altered = (token[0] === 'A' ? 'B' : 'A') + token.slice(1);
    t.equal((await verifyGet(altered)).status, 401);
    t.equal((await verifyGet(token.slice(0, -1))).status, 401);
    for (const [label, res] of [
      ['empty', await verifyGet('')],
      ['missing', await http(`${app.url}/auth/magic-link/verify`)],
      ['10 kB', await verifyGet('x'.repeat(10_240))],
      ['repeated', await http(`${app.url}/auth/magic-link/verify?token=a&token=b`)],
    ] as const) {
      t.equal(res.status, 400, label);
      t.equal(res.body.error.code, 'invalid_input', label);
    }
    const post = await http(`${app.url}/auth/magic-link/verify`, { json: { token: 'x'.repeat(10_240) }, headers: { origin: app.url } });
    t.equal(post.status, 413, 'a 10 kB body is over the 4 kB limit of the verify form');
    t.equal(post.body.error.code, 'payload_too_large');
    const postShort = await http(`${app.url}/auth/magic-link/verify`, { json: { token: '' }, headers: { origin: app.url } });
    t.equal(postShort.status, 400);
    t.equal(postShort.body.error.code, 'invalid_input');
    const postAltered = await http(`${app.url}/auth/magic-link/verify`, { json: { token: altered }, headers: { origin: app.url } });
    t.equal(postAltered.status, 401);
    t.equal((await verifyGet(token)).status, 302, 'the real token still works');
  });

  t.test('case 8: the sixth request for one address is 429 with RateLimit headers; another address still 200', async (t) => {
    const ask = (email: string) => http(`${app.url}/auth/sign-in/magic-link`, { json: { email } });
    for (let i = 0; i < 5; i++) t.equal((await ask(i % 2 ? 'limit@example.com' : 'Limit@Example.com')).status, 200);
    const sixth = await ask('limit@example.com');
    t.equal(sixth.status, 429);
    t.equal(sixth.body.error.code, 'rate_limited');
    t.match(sixth.headers['retry-after'], /^\d+$/);
    for (const h of ['ratelimit-limit', 'ratelimit-remaining', 'ratelimit-reset', 'ratelimit-policy']) t.ok(sixth.headers[h], h);
    t.equal(smtp.to('limit@example.com').length, 5, 'no sixth mail');
    t.equal((await ask('other-limit@example.com')).status, 200);
    const pt = await http(`${app.url}/auth/sign-in/magic-link`, { json: { email: 'limit@example.com' }, headers: { 'x-service-locale': 'pt-BR' } });
    t.equal(pt.body.error.message, 'Requisições demais.');
    t.match(pt.body.error.resolution, 'links de acesso demais');
  });

  t.test('case 9: the mail follows x-service-locale; an unknown locale gives en-US', async (t) => {
    const pt = await requestLink(app, smtp, 'case9-pt@example.com', { locale: 'pt-BR' });
    t.equal(pt.mail.subject, 'Seu link de acesso à Siglata');
    t.match(pt.mail.text, 'Abra este link para entrar na Siglata');
    t.match(pt.mail.text, 'expira em 10 minutos');
    t.equal(pt.mail.lang, 'pt-BR');
    t.match(pt.link, 'lang=pt-BR');
    const landing = await http(pt.link);
    t.match(landing.text, '<html lang="pt-BR">');
    t.match(landing.text, 'Continuar');
    const fr = await requestLink(app, smtp, 'case9-fr@example.com', { locale: 'fr-FR' });
    t.equal(fr.res.status, 200);
    t.equal(fr.mail.subject, 'Your Siglata sign-in link');
    t.match(fr.mail.text, 'expires in 10 minutes');
    t.equal(fr.mail.lang, 'en-US');
    const en = await requestLink(app, smtp, 'case9-en@example.com');
    t.equal(en.mail.subject, 'Your Siglata sign-in link');
    t.match(en.mail.from ?? '', 'no-reply@siglata.com');
    const bad = await http(`${app.url}/auth/sign-in/magic-link`, { json: { email: 'not-an-email' }, headers: { 'x-service-locale': 'pt-BR' } });
    t.equal(bad.status, 400);
    t.equal(bad.body.error.message, 'Os parâmetros não passaram na validação.');
    t.match(bad.body.error.resolution, '`email`: precisa ser um endereço de e-mail');
    const badEn = await http(`${app.url}/auth/sign-in/magic-link`, { json: { email: 'not-an-email' } });
    t.equal(badEn.body.error.message, 'Parameters failed validation.');
    t.match(badEn.body.error.resolution, '`email`: must be an e-mail address');
  });

  t.test('case 10: off-site return addresses are refused; verify only redirects to the stored same-site path', async (t) => {
    for (const callbackURL of ['https://evil.example/', '//evil.example/x', '/\\evil.example', 'javascript:alert(1)', 'http://127.0.0.1:1/x']) {
      const res = await http(`${app.url}/auth/sign-in/magic-link`, { json: { email: 'case10@example.com', callbackURL } });
      t.equal(res.status, 400, callbackURL);
      t.equal(res.body.error.code, 'invalid_input');
    }
    const { token } = await requestLink(app, smtp, 'case10@example.com', { callbackURL: '/app/files?view=list' });
    const res = await http(`${app.url}/auth/magic-link/verify?token=${token}&callbackURL=https://evil.example/`);
    t.equal(res.status, 302);
    t.equal(res.headers.location, '/app/files?view=list', 'the query callback is ignored');
    const absolute = await requestLink(app, smtp, 'case10b@example.com', { callbackURL: `${app.url}/oauth/authorize?client_id=x` });
    const res2 = await verifyGet(absolute.token);
    t.equal(res2.headers.location, '/oauth/authorize?client_id=x', 'an absolute URL on our origin becomes its path');
    const page = await http(`${app.url}/auth/sign-in?returnTo=${encodeURIComponent('https://evil.example/')}`);
    t.equal(page.status, 200);
    t.notMatch(page.text, 'evil.example', 'the sign-in page drops an off-site returnTo');
  });

  t.test('case 13: a cookie planted before sign-in is not adopted', async (t) => {
    const planted = 'attacker-chosen-value-0123456789abcdefghijkl';
    const { token } = await requestLink(app, smtp, 'case13@example.com');
    const res = await verifyGet(token, { cookie: `session=${planted}` });
    t.equal(res.status, 302);
    const cookie = sessionCookieOf(res)!;
    t.not(cookie.value, planted);
    t.match(cookie.value, /^[A-Za-z0-9_-]{43}$/);
    const withPlanted = await http(`${app.url}/auth/get-session`, { headers: { cookie: `session=${planted}` } });
    t.equal(withPlanted.status, 401);
    t.equal(withPlanted.body.error.code, 'unauthorized');
    t.equal((await http(`${app.url}/auth/get-session`, { headers: { cookie: `session=${cookie.value}` } })).status, 200);
  });
});

t.test('case 8 (per IP): one client IP gets at most 50 links per 15 minutes, whatever the addresses', async (t) => {
  const smtp = await startSmtpCatcher(t);
  const app = await startTestApp(t, { env: { ...ENV, SMTP_URL: smtp.url } });
  const statuses: number[] = [];
  for (let i = 0; i < 51; i++) {
    statuses.push((await http(`${app.url}/auth/sign-in/magic-link`, { json: { email: `ip${i}@example.com` } })).status);
  }
  t.same(statuses.slice(0, 50), Array(50).fill(200));
  t.equal(statuses[50], 429);
  t.equal(smtp.messages.length, 50);
});
