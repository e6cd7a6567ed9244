// The console in a real browser (Debian's Chromium through playwright-core), as an organization owner uses it: the
// front page, sign-in by magic link (real SMTP), an organization, invitations and roles (the invitee in pt-BR), files
// (upload files and a folder, browse, search, sort, preview, download, rename and move, trash and Undo, restore,
// delete for good, resume an interrupted upload), activity (who, where from, filters, local times, CSV), MCP access
// and API keys (confirmations, the no-scope warning), then what a member and an admin see. Every page, in both
// languages, at desktop and phone widths, is screenshotted under .data/screenshots/ and checked with axe-core (no
// serious or critical violation) and for horizontal overflow; the browser reports no CSP violation.
import t, { type Test } from 'tap';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
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
const DESKTOP = { width: 1100, height: 900 };
const PHONE = { width: 390, height: 844 };
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAQAAAADCAIAAAA7ljmRAAAAEElEQVR4nGP4n8IARww4OQBQqBClG0boaQAAAABJRU5ErkJggg==', 'base64');

type Browser = Awaited<ReturnType<typeof chromium.launch>>;
interface Person {
  context: BrowserContext;
  page: Page;
  cspErrors: string[];
}

/** A browser context whose CSP violations (reported on the console) are collected; dialogs are accepted. */
async function person(t: Test, browser: Browser, locale: string, timezoneId = 'America/Sao_Paulo'): Promise<Person> {
  const context = await browser.newContext({ locale, timezoneId, viewport: DESKTOP, acceptDownloads: true });
  const page = await context.newPage();
  page.setDefaultTimeout(20_000);
  const cspErrors: string[] = [];
  page.on('console', (m) => {
    if (/Content Security Policy|Refused to/i.test(m.text())) cspErrors.push(m.text());
  });
  t.teardown(() => context.close());
  return { context, page, cspErrors };
}

