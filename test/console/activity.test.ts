// Activity as an owner reads it: each execution says who ran it by name (a person, an API key, an OAuth app), from
// where (MCP, REST, the CLI by its User-Agent), when, how long, how it ended with the error, and the script's first
// lines (secrets masked); filters by person, key, outcome, source and date; paging; a CSV export with the same
// filters; the history of MCP access changes with its own paging. A member is refused all of it.
import t from 'tap';
import { world } from '../identity/org-helpers.ts';
import { http } from '../helpers/http.ts';
import { contract } from '../helpers/openapi-contract.ts';
import { oauthFlow, registerClient } from '../helpers/oauth.ts';
import { consoleForm, consolePage, withoutLabels } from './helpers.ts';

const mcpRun = (url: string, token: string, script: string, headers: Record<string, string> = {}) =>
  http(`${url}/v1/mcp`, {
    token,
    headers: { accept: 'application/json, text/event-stream', ...headers },
    json: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'execute', arguments: { script } } },
  });

/** The executions table's rows, each row's cells as text (tags dropped). */
function rows(html: string): string[][] {
  const table = /<table class="stack" id="executions">[\s\S]*?<\/table>/.exec(html)?.[0] ?? '';
  return [...table.matchAll(/<tr>([\s\S]*?)<\/tr>/g)].slice(1).map((r) =>
    [...r[1].matchAll(/<td[^>]*>([\s\S]*?)<\/td>/g)].map((c) =>
      c[1]
        .replace(/<[^>]+>/g, ' ')
        .replace(/\s+/g, ' ')
        .trim(),
    ),
  );
}

