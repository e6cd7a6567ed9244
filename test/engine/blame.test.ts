// Whom a sandbox host's death counts against, as the organizations sharing it see it: heap growers whose isolates
// are still growing or being torn down after their executions were reported ended (timeout, memory limit), and
// collections grown until V8 itself gives up, run beside other organizations that only read or that write. The death
// is the grower's alone (its outcome says memory_limit or timeout, never crashed), the others' executions all
// succeed, and none of them is blamed or quarantined, over many rounds.
import t, { type Test } from 'tap';
import { checkOutcome, loadFixtures, startEngine } from './helpers/engine.ts';
import type { Engine, ExecutionResult, HostCall } from '../../engine/index.ts';
import type { HostDeath } from '../../engine/sandbox-process/host-process.ts';

const GROWERS = {
  arrays: 'const a = []; for (;;) a.push(new Array(100))',
  map: 'const m = new Map(); for (let i = 0; ; i++) m.set(i, i)',
  set: 'const s = new Set(); for (;;) s.add(Math.random())',
  keys: 'const o = {}; for (let i = 0; ; i++) o["k" + i] = i',
  sparse: 'const a = []; a[2 ** 31] = 1; for (let i = 0; i < 2e6; i++) a[i] = 2e6 - i; a.sort(); return a.length',
};
const answer: HostCall = async () => ({ ok: true, json: '"x"' });
/** Splitting a 64 M-character rope: one builtin call that takes its host far past a 300 MB memory cap. */
const OVER_CAP = "let s = 'xy'; for (let i = 0; i < 25; i++) s += s; return s.split('').length";
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const INNOCENTS = ['org_reader', 'org_writer', 'org_plain'];

/** Another organization's scripts back to back until `stop()`: one reads, one writes, one calls nothing. */
function bystanders(engine: Engine): { stop: () => Promise<Map<string, ExecutionResult[]>> } {
  let stopped = false;
  const results = new Map<string, ExecutionResult[]>(INNOCENTS.map((o) => [o, []]));
  const loop = async (tenant: string, call: string) => {
    while (!stopped) {
      const source = `${call} let s = 0; for (let i = 0; i < 1e5; i++) s += i; return s`;
      results.get(tenant)!.push(await engine.execute({ source, bindings: ['read_it', 'write_it'], hostCall: answer, tenant, repeatable: ['read_it'] }));
    }
  };
  const loops = [loop('org_reader', 'await read_it();'), loop('org_writer', 'await write_it();'), loop('org_plain', '')];
  return {
    stop: async () => {
      stopped = true;
      await Promise.all(loops);
      return results;
    },
  };
}

function checkInnocents(t: Test, results: Map<string, ExecutionResult[]>, deaths: HostDeath[], label: string): void {
  for (const [tenant, runs] of results) {
    const failed = runs.filter((r) => !r.ok).map((r) => `${r.error!.type}: ${r.error!.message}`);
    t.same(failed, [], `${label}: ${tenant}'s ${runs.length} executions all succeeded`);
    t.ok(runs.length > 0, `${label}: ${tenant} ran`);
  }
  const blamed = deaths.flatMap((d) => d.tenants);
  t.same(
    blamed.filter((o) => o !== 'org_bad'),
    [],
    `${label}: host deaths blamed on ${JSON.stringify(deaths.map((d) => [d.reason, d.tenants]))}`,
  );
}

/**
 * One host of three slots with a 300 MB cap (OVER_CAP takes it past), quarantine at the first strike, and a host call
 * whose first call of each binding answers after 4 s (the host is dead by then) and any later one at once.
 */
async function oneCappedHost(t: Test) {
  const deaths: HostDeath[] = [];
  const engine = await startEngine({
    poolSize: 3,
    maxPoolSize: 3,
    hosts: 1,
    hostMemoryMb: 300,
    quarantineAfter: 1,
    quarantineMs: 60_000,
    wallMs: 20_000,
    cpuMs: 20_000,
    onHostCrash: (d) => deaths.push(d),
  });
  t.teardown(() => engine.close());
  const calls: string[] = [];
  const slow: HostCall = (name) => {
    calls.push(name);
    const first = calls.filter((c) => c === name).length === 1;
    return new Promise((resolve) => setTimeout(() => resolve({ ok: true, json: `"${name}"` }), first ? 4000 : 0));
  };
  return { engine, deaths, calls, slow };
}

