// The console in a real browser (Debian's Chromium through playwright-core): sign in by magic link (real SMTP) and
// land on /console, create an organization, invite a member who accepts in a second browser context (in pt-BR),
// change the member's role, restore a file from the trash, revoke MCP access (the agent's next MCP call is refused)
// and restore it, create an API key (shown once, works as Bearer) and revoke it. Every page, in both languages, is screenshotted under
// .data/screenshots/ for review and checked with axe-core (no serious or critical violation), and the browser
// reports no CSP violation.
import t, { type Test } from 'tap';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { chromium, type Page } from 'playwright-core';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { startSmtpCatcher, type SmtpCatcher } from '../helpers/smtp-catcher.ts';

const CHROMIUM = '/usr/bin/chromium';
const FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];
const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const SHOTS = join(process.cwd(), '.data', 'screenshots');

/** A browser context whose CSP violations (reported on the console) are collected. */
async function browserContext(t: Test, browser: Awaited<ReturnType<typeof chromium.launch>>, locale: string) {
  const context = await browser.newContext({ locale, viewport: { width: 1100, height: 900 } });
  const page = await context.newPage();
  page.setDefaultTimeout(15_000);
  const cspErrors: string[] = [];
  page.on('console', (m) => {
    if (/Content Security Policy|Refused to/i.test(m.text())) cspErrors.push(m.text());
  });
  t.teardown(() => context.close());
  return { context, page, cspErrors };
}

async function signInByMail(app: TestApp, smtp: SmtpCatcher, page: Page, email: string): Promise<void> {
  await page.goto(`${app.url}/console`);
  await page.waitForURL(/\/auth\/sign-in\?/);
  const known = smtp.to(email).length;
  await page.fill('#email', email);
  await page.click('button[type=submit]');
  await page.waitForSelector('#msg:not(:empty)');
  const mail = await smtp.next(email, known);
  await page.goto(mail.links.find((l) => l.includes('/auth/magic-link'))!);
  await page.click('button[type=submit]');
  await page.waitForURL(/\/console(\?|$)/);
}

/** axe-core in the page (evaluated through the debugger, which the page's CSP does not govern). */
async function accessibility(t: Test, page: Page, label: string): Promise<void> {
  await page.evaluate(AXE);
  const violations = await page.evaluate(async () => {
    const result = await (globalThis as unknown as { axe: { run(): Promise<{ violations: { id: string; impact: string; nodes: unknown[] }[] }> } }).axe.run();
    return result.violations.map((v) => ({ id: v.id, impact: v.impact, nodes: v.nodes.length }));
  });
  t.same(
    violations.filter((v) => v.impact === 'serious' || v.impact === 'critical'),
    [],
    `${label}: no serious or critical accessibility violation`,
  );
}

/** Each console page in both languages: screenshot and accessibility check. */
async function review(t: Test, page: Page, app: TestApp, name: string): Promise<void> {
  for (const [path, shot] of [
    ['/console', 'home'],
    ['/console/members', 'members'],
    ['/console/files', 'files'],
    ['/console/files/trash', 'trash'],
    ['/console/activity', 'activity'],
    ['/console/agents', 'agents'],
  ]) {
    for (const lang of ['en-US', 'pt-BR']) {
      await page.goto(`${app.url}${path}?lang=${lang}`);
      t.equal(await page.getAttribute('html', 'lang'), lang, `${path} ${lang}`);
      await page.screenshot({ path: join(SHOTS, `console-${name}-${shot}-${lang}.png`), fullPage: true });
      await accessibility(t, page, `${name} ${path} ${lang}`);
    }
  }
}

