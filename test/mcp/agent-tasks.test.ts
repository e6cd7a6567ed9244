// Tried as an agent developer would: the official MCP SDK client, reading only the tool descriptions, one script per
// everyday task written with the names the `execute` description shows (and the ones agents guess). The record sheet
// in that description is generated from the registry, and stays within the size docs/usage.md reports.
import t from 'tap';
import { readFile } from 'node:fs/promises';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { startTestApp } from '../helpers/app.ts';
import { BINDINGS } from '../../runtime-api/registry.ts';
import { SHEET_RECORDS, recordSheet } from '../../runtime-api/project/record-sheet.ts';

/** What an agent can afford to read before its first script: the sheet alone, and the whole execute description. */
const SHEET_MAX_CHARS = 4000;
const DESCRIPTION_MAX_CHARS = 12000;

t.test('an agent reading only the tool descriptions', async (t) => {
  const app = await startTestApp(t, { env: { RATE_LIMIT_MAX: '100000' } });
  const token = await app.token({ email: 'agent@example.com' });
  const client = new Client({ name: 'agent-tasks', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${app.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
  t.teardown(() => client.close());
  const { tools } = await client.listTools();
  const description = tools.find((x) => x.name === 'execute')!.description!;
  const run = async (script: string) => {
    const res = await client.callTool({ name: 'execute', arguments: { script } });
    return res.structuredContent as { ok: boolean; result?: any; error?: { code: string; resolution?: string } };
  };

  t.test('the execute description carries the record sheet, generated from the registry', async (t) => {
    const sheet = recordSheet(BINDINGS);
    t.ok(description.includes(sheet), 'the sheet, as generated');
    for (const { name } of SHEET_RECORDS) t.match(sheet, new RegExp(`^type ${name} = \\{`, 'm'), `${name} is on it`);
    t.match(sheet, /^type File = \{ id: string; fileId: string; name: string; path: string; [^\n]*size: number;/m);
    t.match(sheet, /^type ApiKey = \{ id: string; keyId: string;/m);
    t.match(sheet, /^type Invitation = \{ id: string; invitationId: string;/m);
    t.match(sheet, /^type File = [^\n]*\/\/ [^\n]*files_list\.items\[\][^\n]*files_get/m, 'each record says which bindings return it');
    t.notMatch(description, /byteLength/);
    t.ok(sheet.length <= SHEET_MAX_CHARS, `the sheet is ${sheet.length} characters`);
    t.ok(description.length <= DESCRIPTION_MAX_CHARS, `the description is ${description.length} characters`);
    const usage = await readFile(new URL('../../docs/usage.md', import.meta.url), 'utf8');
    const reported = /record sheet is ([\d,]+)\s+characters\s+\(about\s+([\d,]+)\s+tokens\)[^.]*;\s+the\s+whole\s+description\s+([\d,]+)\s+characters/.exec(
      usage,
    );
    t.ok(reported, 'docs/usage.md reports the sizes');
    const [sheetChars, sheetTokens, descriptionChars] = reported!.slice(1).map((n) => Number(n.replace(/,/g, '')));
    t.ok(Math.abs(sheetChars - sheet.length) <= sheet.length * 0.05, `docs say ${sheetChars}, the sheet is ${sheet.length}`);
    t.equal(sheetTokens, Math.round(sheetChars / 4 / 10) * 10, 'tokens estimated at 4 characters each');
    t.ok(
      Math.abs(descriptionChars - description.length) <= description.length * 0.05,
      `docs say ${descriptionChars}, the description is ${description.length}`,
    );
  });

  t.test('everyday scripts with the names the sheet shows work on the first try', async (t) => {
    const seeded = await run(
      'for (const [name, text] of [["r/a.txt", "abc"], ["r/b.txt", "hello"], ["notes/c.md", "# x"]]) await files_write_text({ name, text }); return 1;',
    );
    t.equal(seeded.ok, true, JSON.stringify(seeded.error));
    const sizes = await run('const { items } = await files_list({}); return Object.fromEntries(items.map((f) => [f.path, f.size]));');
    t.same(sizes.result, { 'notes/c.md': 3, 'r/a.txt': 3, 'r/b.txt': 5 }, 'sizes are numbers, not null');
    const total = await run('const { items } = await files_list({ prefix: "r/" }); return items.reduce((n, f) => n + f.size, 0);');
    t.equal(total.result, 8);
    const trashed = await run('const f = await files_get({ path: "r/a.txt" }); return (await files_trash({ id: f.id })).state;');
    t.equal(trashed.result, 'trashed', 'a file by `path`, trashed by `id`');
    const key = await run('const k = await api_keys_create({ name: "ci", scopes: ["files:read"] }); return (await api_keys_revoke({ id: k.id })).state;');
    t.equal(key.result, 'revoked', 'a key revoked by its `id`');
    const invitation = await run(
      'await member_invite({ email: "guest@example.com", role: "member" }); const [i] = (await invitations_list({})).items; return (await invitation_cancel({ id: i.id })).status;',
    );
    t.equal(invitation.result, 'canceled', 'an invitation cancelled by its `id`');
    const members = await run('const { items } = await members_list({}); return items.map((m) => [m.id === m.memberId, m.email, m.role]);');
    t.same(members.result, [[true, 'agent@example.com', 'owner']]);
    const runs = await run('const { items } = await executions_list({ limit: 3 }); return items.every((e) => e.id === e.executionId);');
    t.equal(runs.result, true);
    const guessed = await run('return await files_get({ file: "fil_x" });');
    t.equal(guessed.ok, false);
    t.match(
      guessed.error,
      { code: 'invalid_input', resolution: /`file`: not a field of this input; did you mean `fileId`\?/ },
      'a wrong guess says the key meant',
    );
  });
});