async function quarantined(engine: Engine, tenant: string): Promise<boolean> {
  return (await engine.execute({ source: 'return 1', bindings: [], hostCall: answer, tenant })).error?.type === 'quarantined';
}

t.test('heap growers that end as timeout and kill their host afterwards: only their organization is blamed, bystanders all succeed', async (t) => {
  const deaths: HostDeath[] = [];
  // Two hosts, four slots: the growers share hosts with the bystanders, and are reported ended (their deadline)
  // while their isolates are still growing or thrashing in garbage collection.
  const engine = await startEngine({
    poolSize: 4,
    maxPoolSize: 6,
    hosts: 2,
    queueMax: 50,
    queueWaitMs: 20_000,
    quarantineAfter: 1000,
    wallMs: 1500,
    cpuMs: 1500,
    onHostCrash: (d) => deaths.push(d),
  });
  t.teardown(() => engine.close());
  const load = bystanders(engine);
  const outcomes: string[] = [];
  for (let round = 0; round < 4; round++) {
    const runs = await Promise.all([0, 1, 2].map(() => engine.execute({ source: GROWERS.arrays, bindings: [], hostCall: answer, tenant: 'org_bad' })));
    outcomes.push(...runs.map((r) => r.error?.type ?? 'ok'));
  }
  // A death after the last round ended comes within a few seconds (its isolate stops, or is given up on).
  await new Promise((r) => setTimeout(r, 3000));
  const results = await load.stop();
  t.same(
    outcomes.filter((o) => !['timeout', 'memory_limit'].includes(o)),
    [],
    `the growers ended at their limits: ${outcomes.join(', ')}`,
  );
  checkInnocents(t, results, deaths, 'arrays');
  t.comment(`deaths: ${JSON.stringify(deaths.map((d) => [d.reason, d.tenants, d.detail]))}`);
});

t.test("collections grown until V8 gives up end as the script's memory_limit; bystanders on its host all succeed, none blamed or quarantined", async (t) => {
  const deaths: HostDeath[] = [];
  const engine = await startEngine({
    poolSize: 4,
    maxPoolSize: 6,
    hosts: 2,
    queueMax: 50,
    queueWaitMs: 30_000,
    quarantineAfter: 2,
    quarantineMs: 60_000,
    wallMs: 20_000,
    cpuMs: 20_000,
    onHostCrash: (d) => deaths.push(d),
  });
  t.teardown(() => engine.close());
  const load = bystanders(engine);
  const outcomes: Record<string, string> = {};
  for (const [name, source] of Object.entries(GROWERS)) {
    if (name === 'arrays') continue;
    const r = await engine.execute({ source, bindings: [], hostCall: answer, tenant: `org_bad` });
    outcomes[name] = r.error?.type ?? 'ok';
    if (r.error?.type === 'quarantined') break;
  }
  await new Promise((r) => setTimeout(r, 1000));
  const results = await load.stop();
  // Once its host deaths reach quarantineAfter the organization is refused: the later growers are. On a loaded
  // machine a grower may reach its deadline first (its own limit too); never `crashed`.
  t.same(
    Object.entries(outcomes).filter(([, o]) => !['memory_limit', 'timeout', 'quarantined'].includes(o)),
    [],
    `each ended at its own limit: ${JSON.stringify(outcomes)}`,
  );
  t.ok(Object.values(outcomes).includes('memory_limit'), 'memory_limit at least once');
  checkInnocents(t, results, deaths, 'collections');
  for (const tenant of INNOCENTS) t.notOk(await quarantined(engine, tenant), `${tenant} is not quarantined`);
  t.comment(`deaths: ${JSON.stringify(deaths.map((d) => [d.reason, d.tenants, d.detail]))}`);
});