t.test('browser: the console, end to end', { timeout: 180_000 }, async (t) => {
  t.ok(existsSync(CHROMIUM), `Chromium is installed at ${CHROMIUM}`);
  mkdirSync(SHOTS, { recursive: true });
  const smtp = await startSmtpCatcher(t);
  const app = await startTestApp(t, { env: { RATE_LIMIT_MAX: '100000', SMTP_URL: smtp.url } });
  const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: FLAGS });
  t.teardown(() => browser.close());
  const owner = await browserContext(t, browser, 'en-US');
  const guest = await browserContext(t, browser, 'pt-BR');
  const { page } = owner;

  // 1. Sign in by magic link: the link lands on the console home, which offers to create an organization.
  await signInByMail(app, smtp, page, 'olivia@example.com');
  t.equal(await page.locator('h1').textContent(), 'Your workspace');
  t.match(await page.locator('main').textContent(), /You do not belong to any organization yet/);
  await review(t, page, app, 'new-user');

  // 2. Create an organization: it is listed, with the owner role, and active.
  await page.goto(`${app.url}/console`);
  await page.fill('#org-name', 'Acme Docs');
  await page.fill('#org-slug', 'acme-docs');
  await page.click('section:has(#create) button[type=submit]');
  await page.waitForSelector('.notice');
  t.equal(await page.locator('.notice').textContent(), 'Organization created.');
  t.match(await page.locator('#orgs ~ table tbody tr, section:has(#orgs) tbody tr').first().textContent(), /Acme Docs\s*acme-docs\s*owner\s*Active/);

  // 3. Invite a member; the last owner's controls are disabled, with the reason.
  await page.goto(`${app.url}/console/members`);
  t.equal(await page.locator('button:has-text("Change role")').first().isDisabled(), true, 'the sole owner cannot be demoted');
  t.match(await page.locator('main').textContent(), /The last owner cannot be removed or demoted/);
  await page.fill('#invite-email', 'gabriel@example.com');
  await page.selectOption('#invite-role', 'member');
  await page.click('button:has-text("Send invitation")');
  await page.waitForSelector('.notice');
  t.match(await page.locator('section:has(#pending)').textContent(), /gabriel@example\.com/);

  // 4. The invitee, in another browser context and in Portuguese, signs in and accepts on the console home.
  await signInByMail(app, smtp, guest.page, 'gabriel@example.com');
  t.equal(await guest.page.locator('h1').textContent(), 'Seu espaço de trabalho');
  t.match(await guest.page.locator('section:has(#invs)').textContent(), /Acme Docs/);
  await guest.page.click('button:has-text("Aceitar")');
  await guest.page.waitForSelector('.notice');
  t.equal(await guest.page.locator('.notice').textContent(), 'Você entrou na organização.');
  t.match(await guest.page.locator('section:has(#orgs) tbody').textContent(), /Acme Docs\s*acme-docs\s*membro\s*Ativa/);
  await guest.page.goto(`${app.url}/console/members`);
  t.equal(await guest.page.locator('button:has-text("Mudar papel")').count(), 0, 'a member gets no management controls');
  await review(t, guest.page, app, 'member');

  // 5. The owner makes the new member an admin.
  await page.goto(`${app.url}/console/members`);
  const row = page.locator('tr', { hasText: 'gabriel@example.com' }).first();
  await row.locator('select[name=role]').selectOption('admin');
  await row.locator('button:has-text("Change role")').click();
  await page.waitForSelector('.notice');
  t.equal(await page.locator('.notice').textContent(), 'Role changed.');
  t.match(await page.locator('tr', { hasText: 'gabriel@example.com' }).first().textContent(), /admin/);

  // 6. A file written and trashed (through /app/v1 with the browser's session), restored from the console.
  const run = await page.request.post(`${app.url}/app/v1/execute`, {
    headers: { origin: app.url },
    data: {
      script: 'const f = await files_write_text({ name: "reports/q3.txt", text: "quarterly" }); await files_trash({ fileId: f.fileId }); return f.fileId;',
    },
  });
  t.equal(run.status(), 200);
  await page.goto(`${app.url}/console/files`);
  t.match(await page.locator('section:has(#usage)').textContent(), /9 B of 10 GiB used/);
  await page.goto(`${app.url}/console/activity`);
  t.match(await page.locator('#executions tbody tr').first().textContent(), /person\s*olivia@example\.com\s*REST[\s\S]*files_write_text[\s\S]*succeeded/);
  await review(t, page, app, 'owner');
  await page.goto(`${app.url}/console/files/trash`);
  await page.click('button[aria-label="Restore reports/q3.txt"]');
  await page.waitForSelector('.notice');
  t.equal(await page.locator('.notice').textContent(), 'File restored.');
  t.match(await page.locator('section:has(#trash)').textContent(), /The trash is empty/);
  const files = await page.request.get(`${app.url}/app/v1/files`);
  t.equal((await files.json()).items[0]?.name, 'reports/q3.txt', 'the file is active again');

  // 7. Agents and access: the owner revokes the organization's MCP access and the agent's next MCP call is refused;
  // then, access restored, creates an API key (shown once), which works as Bearer until the owner revokes it.
  const agent = await app.token({ email: 'olivia@example.com', org: 'acme-docs' });
  const agentCall = () =>
    page.request.post(`${app.url}/v1/mcp`, {
      headers: { authorization: `Bearer ${agent}`, accept: 'application/json, text/event-stream' },
      data: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'execute', arguments: { script: 'return 1' } } },
    });
  t.equal((await agentCall()).status(), 200, 'the agent is served before');
  page.on('dialog', (dialog) => void dialog.accept()); // destructive forms ask first (console.js)
  const submit = async (selector: string) => {
    await Promise.all([page.waitForNavigation(), page.click(selector)]);
  };
  await page.goto(`${app.url}/console/agents`);
  await page.check('input[name=state][value=revoked]');
  await submit('button:has-text("Save access")');
  t.equal(await page.locator('#mcp-state').textContent(), 'revoked');
  const refused = await agentCall();
  t.equal(refused.status(), 403, "the agent's next MCP call is refused");
  t.equal((await refused.json()).error?.code, 'MCP_ACCESS_REVOKED');
  await page.check('input[name=state][value=active]');
  await submit('button:has-text("Save access")');
  t.equal(await page.locator('#mcp-state').textContent(), 'active');
  t.equal((await agentCall()).status(), 200, 'served again once access is active');
  await page.fill('#key-name', 'ci-job');
  await submit('button:has-text("Create key")');
  const key = await page.inputValue('#new-key');
  t.match(key, /^slk_/, 'the new key is shown once');
  const withKey = () => page.request.get(`${app.url}/app/v1/files`, { headers: { authorization: `Bearer ${key}` } });
  t.equal((await withKey()).status(), 200, 'the key works as Bearer');
  await page.goto(`${app.url}/console/agents`);
  t.equal(await page.locator('#new-key').count(), 0, 'the key is not shown again');
  t.match(await page.locator('section:has(#keys) tbody').textContent(), /ci-job/);
  await submit('button[aria-label="Revoke the key ci-job"]');
  t.match(await page.locator('section:has(#keys) tbody').textContent(), /ci-job[\s\S]*revoked/);
  t.equal((await withKey()).status(), 401, 'a revoked key is refused');

  t.same(owner.cspErrors, [], "no CSP violation in the owner's pages");
  t.same(guest.cspErrors, [], "no CSP violation in the member's pages");
});
