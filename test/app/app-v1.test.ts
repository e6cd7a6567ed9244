// /app/v1 over real HTTP: context, files, and execute in run, plan and apply modes — a 100-file batch rename
// planned, reviewed and applied atomically, and a concurrent change between plan and apply detected.
import t from 'tap';
import { startTestApp } from '../helpers/app.ts';
import { http } from '../helpers/http.ts';
import { contract } from '../helpers/openapi-contract.ts';
import { auditLogFor } from '../../runtime-api/services/audit-log.ts';

const RENAME = `
let cursor = null, renamed = 0;
do {
  const page = await files_list({ prefix: "draft-", limit: 50, cursor });
  for (const f of page.items) {
    await files_update({ fileId: f.fileId, name: f.name.replace("draft-", "final-") });
    renamed++;
  }
  cursor = page.nextCursor;
} while (cursor);
return renamed;`;

t.test('/app/v1', async (t) => {
  // The 100-file scripts make 100 sequential binding calls, each a database transaction: a few ms apiece when quiet,
  // enough to pass the default 5 s deadline on a loaded machine. The sandbox host's own share of a call's round trip
  // is small (2,000 sequential calls to an instant binding, load ~6: 0.05-0.07 ms per call in process, 0.15 ms
  // through a host process), so the deadline is raised for the batch, not the bridge changed.
  const app = await startTestApp(t, { env: { RATE_LIMIT_MAX: '100000', SCRIPT_WALL_MS: '30000' } });
  const token = await app.token({ email: 'app@example.com' });
  const doc = (await http(`${app.url}/openapi.json`)).body;
  const c = contract(doc);
  const exec = (body: unknown, tok = token) => http(`${app.url}/app/v1/execute`, { json: body, token: tok });

  t.test('context and files accept a Bearer token', async (t) => {
    const ctx = await http(`${app.url}/app/v1/context`, { token });
    t.equal(ctx.status, 200);
    t.match(ctx.body, { organization: { slug: 'org-app' }, role: 'owner' });
    c.check(t, 'get', '/app/v1/context', ctx);
    const anon = await http(`${app.url}/app/v1/context`);
    t.equal(anon.status, 401);
    c.check(t, 'get', '/app/v1/context', anon);
  });

  t.test('create 100 files with a script, list them through /app/v1/files', async (t) => {
    const res = await exec({
      script: 'for (let i = 0; i < 100; i++) await files_write_text({ name: `draft-${String(i).padStart(3, "0")}.txt`, text: "v" + i }); return "ok";',
    });
    t.equal(res.status, 200);
    t.equal(res.body.ok, true, JSON.stringify(res.body.error));
    c.check(t, 'post', '/app/v1/execute', res);
    const page = await http(`${app.url}/app/v1/files?prefix=draft-&limit=10`, { token });
    t.equal(page.status, 200);
    t.equal(page.body.items.length, 10);
    t.equal(page.body.items[0].name, 'draft-000.txt');
    t.type(page.body.nextCursor, 'string');
    c.check(t, 'get', '/app/v1/files', page);
    const atPath = await http(`${app.url}/app/v1/files/by-path?path=${encodeURIComponent('draft-007.txt')}`, { token });
    t.equal(atPath.status, 200);
    t.match(atPath.body, { name: 'draft-007.txt', state: 'active', downloadUrl: /\/v1\/mcp\/files\/fil_\w+\/download$/ });
    c.check(t, 'get', '/app/v1/files/by-path', atPath);
    const nothing = await http(`${app.url}/app/v1/files/by-path?path=draft-999.txt`, { token });
    t.same([nothing.status, nothing.body.code], [404, 'not_found']);
    c.check(t, 'get', '/app/v1/files/by-path', nothing);
    const noPath = await http(`${app.url}/app/v1/files/by-path`, { token });
    t.same([noPath.status, noPath.body.error?.code], [400, 'invalid_input']);
    c.check(t, 'get', '/app/v1/files/by-path', noPath);
    const bad = await http(`${app.url}/app/v1/files?limit=abc`, { token });
    t.equal(bad.status, 400);
    t.equal(bad.body.error.code, 'invalid_input');
    c.check(t, 'get', '/app/v1/files', bad);
  });

  t.test('plan records the 100 renames without performing them; apply performs them atomically', async (t) => {
    const plan = await exec({ script: RENAME, mode: 'plan' });
    t.equal(plan.status, 200);
    t.equal(plan.body.ok, true);
    t.equal(plan.body.result, 100);
    t.equal(plan.body.operations.length, 100);
    t.match(plan.body.operations[0], { index: 0, binding: 'files_update', input: { name: 'final-000.txt' } });
    t.type(plan.body.planToken, 'string');
    const still = await http(`${app.url}/app/v1/files?prefix=final-`, { token });
    t.equal(still.body.items.length, 0, 'nothing renamed by planning');

    const applied = await exec({ script: RENAME, mode: 'apply', planToken: plan.body.planToken });
    t.equal(applied.status, 200);
    t.equal(applied.body.applied, true);
    t.equal((await http(`${app.url}/app/v1/files?prefix=final-&limit=1000`, { token })).body.items.length, 100);
    t.equal((await http(`${app.url}/app/v1/files?prefix=draft-`, { token })).body.items.length, 0);
    await auditLogFor(app.deps.sql).flush(); // rows are written in batches, after the response
    const modes = await app.deps.sql`select mode from executions where via = 'app' order by created_at`;
    t.ok(modes.some((r) => r.mode === 'plan') && modes.some((r) => r.mode === 'apply'), 'both are in the audit log');
  });

  t.test('a plan token applies once: again, it is 409 plan_already_applied, saying its writes are in', async (t) => {
    const script = 'for (const n of ["one", "two", "three"]) await files_write_text({ name: `once-${n}.txt`, text: n }); return 3;';
    const plan = await exec({ script, mode: 'plan' });
    const first = await exec({ script, mode: 'apply', planToken: plan.body.planToken });
    t.equal(first.body.applied, true);
    const count = async () => (await http(`${app.url}/app/v1/files?prefix=once-&limit=100`, { token })).body.items.length;
    t.equal(await count(), 3);
    await auditLogFor(app.deps.sql).flush();
    const [{ n: executions }] = await app.deps.sql`select count(*)::int as n from executions`;

    const again = await exec({ script, mode: 'apply', planToken: plan.body.planToken });
    t.equal(again.status, 409);
    t.equal(again.body.code, 'plan_already_applied');
    t.match(
      again.body.message,
      /^This plan was already applied at \d{4}-\d\d-\d\dT[\d:.]+Z: its 3 writes were committed then and are in place \(unless changed since\)\. Nothing was run now\./,
    );
    t.equal(again.body.writes, 3);
    t.equal(Date.parse(again.body.appliedAt) <= Date.now(), true);
    c.check(t, 'post', '/app/v1/execute', again);
    const pt = await http(`${app.url}/app/v1/execute`, {
      json: { script, mode: 'apply', planToken: plan.body.planToken },
      token,
      headers: { 'x-service-locale': 'pt-BR' },
    });
    t.match(pt.body.message, /^Este plano já foi aplicado em .*: as suas 3 escritas foram gravadas naquele momento e estão em vigor/);
    t.equal(await count(), 3, 'nothing written twice');
    await auditLogFor(app.deps.sql).flush();
    const [{ n: after }] = await app.deps.sql`select count(*)::int as n from executions`;
    t.equal(after, executions, 'the script did not run again');

    // Over MCP, the same token is the tool's error with the same code.
    const mcp = await http(`${app.url}/v1/mcp`, {
      token,
      json: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'execute', arguments: { script, mode: 'apply', planToken: plan.body.planToken } } },
    });
    t.equal(mcp.body.result.isError, true);
    t.match(mcp.body.result.structuredContent.error, { code: 'plan_already_applied', message: /already applied/ });
  });

  t.test('two applies of one token at once: one commits, the other is told it was applied', async (t) => {
    const script = 'await files_write_text({ name: "race.txt", text: "r" }); return 1;';
    const plan = await exec({ script, mode: 'plan' });
    const both = await Promise.all([0, 1].map(() => exec({ script, mode: 'apply', planToken: plan.body.planToken })));
    t.same(both.map((r) => r.status).sort(), [200, 409]);
    t.equal(both.find((r) => r.status === 200)!.body.applied, true);
    t.equal(both.find((r) => r.status === 409)!.body.code, 'plan_already_applied');
  });

  t.test('a rolled-back apply does not spend its token', async (t) => {
    const script =
      'await files_write_text({ name: "retry.txt", text: "r" }); if (!(await files_list({ prefix: "retry-gate" })).items.length) throw new Error("not yet"); return 1;';
    await exec({ script: 'await files_write_text({ name: "retry-gate.txt", text: "g" }); return 1;' });
    const plan = await exec({ script, mode: 'plan' });
    await exec({
      script: 'const { items } = await files_list({ prefix: "retry-gate" }); for (const f of items) await files_trash({ fileId: f.fileId }); return 1;',
    });
    const failed = await exec({ script, mode: 'apply', planToken: plan.body.planToken });
    t.equal(failed.status, 200);
    t.equal(failed.body.applied, false, 'the script failed: rolled back');
    await exec({ script: 'await files_write_text({ name: "retry-gate.txt", text: "g" }); return 1;' });
    const retried = await exec({ script, mode: 'apply', planToken: plan.body.planToken });
    t.equal(retried.body.applied, true, 'the same token applies once the script succeeds');
  });

  t.test('a change between plan and apply is detected: 409 conflict, nothing applied', async (t) => {
    await exec({ script: 'for (let i = 0; i < 100; i++) await files_write_text({ name: `draft-b${String(i).padStart(3, "0")}.txt`, text: "x" }); return 1;' });
    const plan = await exec({ script: RENAME, mode: 'plan' });
    t.equal(plan.body.operations.length, 100);
    // Someone else adds a matching file before the plan is applied.
    await exec({ script: 'await files_write_text({ name: "draft-zzz.txt", text: "late" }); return 1;' });
    const applied = await exec({ script: RENAME, mode: 'apply', planToken: plan.body.planToken });
    t.equal(applied.status, 409);
    t.equal(applied.body.code, 'conflict');
    // The counts follow the plan (100 under normal load), so they are read back from it.
    const n = plan.body.operations.length;
    // The extra write is refused before it runs: it is not the plan's write at its position.
    t.equal(
      applied.body.message,
      `Write #${n + 1} (files_update) is not the planned write #${n + 1}; it was not run and nothing was applied. Plan again and review.`,
    );
    c.check(t, 'post', '/app/v1/execute', applied);
    const renamed = await http(`${app.url}/app/v1/files?prefix=final-b&limit=1000`, { token });
    t.equal(renamed.body.items.length, 0, 'the whole batch was rolled back');
  });

  t.test('plan checks every argument as the write would: a workbook with a cell of the wrong type is refused in plan, not first in apply', async (t) => {
    const script = `return await spreadsheet_write({ name: 'bad.csv', format: 'csv', workbook: { version: 1, sheets: [{ name: 'S', tables: [{ name: 'S',
      columns: [{ name: 'n', type: 'integer' }], rows: [[1], ['two']] }] }] } });`;
    const plan = await exec({ script, mode: 'plan' });
    t.equal(plan.status, 200);
    t.equal(plan.body.ok, false, 'the planned run fails');
    t.match(plan.body.error, { code: 'invalid_input' });
    t.match(JSON.stringify(plan.body.error), /rows\.1\.0/, 'naming the cell');
    t.notOk(plan.body.planToken, 'and gives no plan to apply');
  });

  t.test('plan tokens are bound to the script, the caller and their lifetime', async (t) => {
    const plan = await exec({ script: 'return 1;', mode: 'plan' });
    const other = await exec({ script: 'return 2;', mode: 'apply', planToken: plan.body.planToken });
    t.equal(other.status, 409, 'another script');
    t.equal(other.body.message, 'The script differs from the planned one. Apply exactly the planned script, or plan this one.');
    const stranger = await app.token({ email: 'stranger@example.com' });
    const foreign = await exec({ script: 'return 1;', mode: 'apply', planToken: plan.body.planToken }, stranger);
    t.equal(foreign.status, 400);
    t.match(foreign.body.error.resolution, /planToken/);
    const missing = await exec({ script: 'return 1;', mode: 'apply' });
    t.equal(missing.status, 400);
    const forged = await exec({ script: 'return 1;', mode: 'apply', planToken: plan.body.planToken.slice(0, -4) + 'AAAA' });
    t.equal(forged.status, 400);
  });

  t.test('a script failing during apply rolls back everything it wrote', async (t) => {
    const script =
      'await files_write_text({ name: "half.txt", text: "1" }); const n = (await files_list({ prefix: "half" })).items.length; if (n > 0 && globalThis.fail !== false) throw new Error("boom"); return n;';
    const plan = await exec({ script, mode: 'plan' });
    t.equal(plan.body.ok, true, 'in plan mode the write is recorded, so the listing is empty and the script succeeds');
    const applied = await exec({ script, mode: 'apply', planToken: plan.body.planToken });
    t.equal(applied.status, 200);
    t.equal(applied.body.applied, false);
    t.equal(applied.body.ok, false);
    t.equal((await http(`${app.url}/app/v1/files?prefix=half`, { token })).body.items.length, 0);
  });
});