t.test('console: activity', async (t) => {
  const w = await world(t);
  const { app } = w;
  const c = contract((await http(`${app.url}/openapi.json`)).body);
  const owner = await w.user('act-owner@example.com');
  const org = await w.org(owner, 'act-org');
  const { jar: member } = await w.join(owner, org.id, 'act-member@example.com', 'member');
  const { jar: admin } = await w.join(owner, org.id, 'act-admin@example.com', 'admin');

  // A key named in the console, an OAuth app with a name of its own.
  const created = await consoleForm(owner, 'api-key-create', { name: 'nightly-build', expiresInDays: '30', scopes: 'files:read' });
  const key = /id="new-key" readonly value="([^"]+)"/.exec(created.text)![1];
  const client = await registerClient(app, { client_name: 'Claude Desktop' });
  const agent = await oauthFlow(app, { cookie: owner.cookie, organizationId: org.id, client });

  // A person over REST: five lines, an API key pasted on the second.
  const restScript = `const note = "first line";\nconst key = "${key}";\nconst third = 3;\nconst fourth = 4;\nreturn third + fourth;`;
  t.equal((await owner.post('/app/v1/execute', { script: restScript })).status, 200);
  // The key, from the command line (it names itself in User-Agent).
  const cli = await http(`${app.url}/app/v1/execute`, {
    token: key,
    headers: { 'user-agent': 'siglata-cli/0.9.1 (linux x64; node 24)' },
    json: { script: 'return (await files_list({})).items.length' },
  });
  t.equal(cli.status, 200, cli.text);
  // The app over MCP, failing on line 2.
  t.equal((await mcpRun(app.url, agent.tokens.access_token, 'const a = 1;\nthrow new Error("the quarterly report is missing")')).status, 200);
  // A plan over REST by the admin.
  t.equal((await admin.post('/app/v1/execute', { mode: 'plan', script: 'return await files_write_text({ name: "x.txt", text: "x" })' })).status, 200);

  t.test('each execution says who by name, from where, how long, how it ended and how it began', async (t) => {
    const page = await consolePage(owner, '/console/activity');
    t.equal(page.status, 200);
    c.check(t, 'get', '/console/activity', page);
    const r = rows(page.text);
    t.equal(r.length, 4, 'four executions');
    const [plan, mcp, fromCli, rest] = r;
    t.match(plan, [/UTC$/, /person act-admin@example\.com/, 'REST · plan', /files_write_text/, /ms$/, /succeeded/]);
    t.match(mcp, [
      /UTC$/,
      /app Claude Desktop for act-owner@example\.com/,
      'MCP',
      /const a = 1;/,
      /ms$/,
      /failed .*the quarterly report is missing \(at line 2\)/,
    ]);
    t.match(fromCli, [/UTC$/, /API key nightly-build for act-owner@example\.com/, 'CLI', /files_list/, /ms$/, /succeeded/]);
    t.match(rest, [/UTC$/, /person act-owner@example\.com/, 'REST', /const note = &quot;first line&quot;;/, /ms$/, /succeeded/]);
    t.match(rest[3], /const key = &quot;slk_…&quot;;/, 'the pasted key is masked');
    t.notOk(page.text.includes(key), 'the key itself is nowhere on the page');
    t.match(rest[3], /const third = 3;/);
    t.notMatch(rest[3], /fourth/, 'three lines only');
    t.match(rest[3], /… and 2 more lines/);
    t.match(page.text, /<time datetime="\d{4}-\d\d-\d\dT[^"]+Z">/, 'times are machine-readable, for the script to show in local time');
    const pt = await consolePage(owner, '/console/activity', 'pt-BR');
    t.match(rows(pt.text)[1], [/UTC$/, /aplicativo Claude Desktop por act-owner@example\.com/, 'MCP', /./, /./, /falhou .*\(na linha 2\)/]);
  });

  t.test('filters: by person, key, app, outcome, source and date', async (t) => {
    const ownerId = (await owner.get('/auth/get-session')).body.user.id as string;
    const keyId = (await app.deps.sql`select id from api_keys where name = 'nightly-build'`)[0].id as string;
    const only = async (query: string) => rows((await consolePage(owner, `/console/activity?${query}`)).text).map((r) => r[1]);
    t.equal((await only(`person=${ownerId}`)).length, 3, 'the owner, directly or through their key and app');
    t.same(await only(`key=${keyId}`), ['API key nightly-build for act-owner@example.com']);
    t.same(await only(`app=${client.client_id}`), ['app Claude Desktop for act-owner@example.com']);
    t.same(await only('outcome=failed'), ['app Claude Desktop for act-owner@example.com']);
    t.same(await only('source=cli'), ['API key nightly-build for act-owner@example.com']);
    t.equal((await only('source=rest')).length, 2);
    const today = app.clock.now().toISOString().slice(0, 10);
    t.equal((await only(`from=${today}&to=${today}&tz=UTC`)).length, 4, 'today, inclusive');
    t.equal((await only('to=2020-01-01')).length, 0, 'nothing before 2020');
    const none = await consolePage(owner, '/console/activity?to=2020-01-01');
    t.match(none.text, /No execution matches these filters/);
    const bad = await consolePage(owner, '/console/activity?from=2026-02-30');
    t.match(bad.text, /this filter was ignored/, 'an impossible date is said to be ignored');
    t.equal(rows(bad.text).length, 4);
    const filtered = await consolePage(owner, `/console/activity?outcome=failed&key=${keyId}`);
    t.match(filtered.text, /<option value="failed" selected>/, 'the form shows the filters in force');
    t.match(filtered.text, new RegExp(`<option value="${keyId}" selected>nightly-build</option>`));
    t.match(filtered.text, /href="\/console\/activity\/executions\.csv\?[^"]*outcome=failed/, 'the export keeps the filters');
  });

  t.test('a time zone decides what a day is', async (t) => {
    const now = app.clock.now();
    // The day that is "today" 14 hours ahead of UTC, and the day before it there.
    const ahead = new Date(now.getTime() + 14 * 3600_000).toISOString().slice(0, 10);
    const q = (day: string) => consolePage(owner, `/console/activity?from=${day}&to=${day}&tz=Pacific/Kiritimati`).then((p) => rows(p.text).length);
    t.equal(await q(ahead), 4, 'today in Kiritimati (UTC+14) holds every run');
  });

  t.test('paging: older executions a page at a time, and back to the newest', async (t) => {
    for (let i = 0; i < 24; i++) t.equal((await owner.post('/app/v1/execute', { script: `return ${i}` })).status, 200);
    const first = await consolePage(owner, '/console/activity');
    t.equal(rows(first.text).length, 25);
    const older = /href="([^"]+)" rel="next">Older executions/.exec(first.text)?.[1]?.replaceAll('&amp;', '&');
    t.ok(older, 'a link to older executions');
    const second = await owner.get(older!);
    t.equal(rows(second.text).length, 3, 'the rest');
    t.match(second.text, /Back to the newest/);
    t.notMatch(second.text, /rel="next"/, 'the last page');
  });

  t.test('CSV: every matching execution, with the filters, formulas defused', async (t) => {
    t.equal((await owner.post('/app/v1/execute', { script: '-1\nreturn "=cmd|calc"' })).status, 200);
    const csv = await owner.get('/console/activity/executions.csv?source=cli');
    c.check(t, 'get', '/console/activity/executions.csv', csv);
    t.equal(csv.status, 200);
    t.match(csv.headers['content-type'], /^text\/csv/);
    t.match(csv.headers['content-disposition'], /^attachment; filename="executions-\d{4}-\d\d-\d\d\.csv"$/);
    const lines = csv.text.trimEnd().split('\r\n');
    t.equal(lines[0].split(',')[0], 'createdAt');
    t.equal(lines.length, 2, 'the header and the one CLI run');
    t.match(lines[1], /,key,nightly-build,act-owner@example\.com,nightly-build,,cli,run,succeeded,/);
    const all = await owner.get('/console/activity/executions.csv');
    t.equal(all.text.trimEnd().split('\r\n').length, 1 + 29, 'every execution, past the first page');
    t.match(all.text, /,"'-1\nreturn ""=cmd\|calc"""\r\n/, 'a cell starting with - is quoted as text');
  });

  t.test('MCP access changes: who, when, from what to what, paged', async (t) => {
    t.equal((await consoleForm(owner, 'mcp-access-set', { state: 'revoked', scopes: 'files:read' })).status, 303);
    t.equal((await consoleForm(admin, 'mcp-access-set', { state: 'active', scopes: 'files:read' })).status, 303);
    const page = await consolePage(owner, '/console/activity');
    const table = withoutLabels(/<table class="stack" id="mcp-changes">[\s\S]*?<\/table>/.exec(page.text)?.[0] ?? '');
    const changes = [...table.matchAll(/<tr>([\s\S]*?)<\/tr>/g)].slice(1).map((r) =>
      r[1]
        .replace(/<[^>]+>/g, ' ')
        .replace(/\s+/g, ' ')
        .trim(),
    );
    t.equal(changes.length, 2);
    t.match(changes[0], /act-admin@example\.com revoked → active unchanged \( files:read \)/);
    t.match(changes[1], /act-owner@example\.com testing → revoked files:read files:write org:read org:admin → files:read/);
    for (let i = 0; i < 10; i++) await consoleForm(owner, 'mcp-access-set', { state: i % 2 ? 'active' : 'testing', scopes: 'files:read' });
    const first = await consolePage(owner, '/console/activity');
    const older = /href="([^"]+)" rel="next">Older changes/.exec(first.text)?.[1]?.replaceAll('&amp;', '&');
    t.ok(older, 'twelve changes: a second page');
    const second = await owner.get(older!);
    t.match(second.text, /act-owner@example\.com[\s\S]*testing[\s\S]*revoked/, 'the first change is on the last page');
  });

  t.test('a member reads no activity', async (t) => {
    const page = await consolePage(member, '/console/activity');
    t.equal(page.status, 200);
    t.match(page.text, /Only owners and admins can read the organization&#39;s activity/);
    t.notMatch(page.text, /id="executions"/);
    const csv = await member.get('/console/activity/executions.csv');
    t.equal(csv.status, 403);
    c.check(t, 'get', '/console/activity/executions.csv', csv);
    const bearer = await http(`${app.url}/console/activity/executions.csv`, { token: key });
    t.equal(bearer.status, 401, 'a Bearer credential is refused');
  });
});
