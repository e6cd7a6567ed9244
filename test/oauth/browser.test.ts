// A real browser (Debian's Chromium driven by playwright-core) goes through the OAuth pages: the sign-in page at
// /oauth/authorize, the magic link from the mail (real SMTP), the landing page, back to the same authorization
// request, the consent page, and the redirect to the client carrying code, state and iss. Also: the consent page
// refuses to be framed.
import t, { type Test } from 'tap';
import { createServer, type IncomingMessage } from 'node:http';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { startTestApp } from '../helpers/app.ts';
import { startSmtpCatcher } from '../helpers/smtp-catcher.ts';
import { authorizeUrl, exchangeCode, pkce, registerClient } from '../helpers/oauth.ts';
import { ensureUser } from '../../runtime-api/store/users.ts';
import { createOrganization } from '../../runtime-api/store/organizations.ts';

const CHROMIUM = '/usr/bin/chromium';
const SHOTS = join(process.cwd(), '.data', 'screenshots');
const FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

/** The OAuth client's loopback redirect endpoint (and a page on another origin that tries to frame the consent page). */
async function clientServer(t: Test) {
  const callbacks: URL[] = [];
  let waiting: ((url: URL) => void) | null = null;
  let frameTarget = '';
  const server = createServer((req: IncomingMessage, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (url.pathname === '/callback') {
      callbacks.push(url);
      waiting?.(url);
      res.writeHead(200, { 'content-type': 'text/html' }).end('<h1>You may close this window.</h1>');
    } else if (url.pathname === '/frame') {
      res.writeHead(200, { 'content-type': 'text/html' }).end(`<iframe id="f" src="${frameTarget}" width="600" height="400"></iframe>`);
    } else {
      res.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  const origin = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  return {
    origin,
    callbacks,
    setFrameTarget(url: string) {
      frameTarget = url.replace(/&/g, '&amp;').replace(/"/g, '&quot;');
    },
    next: () =>
      new Promise<URL>((resolve) => {
        waiting = resolve;
      }),
  };
}

t.test('browser: sign in and consent through the pages', { timeout: 120_000 }, async (t) => {
  t.ok(existsSync(CHROMIUM), `Chromium is installed at ${CHROMIUM} (.ci/run installs Debian's chromium package)`);
  const smtp = await startSmtpCatcher(t);
  const app = await startTestApp(t, { env: { RATE_LIMIT_MAX: '100000', SMTP_URL: smtp.url } });
  const email = 'browser@example.com';
  const user = await ensureUser(app.deps.sql, email);
  const org = await createOrganization(app.deps.sql, { name: 'Browser Org', slug: 'browser-org', ownerId: user.id });

  const rp = await clientServer(t);
  const redirectUri = `${rp.origin}/callback`;
  const client = await registerClient(app, { client_name: 'Chromium Test App', redirect_uris: [redirectUri] });
  const pair = pkce();
  const state = 'browser-state-42';
  const url = authorizeUrl(app, { clientId: client.client_id, redirectUri, challenge: pair.challenge, state, scope: 'files:read files:write offline_access' });

  const browser: Browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: FLAGS });
  t.teardown(() => browser.close());
  const context = await browser.newContext({ locale: 'pt-BR' });
  const page = await context.newPage();

  // 1. No session: the sign-in page, in Portuguese (Accept-Language), asks for a magic link.
  await page.goto(url);
  t.equal(await page.locator('h1').textContent(), 'Entre para continuar');
  t.match(await page.locator('main').textContent(), /Chromium Test App/);
  const known = smtp.to(email).length;
  await page.fill('#email', email);
  await page.click('button[type=submit]');
  await page.waitForSelector('#msg:not(:empty)');
  t.match(await page.locator('#msg').textContent(), /Confira seu e-mail/);

  // 2. The mail (real SMTP, in pt-BR) → the landing page → its button signs in and resumes the authorization.
  const mail = await smtp.next(email, known);
  t.equal(mail.lang, 'pt-BR');
  const link = new URL(mail.links.find((l) => l.includes('/auth/magic-link'))!);
  await page.goto(link.toString());
  t.match(await page.locator('main').textContent(), /Continuar/, 'the landing page consumes nothing and offers to continue');
  // Spec 4.2's GET /auth/magic-link/verify?token=… (the landing page's form post is the other way in).
  await page.goto(`${app.url}/auth/magic-link/verify?token=${encodeURIComponent(link.searchParams.get('token')!)}`);
  await page.waitForURL(/\/oauth\/authorize\?/);
  t.equal(new URL(page.url()).search, new URL(url).search, 'the same authorization request, parameters intact');

  // 3. The consent page: the organization is preselected; the requested permissions are listed.
  t.match(await page.locator('h1').textContent(), /Autorizar Chromium Test App/);
  t.equal(await page.locator(`input[name=organization_id][value="${org.id}"]`).isChecked(), true);
  t.equal(await page.locator('li[data-scope]').count(), 3);
  // The organization's radio button sits on its label's line, just before the name.
  const radio = (await page.locator(`input[name=organization_id][value="${org.id}"]`).boundingBox())!;
  const name = (await page.locator('.org label strong').first().boundingBox())!;
  t.ok(Math.abs(radio.y + radio.height / 2 - (name.y + name.height / 2)) < 12, 'the radio button is on the line of its label');
  t.ok(name.x > radio.x && name.x - (radio.x + radio.width) < 24, `the name follows the radio button (${radio.x + radio.width} → ${name.x})`);
  mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: join(SHOTS, 'oauth-consent-pt-BR.png'), fullPage: true });

  // The consent page cannot be framed by another origin.
  rp.setFrameTarget(page.url());
  const framer = await context.newPage();
  await framer.goto(`${rp.origin}/frame`);
  await framer.waitForTimeout(500);
  const framed = framer.frames().find((f) => f !== framer.mainFrame());
  const framedText = framed
    ? await framed
        .locator('body')
        .innerText({ timeout: 2000 })
        .catch(() => '')
    : '';
  t.notMatch(framedText, /Autorizar/, 'the consent page does not render inside a frame');
  t.ok(framed, 'the framing page has its frame');
  t.not(framed?.url(), page.url(), "the frame holds the browser's error page, not the consent page");
  await framer.close();

  // 4. Allow → 303 to the client with code, state and iss.
  const callback = rp.next();
  await page.click('button[value=approve]');
  const back = await callback;
  t.ok(back.searchParams.get('code'), 'code');
  t.equal(back.searchParams.get('state'), state, 'state');
  t.equal(back.searchParams.get('iss'), app.url, 'iss');
  await page.waitForURL(/\/callback\?/);

  // The code works once, for this client and verifier.
  const tokens = await exchangeCode(app, { clientId: client.client_id, code: back.searchParams.get('code')!, verifier: pair.verifier, redirectUri });
  t.equal(tokens.status, 200);
  t.equal(tokens.body.scope, 'files:read files:write offline_access');
});
