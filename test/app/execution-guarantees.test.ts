// What an execution may write, over real HTTP on both faces: an apply commits exactly the planned writes or nothing
// (a write is counted when the script starts it, so one it never awaited still counts), and no binding call is
// accepted once the execution has ended or failed, whatever user code runs while its error or result is read.
import t from 'tap';
import { setTimeout as sleep } from 'node:timers/promises';
import { startTestApp, memoryMailer } from '../helpers/app.ts';
import { http } from '../helpers/http.ts';

const rpc = (script: string) => ({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'execute', arguments: { script } } });
const LEAK = (name: string) => `files_write_text({ name: ${JSON.stringify(name)}, text: "leak" })`;

t.test('execution guarantees', async (t) => {
  const mailer = memoryMailer();
  const app = await startTestApp(t, { env: { RATE_LIMIT_MAX: '100000' }, mailer });
  const token = await app.token({ email: 'guard@example.com' });
  const exec = (body: Record<string, unknown>) => http(`${app.url}/app/v1/execute`, { json: body, token });
  const mcp = (script: string) => http(`${app.url}/v1/mcp`, { json: rpc(script), token });
  const file = async (name: string) => {
    const res = await exec({ script: `return (await files_write_text({ name: ${JSON.stringify(name)}, text: "v1" })).fileId;` });
    return res.body.result as string;
  };
  const state = async (fileId: string) => (await app.deps.sql`select name, state from files where id = ${fileId}`)[0];
  const leaked = async (prefix: string) => {
    await sleep(150); // a call that slipped through would be running now
    return (await app.deps.sql`select count(*)::int as n from files where name like ${`${prefix}%`}`)[0].n;
  };
  /** Plan then apply `script`; both responses. */
  const planApply = async (script: string) => {
    const plan = await exec({ script, mode: 'plan' });
    t.equal(plan.status, 200, `plan: ${plan.text.slice(0, 200)}`);
    return { plan, apply: await exec({ script, mode: 'apply', planToken: plan.body.planToken }) };
  };

  t.test('a write the plan never saw, started without await once the script knows it is applied: nothing is applied', async (t) => {
    for (let i = 0; i < 5; i++) {
      const target = await file(`target-${i}.txt`);
      const victim = await file(`victim-${i}.txt`);
      const script = `const r = await files_update({ fileId: ${JSON.stringify(target)}, name: "renamed-${i}.txt" });
if (!r.planned) files_trash({ fileId: ${JSON.stringify(victim)} });
return "done";`;
      const { plan, apply } = await planApply(script);
      t.equal(plan.body.operations.length, 1);
      t.equal(apply.status, 409, 'the unplanned write is refused when dispatched: a conflict');
      t.equal(apply.body.code, 'conflict');
      t.notOk(apply.body.applied, 'not applied');
      t.same(await state(victim), { name: `victim-${i}.txt`, state: 'active' }, 'the victim is untouched');
      t.same(await state(target), { name: `target-${i}.txt`, state: 'active' }, 'the planned write is rolled back too');
    }
  });

  t.test('every way of starting a write without awaiting it counts the same', async (t) => {
    const ways: Record<string, (call: string) => string> = {
      'promise then': (call) => `Promise.resolve().then(() => ${call});`,
      'inside an awaited thenable': (call) => `await { then(resolve) { ${call}; resolve(); } };`,
      'async IIFE': (call) => `(async () => { await null; ${call}; })();`,
      'Promise.all not awaited': (call) => `Promise.all([files_list({}), ${call}]);`,
      'awaited read, write left behind': (call) => `const p = ${call}; await files_list({});`,
    };
    for (const [label, start] of Object.entries(ways)) {
      const target = await file(`t-way-${label}.txt`);
      const victim = await file(`v-way-${label}.txt`);
      const { apply } = await planApply(`const r = await files_update({ fileId: ${JSON.stringify(target)}, name: "renamed-way.txt" });
if (!r.planned) { ${start(`files_trash({ fileId: ${JSON.stringify(victim)} })`)} }
return 1;`);
      t.not(apply.body.applied, true, `${label}: not applied (${apply.status} ${JSON.stringify(apply.body.error ?? apply.body.code)})`);
      t.same(await state(victim), { name: `v-way-${label}.txt`, state: 'active' }, `${label}: victim untouched`);
      t.same(await state(target), { name: `t-way-${label}.txt`, state: 'active' }, `${label}: nothing applied`);
    }
  });

  t.test('the same write awaited is a plan mismatch: 409, nothing applied', async (t) => {
    const target = await file('t-await.txt');
    const victim = await file('v-await.txt');
    const { apply } = await planApply(`const r = await files_update({ fileId: ${JSON.stringify(target)}, name: "r-await.txt" });
if (!r.planned) await files_trash({ fileId: ${JSON.stringify(victim)} });
return 1;`);
    t.equal(apply.status, 409);
    t.equal(apply.body.code, 'conflict');
    t.same(await state(victim), { name: 'v-await.txt', state: 'active' });
    t.same(await state(target), { name: 't-await.txt', state: 'active' });
  });

  t.test('an apply made to fail (max_in_flight) after starting an unplanned write leaves nothing behind', async (t) => {
    for (let i = 0; i < 4; i++) {
      const target = await file(`t-flood-${i}.txt`);
      const victim = await file(`v-flood-${i}.txt`);
      const { apply } = await planApply(`const r = await files_update({ fileId: ${JSON.stringify(target)}, name: "r-flood-${i}.txt" });
if (!r.planned) { files_trash({ fileId: ${JSON.stringify(victim)} }); for (let k = 0; k < 64; k++) files_list({}); }
return 1;`);
      t.equal(apply.status, 409, 'the unplanned write was refused before the flood: a conflict');
      t.equal(apply.body.code, 'conflict');
      t.same(await state(victim), { name: `v-flood-${i}.txt`, state: 'active' });
      t.same(await state(target), { name: `t-flood-${i}.txt`, state: 'active' });
    }
  });

  t.test('a planned write the script does not await fails the apply: the outcome must not depend on a race', async (t) => {
    const target = await file('t-unawaited.txt');
    const { plan, apply } = await planApply(`files_update({ fileId: ${JSON.stringify(target)}, name: "r-unawaited.txt" }); return 1;`);
    t.equal(plan.body.operations.length, 1);
    t.equal(apply.body.applied, false);
    t.equal(apply.body.error.code, 'write_in_flight');
    t.same(await state(target), { name: 't-unawaited.txt', state: 'active' });
  });

  t.test('an unplanned write is refused before it runs: nothing of it outlives the rollback (no mail, no blob)', async (t) => {
    const unplanned: Record<string, string> = {
      'an invitation (mail)': `await member_invite({ email: "victim@example.com", role: "member" })`,
      'a write caught by the script': `try { await member_invite({ email: "victim@example.com", role: "member" }); } catch (e) { if (e.code !== "conflict") throw e; }`,
      'a planned binding with other input': `await files_write_text({ name: "swapped.txt", text: "x" })`,
      'the same input, another binding': `await files_trash({ fileId: r.fileId })`,
    };
    for (const [label, write] of Object.entries(unplanned)) {
      const target = await file(`t-unplanned-${label}.txt`);
      const sent = mailer.sent.length;
      const blobs = await app.deps.sql`select count(*)::int as n from files`;
      const { plan, apply } = await planApply(`const r = await files_update({ fileId: ${JSON.stringify(target)}, name: "r-unplanned.txt" });
if (!r.planned) { ${write}; }
return 1;`);
      t.equal(plan.body.operations.length, 1, `${label}: one write planned`);
      t.equal(apply.status, 409, `${label}: 409 (${apply.text.slice(0, 200)})`);
      t.equal(apply.body.code, 'conflict', label);
      t.equal(mailer.sent.length, sent, `${label}: no mail went out`);
      t.same(await state(target), { name: `t-unplanned-${label}.txt`, state: 'active' }, `${label}: nothing applied`);
      t.same(await app.deps.sql`select count(*)::int as n from files`, blobs, `${label}: no file created`);
    }
  });

  t.test('mail of a planned invitation goes out only when the apply commits', async (t) => {
    const failing = `const r = await member_invite({ email: "held@example.com", role: "member" }); if (!r.planned) throw new Error("later failure"); return 1;`;
    const sent = mailer.sent.length;
    const failed = await planApply(failing);
    t.equal(failed.apply.body.applied, false);
    t.equal(mailer.sent.length, sent, 'a rolled-back apply sent no invitation');
    t.equal((await app.deps.sql`select count(*)::int as n from invitations where email = 'held@example.com'`)[0].n, 0);
    const ok = await planApply(`await member_invite({ email: "held2@example.com", role: "member" }); return 1;`);
    t.equal(ok.apply.body.applied, true);
    t.same(
      mailer.sent.slice(sent).map((m) => m.to),
      ['held2@example.com'],
      'a committed apply sends its invitation once',
    );
  });

  t.test('a write whose input differs from the plan only in key order is the planned write', async (t) => {
    const target = await file('t-order.txt');
    const { apply } = await planApply(`const r = await files_update({ fileId: ${JSON.stringify(target)}, name: "r-order.txt" });
if (r.planned) await files_update({ fileId: ${JSON.stringify(target)}, name: "r-order2.txt" });
else await files_update({ name: "r-order2.txt", fileId: ${JSON.stringify(target)} });
return 1;`);
    t.equal(apply.body.applied, true, apply.text.slice(0, 200));
    t.same(await state(target), { name: 'r-order2.txt', state: 'active' });
  });

  t.test('concurrent writes in one apply cannot undo each other: what reported success is committed', async (t) => {
    const ids: string[] = [];
    for (let i = 0; i < 6; i++) ids.push(await file(`t-conc-${i}.txt`));
    const script = `const ids = ${JSON.stringify(ids)};
const settled = await Promise.allSettled([
  ...ids.slice(0, 3).map((id, i) => files_update({ fileId: id, name: "conc-" + i + ".txt" })),
  files_trash({ fileId: "fil_aaaaaaaaaaaaaaaaaaaaaaaaaa" }),
  files_delete({ fileId: ids[5] }),
  ...ids.slice(3, 5).map((id, i) => files_update({ fileId: id, name: "conc-" + (i + 3) + ".txt" })),
]);
return settled.map((r) => r.status === "fulfilled" ? "ok" : r.reason.code);`;
    const { apply } = await planApply(script);
    t.same(apply.body.result, ['ok', 'ok', 'ok', 'not_found', 'conflict', 'ok', 'ok'], 'each write fails or succeeds on its own');
    t.equal(apply.body.applied, true);
    const names = await app.deps.sql`select name from files where id in ${app.deps.sql(ids)} order by name`;
    t.same(
      names.map((r) => r.name),
      ['conc-0.txt', 'conc-1.txt', 'conc-2.txt', 'conc-3.txt', 'conc-4.txt', 't-conc-5.txt'],
      'every write that succeeded is committed',
    );
  });

  t.test('an apply whose transaction a failed statement aborted never answers applied', async (t) => {
    const target = await file('t-aborted.txt');
    const { apply } = await planApply(`await files_update({ fileId: ${JSON.stringify(target)}, name: "r-aborted.txt" });
try { await files_list({ prefix: "\u0000" }); } catch (e) {}
return 1;`);
    t.not(apply.body.applied, true, `not applied (${apply.status} ${apply.text.slice(0, 160)})`);
    t.ok(apply.status >= 400, 'an error answer');
    t.same(await state(target), { name: 't-aborted.txt', state: 'active' });
  });

  t.test('a plan of many writes applies (its token carries each write)', async (t) => {
    const target = await file('t-bulk.txt');
    const { plan, apply } = await planApply(
      `for (let i = 0; i < 50; i++) await files_update({ fileId: ${JSON.stringify(target)}, name: "bulk-" + i + ".txt" }); return 1;`,
    );
    t.equal(plan.body.operations.length, 50);
    // At most ~20 characters a write: a plan of 1,000 writes (the call cap) fits the 64 KB planToken.
    t.ok(plan.body.planToken.length < 1000 + 20 * 50, `token of ${plan.body.planToken.length} characters`);
    t.equal(apply.status, 200, apply.text.slice(0, 200));
    t.equal(apply.body.applied, true, JSON.stringify(apply.body.error));
    t.same(await state(target), { name: 'bulk-49.txt', state: 'active' });
  });

  // User code that runs while the engine reads a failed or finished execution's outcome.
  const readers: [string, string][] = [
    ['name getter', `const e = new Error("x"); Object.defineProperty(e, "name", { get() { ${LEAK('leak-name.txt')}; return "E"; } }); throw e;`],
    ['message getter', `const e = new Error("x"); Object.defineProperty(e, "message", { get() { ${LEAK('leak-message.txt')}; return "m"; } }); throw e;`],
    ['stack getter', `const e = new Error("x"); Object.defineProperty(e, "stack", { get() { ${LEAK('leak-stack.txt')}; return "s"; } }); throw e;`],
    ['plain object getters', `throw { get name() { ${LEAK('leak-obj-name.txt')}; return "N"; }, get message() { ${LEAK('leak-obj-msg.txt')}; return "M"; } };`],
    ['proxy thrown', `throw new Proxy(new Error("p"), { get(o, k) { ${LEAK('leak-proxy.txt')}; return Reflect.get(o, k); } });`],
    ['rejected promise', `await Promise.reject({ get message() { ${LEAK('leak-reject.txt')}; return "r"; } });`],
    [
      'Symbol.toPrimitive',
      `throw { [Symbol.toPrimitive]() { ${LEAK('leak-prim.txt')}; return "p"; }, get name() { return { toString() { ${LEAK('leak-prim2.txt')}; return "x"; } }; } };`,
    ],
    ['result toJSON', `return { toJSON() { ${LEAK('leak-tojson.txt')}; return 1; } };`],
    ['nested toJSON', `return [1, { a: { toJSON() { ${LEAK('leak-nested.txt')}; return 2; } } }];`],
    ['result getter', `return { get x() { ${LEAK('leak-getter.txt')}; return 1; } };`],
    ['result proxy', `return new Proxy({}, { ownKeys() { ${LEAK('leak-ownkeys.txt')}; return []; } });`],
    ['then chain queued before the throw', `Promise.resolve().then(() => 0).then(() => 0).then(() => ${LEAK('leak-chain.txt')}); throw new Error("x");`],
    ['then chain queued before the return', `Promise.resolve().then(() => Promise.resolve()).then(() => ${LEAK('leak-then.txt')}); return 1;`],
    ['async generator finally', `async function* g() { try { yield 1; } finally { ${LEAK('leak-gen.txt')}; } } await g().next(); return 1;`],
    ['Promise.race loser answered after the return', `return await Promise.race([Promise.resolve(1), files_list({}).then(() => ${LEAK('leak-race.txt')})]);`],
    [
      'captureStackTrace object with a stack getter',
      `const e = {}; Error.captureStackTrace(e); Object.defineProperty(e, "stack", { get() { ${LEAK('leak-cst.txt')}; return "s"; } }); throw e;`,
    ],
    [
      'Error.prototype name getter',
      `Object.defineProperty(Error.prototype, "name", { get() { ${LEAK('leak-proto.txt')}; return "E"; } }); throw new Error("y");`,
    ],
    ['Error.prepareStackTrace', `Error.prepareStackTrace = () => { ${LEAK('leak-pst.txt')}; return "x"; }; throw new Error("y");`],
    [
      'toJSON that throws an error with a getter',
      `return { toJSON() { const e = new Error("j"); Object.defineProperty(e, "message", { get() { ${LEAK('leak-json-err.txt')}; return "j"; } }); throw e; } };`,
    ],
  ];

  t.test('no binding call is accepted once the outcome is being read: /app/v1 run, plan and apply, and MCP', async (t) => {
    for (const [label, script] of readers) {
      const run = await exec({ script });
      t.equal(run.status, 200, `${label}: /app/v1 answers`);
      const viaMcp = await mcp(script);
      t.equal(viaMcp.status, 200, `${label}: MCP answers`);
      const plan = await exec({ script, mode: 'plan' });
      t.same(plan.body.operations ?? [], [], `${label}: nothing planned`);
      t.equal(await leaked('leak-'), 0, `${label}: no write ran`);
    }
  });

  t.test('the same calls made while the script still runs do work (the refusal is about the end, not the getters)', async (t) => {
    const r = await exec({
      script: `const o = { get x() { return ${LEAK('live-getter.txt')}; } }; await o.x; return JSON.stringify({ toJSON() { return 1; } });`,
    });
    t.equal(r.body.ok, true);
    t.equal(await leaked('live-'), 1);
  });
});
