// The PostgreSQL pool gauges with real work on a real pool of 3: transactions, plain queries and reservations beyond
// the pool size show as in_use == max and waiting == the rest, the scrape itself never stalls on the full pool, and
// both return to 0 once the work ends. PostgreSQL's own pg_stat_activity, read through a separate connection,
// confirms the connections really are held.
import t from 'tap';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { sample, scrape, typeOf } from '../helpers/metrics.ts';
import { connect } from '../../runtime-api/store/sql.ts';

const MAX = 3;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function gate() {
  let open!: () => void;
  const promise = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { promise, open };
}

async function until(what: string, check: () => boolean | Promise<boolean>, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(20);
  }
}

t.test('pool in use / waiting follow real work', async (t) => {
  const app: TestApp = await startTestApp(t, { env: { METRICS_TOKEN: 'pool-metrics-token-0123', DATABASE_POOL_MAX: String(MAX) } });
  const sql = app.deps.sql;
  const probe = connect(app.databaseUrl, { max: 1, applicationName: 'pool-probe' });
  t.teardown(() => probe.end({ timeout: 1 }));
  /** Connections of the app's pool, by state, as PostgreSQL sees them. */
  const held = async (state: string) =>
    (
      await probe<{ n: number }[]>`select count(*)::int as n from pg_stat_activity
    where datname = current_database() and application_name = 'siglata' and state = ${state}`
    )[0].n;
  const pool = (text: string) => ({ inUse: sample(text, 'siglata_db_pool_in_use'), waiting: sample(text, 'siglata_db_pool_waiting') });
  // Let the app's start-up work settle (signing keys, first queries) before measuring from zero.
  await until('an idle pool', async () => {
    const p = pool(await scrape(app));
    return p.inUse === 0 && p.waiting === 0;
  });

  t.test('five transactions held open on a pool of three', async (t) => {
    const release = gate();
    let started = 0;
    const txs = Array.from({ length: 5 }, (_, i) =>
      sql.begin(async (tx) => {
        started++;
        await tx`select ${i}::int`;
        await release.promise;
        return i;
      }),
    );
    await until('three transactions running', () => started === MAX);
    await sleep(200); // the other two had every chance to start, and must not have
    t.equal(started, MAX, 'two transactions wait for a connection');
    t.equal(await held('idle in transaction'), MAX, 'PostgreSQL sees three connections held in transactions');

    const full = await scrape(app);
    t.equal(typeOf(full, 'siglata_db_pool_in_use'), 'gauge');
    t.equal(typeOf(full, 'siglata_db_pool_waiting'), 'gauge');
    t.same(pool(full), { inUse: MAX, waiting: 2 });
    t.match(full, /# HELP siglata_db_pool_in_use .*pipelined/, 'HELP states the approximation for plain queries');
    t.notMatch(full, /^siglata_db_connections\{/m, 'no pg_stat_activity query queued behind the full pool');

    release.open();
    t.same(await Promise.all(txs), [0, 1, 2, 3, 4], 'every transaction ran');
    t.same(pool(await scrape(app)), { inUse: 0, waiting: 0 });
  });

  t.test('plain queries beyond the pool size wait (queued or pipelined)', async (t) => {
    const queries = Array.from({ length: 5 }, () => sql`select pg_sleep(1.5)`);
    const all = Promise.all(queries);
    await until(
      'three sleeping queries',
      async () =>
        (
          await probe<{ n: number }[]>`select count(*)::int as n from pg_stat_activity
      where application_name = 'siglata' and state = 'active' and query like '%pg_sleep%'`
        )[0].n === MAX,
    );
    t.same(pool(await scrape(app)), { inUse: MAX, waiting: 2 });
    await all;
    t.same(pool(await scrape(app)), { inUse: 0, waiting: 0 });
  });

  t.test('reservations, then a transaction and a query waiting behind them', async (t) => {
    const reserved = await Promise.all(Array.from({ length: MAX }, () => sql.reserve()));
    for (const r of reserved) await r`select 1`;
    t.same(pool(await scrape(app)), { inUse: MAX, waiting: 0 }, 'all held, none waiting');
    let ran = false;
    const tx = sql.begin(async (q) => {
      ran = true;
      return (await q`select 2 as n`)[0].n;
    });
    const query = sql`select 3 as n`;
    const plain = query.then((rows) => rows[0].n);
    await sleep(200);
    t.equal(ran, false, 'the transaction has no connection yet');
    t.same(pool(await scrape(app)), { inUse: MAX, waiting: 2 });
    for (const r of reserved) r.release();
    t.same(await Promise.all([tx, plain]), [2, 3]);
    t.same(pool(await scrape(app)), { inUse: 0, waiting: 0 });
  });

  t.test('a fragment embedded in a query is not counted; a failed query ends its count', async (t) => {
    const where = sql`where n > ${1}`;
    t.same(pool(await scrape(app)), { inUse: 0, waiting: 0 }, 'a fragment alone sends nothing');
    t.same(await sql`select n from (values (1), (2)) as v(n) ${where}`, [{ n: 2 }]);
    await t.rejects(sql`select * from no_such_table`);
    await t.rejects(
      sql.begin(async (q) => {
        await q`select 1`;
        throw new Error('rolled back');
      }),
      /rolled back/,
    );
    t.same(pool(await scrape(app)), { inUse: 0, waiting: 0 });
  });

  t.test('sql.unsafe counts as a plain query while it runs', async (t) => {
    const running = sql.unsafe('select pg_sleep(0.6)');
    const done = running.then(() => true);
    await until(
      'the query running',
      async () =>
        (
          await probe<{ n: number }[]>`select count(*)::int as n from pg_stat_activity
      where application_name = 'siglata' and state = 'active' and query like '%pg_sleep(0.6)%'`
        )[0].n === 1,
    );
    t.same(pool(await scrape(app)), { inUse: 1, waiting: 0 });
    t.equal(await done, true);
    t.same(pool(await scrape(app)), { inUse: 0, waiting: 0 });
  });
});