async function signInByMail(app: TestApp, smtp: SmtpCatcher, page: Page, email: string, from = '/console'): Promise<void> {
  await page.goto(`${app.url}${from}`);
  if (from === '/') await page.click('main a.button:has-text("Sign in"), main a.button:has-text("Entrar")');
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

/** Nothing sticks out sideways, and every visible button and link lies within the viewport's width. */
async function fits(t: Test, page: Page, label: string): Promise<void> {
  const width = page.viewportSize()!.width;
  const out = await page.evaluate((w) => {
    // The page's own globals (this runs in the browser; the test's types know no DOM).
    const doc = (globalThis as any).document;
    const wide: number = doc.documentElement.scrollWidth;
    const hidden: string[] = [...doc.querySelectorAll('main button, main a, main select, main input:not([type=hidden]):not(.visually-hidden)')]
      .filter((e: any) => {
        const r = e.getBoundingClientRect();
        return r.width > 0 && r.height > 0 && (r.right > w + 1 || r.left < -1);
      })
      .map((e: any) => `${e.tagName} ${(e.textContent || e.name || '').trim().slice(0, 30)}`);
    return { wide, hidden };
  }, width);
  t.ok(out.wide <= width, `${label}: no horizontal scroll (${out.wide} ≤ ${width})`);
  t.same(out.hidden, [], `${label}: every control within the screen`);
}

/** Pages in both languages and at both widths: screenshot, axe, fit. */
async function review(t: Test, page: Page, app: TestApp, role: string, paths: [string, string][]): Promise<void> {
  for (const [size, viewport] of [
    ['desktop', DESKTOP],
    ['phone', PHONE],
  ] as const) {
    await page.setViewportSize(viewport);
    for (const [path, shot] of paths) {
      for (const lang of ['en-US', 'pt-BR']) {
        await page.goto(`${app.url}${path}${path.includes('?') ? '&' : '?'}lang=${lang}`);
        t.equal(await page.getAttribute('html', 'lang'), lang, `${path} ${lang}`);
        await page.screenshot({ path: join(SHOTS, `console-${role}-${shot}-${lang}-${size}.png`), fullPage: true });
        await accessibility(t, page, `${role} ${path} ${lang} ${size}`);
        await fits(t, page, `${role} ${path} ${lang} ${size}`);
      }
    }
  }
  await page.setViewportSize(DESKTOP);
}

/** Submit a form by clicking `selector` and wait for the page it leads to. */
async function submit(page: Page, selector: string): Promise<void> {
  await Promise.all([page.waitForNavigation(), page.click(selector)]);
}

t.test('browser: the console, as an owner uses it', { timeout: 420_000 }, async (t) => {
  t.ok(existsSync(CHROMIUM), `Chromium is installed at ${CHROMIUM}`);
  mkdirSync(SHOTS, { recursive: true });
  const smtp = await startSmtpCatcher(t);
  const app = await startTestApp(t, { env: { RATE_LIMIT_MAX: '100000', SMTP_URL: smtp.url } });
  const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: FLAGS });
  t.teardown(() => browser.close());
  const owner = await person(t, browser, 'en-US');
  const guest = await person(t, browser, 'pt-BR');
  const { page } = owner;
  const dialogs: string[] = [];
  page.on('dialog', (d) => {
    dialogs.push(d.message());
    void d.accept();
  });
  const files = mkdtempSync(join(tmpdir(), 'console-upload-'));
  t.teardown(() => rmSync(files, { recursive: true, force: true }));

  // 1. The front page says what this is and leads to sign-in, which lands on the console.
  await page.goto(`${app.url}/`);
  t.match(await page.locator('h1').textContent(), /Siglata: a workspace your agents can work in/);
  await review(t, page, app, 'visitor', [['/', 'front']]);
  await signInByMail(app, smtp, page, 'olivia@example.com', '/');
  t.equal(await page.locator('h1').textContent(), 'Your workspace');

  // 2. An organization; a refused form keeps what was typed and the address of its page.
  await page.fill('#org-name', 'Acme Docs');
  await page.fill('#org-slug', 'acme-docs');
  await submit(page, 'section:has(#create) button[type=submit]');
  t.equal(await page.locator('.notice').textContent(), 'Organization created.');
  await page.fill('#org-name', 'Acme Again');
  await page.fill('#org-slug', 'acme-docs');
  await submit(page, 'section:has(#create) button[type=submit]');
  t.match(await page.locator('[role=alert]').textContent(), /The slug "acme-docs" is taken\. Choose another slug\.$/);
  t.equal(await page.inputValue('#org-name'), 'Acme Again', 'the name typed is still there');
  t.equal(new URL(page.url()).pathname, '/console', 'the address is the page, not the form action');

  // 3. Members: invite, send again, at a phone's width every control is reachable.
  await page.goto(`${app.url}/console/members`);
  await page.fill('#invite-email', 'gabriel@example.com');
  await submit(page, 'button:has-text("Send invitation")');
  await page.fill('#invite-email', 'gabriel@example.com');
  await submit(page, 'button:has-text("Send invitation")');
  t.match(await page.locator('[role=alert]').textContent(), /already has a pending invitation/);
  await submit(page, '[role=alert] button:has-text("Send again")');
  t.match(await page.locator('.notice').textContent(), /Invitation sent again/);

  // 4. The invitee, in another browser context and in Portuguese, accepts.
  await signInByMail(app, smtp, guest.page, 'gabriel@example.com');
  await submit(guest.page, 'button:has-text("Aceitar")');
  t.equal(await guest.page.locator('.notice').textContent(), 'Você entrou na organização.');

  // 5. The owner makes the new member an admin, then a member again; the phone layout keeps the controls reachable.
  await page.goto(`${app.url}/console/members`);
  const row = page.locator('tr', { hasText: 'gabriel@example.com' }).first();
  await row.locator('select[name=role]').selectOption('admin');
  await Promise.all([page.waitForNavigation(), row.locator('button:has-text("Change role")').click()]);
  t.equal(await page.locator('.notice').textContent(), 'Role changed.');
  await page.setViewportSize(PHONE);
  await page.goto(`${app.url}/console/members`);
  await fits(t, page, 'members at 390 px');
  const remove = page.locator('tr', { hasText: 'gabriel@example.com' }).locator('button:has-text("Remove")');
  t.ok(await remove.isVisible(), 'the remove button is on screen at 390 px');
  await page.setViewportSize(DESKTOP);

  // 6. Files: upload two files and a folder, with the buttons a person uses.
  writeFileSync(join(files, 'notes.txt'), 'first line\n<b>not bold</b>\n');
  writeFileSync(join(files, 'pixel.png'), PNG);
  mkdirSync(join(files, 'docs', 'drafts'), { recursive: true });
  writeFileSync(join(files, 'docs', 'plan.md'), '# Plan\n');
  writeFileSync(join(files, 'docs', 'drafts', 'idea.txt'), 'an idea');
  await page.goto(`${app.url}/console/files`);
  t.match(await page.locator('main').textContent(), /No file yet/);
  await Promise.all([page.waitForURL(/done=upload/), page.setInputFiles('#upload-files', [join(files, 'notes.txt'), join(files, 'pixel.png')])]);
  t.equal(await page.locator('.notice').textContent(), 'Upload complete.');
  await page.goto(`${app.url}/console/files`);
  await Promise.all([page.waitForURL(/done=upload/), page.setInputFiles('#upload-folder', join(files, 'docs'))]);
  const listed = async () => (await page.locator('#file-list tbody tr td:first-child').allTextContents()).map((s) => s.trim());
  t.same(await listed(), ['docs/', 'notes.txt', 'pixel.png']);
  await submit(page, '#file-list a:has-text("docs/")');
  t.same(await listed(), ['drafts/', 'plan.md']);
  t.match(await page.locator('.crumbs').textContent(), /All files\s*docs/);
  await submit(page, '#file-list a:has-text("drafts/")');
  t.same(await listed(), ['idea.txt']);

  // Search, and sort by size; the keyboard reaches the upload buttons.
  await page.goto(`${app.url}/console/files`);
  await page.focus('#file-search');
  let reached = false;
  for (let i = 0; i < 6 && !reached; i++) {
    await page.keyboard.press('Tab');
    reached = await page.evaluate(() => (globalThis as any).document.activeElement?.id === 'upload-files');
  }
  t.ok(reached, 'Tab from the search box reaches "Upload files"');
  await page.fill('#file-search', 'IDEA');
  await submit(page, 'form[role=search] button[type=submit]');
  t.same(await listed(), ['docs/drafts/idea.txt']);
  await page.goto(`${app.url}/console/files`);
  await submit(page, 'th a:has-text("Size")');
  await submit(page, 'th a:has-text("Size")');
  t.same(await listed(), ['docs/', 'pixel.png', 'notes.txt'], 'folders first, then files largest first');

  // Details: the text shown as text, the image shown, the download the bytes uploaded.
  await submit(page, '#file-list a:has-text("notes.txt")');
  t.equal(await page.locator('pre.preview code').textContent(), 'first line\n<b>not bold</b>\n', 'markup shown, not run');
  t.match(await page.locator('dl.facts').textContent(), /Written by\s*olivia@example\.com/);
  const [download] = await Promise.all([page.waitForEvent('download'), page.click('a.button:has-text("Download")')]);
  t.equal(readFileSync((await download.path())!, 'utf8'), 'first line\n<b>not bold</b>\n', 'the download is the file');
  await page.goto(`${app.url}/console/files`);
  await submit(page, '#file-list a:has-text("pixel.png")');
  t.equal(await page.locator('img.preview').evaluate((img: any) => img.naturalWidth), 4, 'the image preview loads');

  // Keyboard: rename and move from the details page with the keyboard alone.
  await page.goto(`${app.url}/console/files`);
  await submit(page, '#file-list a:has-text("notes.txt")');
  await page.focus('#rename-path');
  await page.keyboard.press('Control+A');
  await page.keyboard.type('archive/notes-2026.txt');
  await Promise.all([page.waitForNavigation(), page.keyboard.press('Enter')]);
  t.equal(await page.locator('.notice').textContent(), 'Saved.');
  t.match(await page.locator('dl.facts').textContent(), /archive\/notes-2026\.txt/);

  // Trash, Undo; trash again, restore from the trash, delete for good (asked first).
  await page.goto(`${app.url}/console/files?path=archive/`);
  await submit(page, 'button[aria-label="Move to trash: archive/notes-2026.txt"]');
  t.same(await listed(), []);
  await submit(page, '.notice button:has-text("Undo")');
  t.same(await listed(), ['notes-2026.txt']);
  await submit(page, 'button[aria-label="Move to trash: archive/notes-2026.txt"]');
  await page.goto(`${app.url}/console/files/trash`);
  await submit(page, 'button[aria-label="Restore archive/notes-2026.txt"]');
  t.equal(await page.locator('.notice').textContent(), 'File restored.');
  await page.goto(`${app.url}/console/files?path=docs/`);
  await submit(page, 'button[aria-label="Move to trash: docs/plan.md"]');
  await page.goto(`${app.url}/console/files/trash`);
  await submit(page, 'button[aria-label="Delete forever: docs/plan.md"]');
  t.match(dialogs.at(-1), /Delete docs\/plan\.md forever\?/, 'asked first');
  t.match(await page.locator('main').textContent(), /The trash is empty/);

  // An older version whose path the current file holds: its restore is refused with the two ways on, in the trash;
  // restored beside the current file. And a move onto a taken path offers the same two ways.
  const older = await page.request.post(`${app.url}/app/v1/execute`, {
    headers: { origin: app.url },
    data: { script: 'return (await files_write_text({ name: "archive/notes-2026.txt", text: "revised" })).replacedFileId;' },
  });
  t.equal(older.status(), 200);
  await page.goto(`${app.url}/console/files/trash`);
  await submit(page, 'button[aria-label="Restore archive/notes-2026.txt"]');
  t.match(await page.locator('[role=alert]').textContent(), /"archive\/notes-2026\.txt" is taken by the active file/);
  t.notMatch(await page.locator('[role=alert]').textContent(), /onConflict/, 'no API argument');
  t.match(await page.locator('#trash-list').textContent(), /Another file is at archive\/notes-2026\.txt now/);
  await accessibility(t, page, 'trash, a restore whose path is taken');
  await page.screenshot({ path: join(SHOTS, 'console-owner-trash-path-taken-en-US-desktop.png'), fullPage: true });
  await submit(page, 'button:has-text("Restore beside it")');
  t.equal(await page.locator('.notice').textContent(), 'File restored.');
  await page.goto(`${app.url}/console/files?path=archive/`);
  const today = new Date().toISOString().slice(0, 10);
  t.same(await listed(), [`notes-2026 (restored ${today}).txt`, 'notes-2026.txt'], 'restored beside the current file');
  await submit(page, `#file-list a:has-text("notes-2026 (restored ${today}).txt")`);
  await page.fill('#rename-path', 'archive/notes-2026.txt');
  await submit(page, 'section:has(#rename) button[type=submit]');
  t.match(await page.locator('[role=alert]').textContent(), /is taken[\s\S]*Replace the file at archive\/notes-2026\.txt/);
  await submit(page, '[role=alert] button:has-text("Replace the file there")');
  t.equal(await page.locator('.notice').textContent(), 'Saved.');
  await page.goto(`${app.url}/console/files?path=archive/`);
  t.same(await listed(), ['notes-2026.txt'], 'the moved file replaced the one there');

  // Several at once: every file of the page selected with one box, moved to another folder.
  await page.goto(`${app.url}/console/files`);
  await page.check('input[data-select-all]');
  await page.fill('#bulk-target', 'media/');
  await submit(page, '#bulk button[value=move]');
  t.equal(await page.locator('.notice').textContent(), 'Done for the selected files.');
  t.same(await listed(), ['archive/', 'docs/', 'media/']);

  // Resume: an upload cut off (its last part never gets an answer) continues after a reload, sending only that part.
  const big = join(files, 'big.bin');
  writeFileSync(big, Buffer.alloc(8 * 1024 * 1024 * 2 + 1000, 1));
  const parts: string[] = [];
  page.on('request', (r) => {
    if (r.method() === 'PUT' && r.url().includes('/parts/')) parts.push(r.url().split('/parts/')[1]);
  });
  let asked: () => void;
  const partThreeAsked = new Promise<void>((resolve) => {
    asked = resolve;
  });
  await page.route('**/parts/3', () => asked()); // held: neither answered nor failed, as when a connection hangs
  await page.goto(`${app.url}/console/files?path=backups/`);
  await page.setInputFiles('#upload-files', big);
  await partThreeAsked;
  await page.waitForFunction((sent) => (globalThis as any).document.querySelector('#upload-list progress')?.value === sent, 16 * 1024 * 1024);
  await page.reload(); // the page asks first (an upload is running): accepted
  await page.unroute('**/parts/3');
  t.match(await page.locator('#interrupted').textContent(), /Interrupted uploads[\s\S]*backups\/big\.bin/);
  parts.length = 0;
  await Promise.all([page.waitForURL(/done=upload/), page.setInputFiles('#upload-files', big)]);
  t.same(parts, ['3'], 'only the missing part is sent again');
  t.same(await listed(), ['big.bin']);

  // 7. Activity: who by name and from where, local times, a filter, the CSV.
  const run = await page.request.post(`${app.url}/app/v1/execute`, {
    headers: { origin: app.url },
    data: { script: 'const a = 1;\nthrow new Error("quarterly report missing");' },
  });
  t.equal(run.status(), 200);
  await page.goto(`${app.url}/console/activity`);
  const first = page.locator('#executions tbody tr').first();
  t.match(await first.textContent(), /person\s*olivia@example\.com\s*REST[\s\S]*const a = 1;[\s\S]*failed[\s\S]*quarterly report missing/);
  const when = page.locator('#executions tbody tr time').first();
  t.notMatch(await when.textContent(), /UTC/, 'shown in local time');
  t.match(await when.getAttribute('title'), /UTC$/, 'with UTC on hover');
  await page.selectOption('#filter-outcome', 'failed');
  await submit(page, 'form.toolbar button[type=submit]');
  t.equal(await page.locator('#executions tbody tr').count(), 1);
  t.match(page.url(), /tz=America%2FSao_Paulo/, 'dates are days in the reader’s time zone');
  const [csv] = await Promise.all([page.waitForEvent('download'), page.click('a:has-text("Export as CSV")')]);
  const lines = readFileSync((await csv.path())!, 'utf8')
    .trimEnd()
    .split('\r\n');
  t.equal(lines.length, 2, 'the header and the one failed run');
  t.match(lines[1], /,person,olivia@example\.com,.*,rest,run,failed,/);

  // 8. Agents and access: states explained, revoking MCP access stops an agent, no scope needs a confirmation,
  // API keys shown once and revoked after a question.
  const agent = await app.token({ email: 'olivia@example.com', org: 'acme-docs' });
  const agentCall = () =>
    page.request.post(`${app.url}/v1/mcp`, {
      headers: { authorization: `Bearer ${agent}`, accept: 'application/json, text/event-stream' },
      data: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'execute', arguments: { script: 'return 1' } } },
    });
  t.equal((await agentCall()).status(), 200, 'the agent is served before');
  await page.goto(`${app.url}/console/agents`);
  t.match(await page.locator('section:has(#mcp)').textContent(), /Every organization starts here; it works as active/);
  await page.check('input[name=state][value=revoked]');
  await submit(page, 'button:has-text("Save access")');
  t.equal(await page.locator('#mcp-state').textContent(), 'revoked');
  t.equal((await agentCall()).status(), 403, "the agent's next call is refused");
  await page.check('input[name=state][value=active]');
  for (const box of await page.locator('input[name=scopes][id^=max-]').all()) await box.uncheck();
  await submit(page, 'button:has-text("Save access")');
  t.match(dialogs.at(-1), /With no scope allowed, every agent call and every API key is refused/);
  t.match(await page.locator('.warning').textContent(), /No scope is allowed/);
  await page.check('#max-files-read');
  await submit(page, 'button:has-text("Save access")');
  t.equal((await agentCall()).status(), 200, 'served again');
  await page.fill('#key-name', 'ci-job');
  await submit(page, 'button:has-text("Create key")');
  const key = await page.inputValue('#new-key');
  t.match(key, /^slk_/, 'the new key is shown once');
  await page.goto(`${app.url}/console/agents`);
  await submit(page, 'button[aria-label="Revoke the key ci-job"]');
  t.match(dialogs.at(-1), /Revoke the API key “ci-job”\?/, 'asked first');
  t.match(await page.locator('section:has(#keys) tbody').textContent(), /ci-job[\s\S]*revoked/);
  await page.goto(`${app.url}/console/activity`);
  t.match(await page.locator('#mcp-changes').textContent(), /olivia@example\.com[\s\S]*active/);

  // 9. Every page, as the owner.
  const details = (await page.request.get(`${app.url}/app/v1/files?prefix=docs/drafts/`).then((r) => r.json())).items[0].fileId as string;
  const pages: [string, string][] = [
    ['/console', 'home'],
    ['/console/files', 'files'],
    ['/console/files?path=docs/', 'folder'],
    [`/console/files/details?fileId=${details}`, 'file'],
    ['/console/files/trash', 'trash'],
    ['/console/activity', 'activity'],
    ['/console/members', 'members'],
    ['/console/agents', 'agents'],
  ];
  await review(t, page, app, 'owner', pages);

  // 10. A member sees the files, not the activity or the agents' controls; an admin sees both.
  await page.goto(`${app.url}/console/members`);
  const gabriel = page.locator('tr', { hasText: 'gabriel@example.com' }).first();
  await gabriel.locator('select[name=role]').selectOption('member');
  await Promise.all([page.waitForNavigation(), gabriel.locator('button:has-text("Change role")').click()]);
  await guest.page.goto(`${app.url}/console/activity`);
  t.match(await guest.page.locator('main').textContent(), /Somente proprietários e administradores podem ler a atividade/);
  t.equal(await guest.page.locator('#executions').count(), 0);
  await guest.page.goto(`${app.url}/console/agents`);
  t.equal(await guest.page.locator('button:has-text("Revogar")').count(), 0);
  await guest.page.goto(`${app.url}/console/files?path=docs/`);
  writeFileSync(join(files, 'nota.txt'), 'olá');
  await Promise.all([guest.page.waitForURL(/done=upload/), guest.page.setInputFiles('#upload-files', join(files, 'nota.txt'))]);
  t.equal(await guest.page.locator('.notice').textContent(), 'Envio concluído.', 'a member uploads too, in Portuguese');
  t.match(await guest.page.locator('#file-list').textContent(), /nota\.txt/);
  await review(t, guest.page, app, 'member', pages);
  await page.goto(`${app.url}/console/members`);
  await gabriel.locator('select[name=role]').selectOption('admin');
  await Promise.all([page.waitForNavigation(), gabriel.locator('button:has-text("Change role")').click()]);
  await guest.page.goto(`${app.url}/console/activity`);
  t.ok(await guest.page.locator('#executions').count(), 'an admin reads the activity');
  await review(t, guest.page, app, 'admin', [
    ['/console/activity', 'activity'],
    ['/console/agents', 'agents'],
  ]);

  t.same(owner.cspErrors, [], "no CSP violation in the owner's pages");
  t.same(guest.cspErrors, [], "no CSP violation in the member's pages");
});