t.test(
  'a host killed for its memory cap: scripts idle under their limit there (awaiting a binding) are not blamed; the grower is, and ends at its memory limit',
  async (t) => {
    const { engine, deaths, calls, slow } = await oneCappedHost(t);
    const good = (binding: string, tenant: string) =>
      engine.execute({ source: `return await ${binding}()`, bindings: ['read_it', 'write_it'], hostCall: slow, tenant, repeatable: ['read_it'] });
    const reading = good('read_it', 'org_reader');
    const writing = good('write_it', 'org_writer');
    while (calls.length < 2) await sleep(5);
    // Long enough for the host to have said, in a heartbeat, that both isolates sit idle under their limit.
    await sleep(1000);
    const bomb = await engine.execute({ source: OVER_CAP, bindings: [], hostCall: answer, tenant: 'org_bomb' });
    t.equal(bomb.error?.type, 'memory_limit', 'the grower ends at its memory limit');
    t.same(
      deaths.map((d) => [d.reason, d.tenants]),
      [['memory', ['org_bomb']]],
      "the death is the grower's alone, at once",
    );
    const read = await reading;
    t.equal(read.result, 'read_it', `the reader ran again and succeeded (${JSON.stringify(read.error)})`);
    const wrote = await writing;
    t.equal(wrote.error?.type, 'crashed', 'the writer cannot run again');
    t.match(wrote.error?.message, /Another tenant's script took down/, 'and is told why');
    t.equal(calls.filter((c) => c === 'write_it').length, 1, 'its write was not repeated');
    for (const tenant of ['org_reader', 'org_writer']) t.notOk(await quarantined(engine, tenant), `${tenant} is not quarantined`);
    t.ok(await quarantined(engine, 'org_bomb'), "the grower's organization is");
  },
);

t.test(
  'each script of the growth family (fixtures/scripts/hostile/fatal) ends at its own limit, never crashed, beside bystanders that all succeed',
  async (t) => {
    const deaths: HostDeath[] = [];
    const engine = await startEngine({
      poolSize: 4,
      maxPoolSize: 6,
      hosts: 2,
      queueMax: 50,
      queueWaitMs: 30_000,
      quarantineAfter: 1000,
      wallMs: 20_000,
      cpuMs: 20_000,
      onHostCrash: (d) => deaths.push(d),
    });
    t.teardown(() => engine.close());
    const load = bystanders(engine);
    for (const fx of loadFixtures('hostile/fatal')) {
      const r = await engine.execute({ source: fx.source, bindings: [], hostCall: answer, tenant: 'org_bad' });
      t.same(checkOutcome(fx, r), [], `${fx.file}: ${r.ok ? 'ok' : `${r.error!.type} (${r.error!.message})`}`);
    }
    await sleep(1000);
    checkInnocents(t, await load.stop(), deaths, 'growth family');
    t.comment(`deaths: ${JSON.stringify(deaths.map((d) => [d.reason, d.tenants, d.detail, d.reason === 'heartbeat' ? d.stderr : '']))}`);
  },
);

t.test(
  "a host killed for its memory cap while another organization's script spins there: the idle reader is a bystander and runs again, the spinner runs again on probation and succeeds, the grower alone is blamed",
  async (t) => {
    const { engine, deaths, calls, slow } = await oneCappedHost(t);
    // The spinner starts first, so its slot is ended before the reader's is looked at (the order the host ran them in).
    const spinning = engine.execute({
      source: 'const end = Date.now() + 2500; let n = 0; while (Date.now() < end) n++; return "spun"',
      bindings: [],
      hostCall: answer,
      tenant: 'org_spinner',
    });
    await sleep(200);
    const reading = engine.execute({ source: 'return await read_it()', bindings: ['read_it'], hostCall: slow, tenant: 'org_reader', repeatable: ['read_it'] });
    while (calls.length < 1) await sleep(5);
    await sleep(1000);
    const bomb = await engine.execute({ source: OVER_CAP, bindings: [], hostCall: answer, tenant: 'org_bomb' });
    t.not(bomb.ok, true, 'the grower does not succeed');
    t.equal((await reading).result, 'read_it', 'the reader ran again and succeeded');
    t.equal((await spinning).result, 'spun', 'the spinner ran again and succeeded');
    t.same(
      deaths.flatMap((d) => d.tenants).filter((o) => o !== 'org_bomb'),
      [],
      `only the grower is blamed: ${JSON.stringify(deaths.map((d) => [d.reason, d.tenants]))}`,
    );
    for (const tenant of ['org_reader', 'org_spinner']) t.notOk(await quarantined(engine, tenant), `${tenant} is not quarantined`);
  },
);
