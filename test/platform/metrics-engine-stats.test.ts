// The engine's stats become gauges generically: a field the exporter has never heard of appears under its own name,
// a record of numbers gets one label, and a record with many keys (e.g. keyed by organization) stays bounded.
import t from 'tap';
import { Metrics, MAX_RECORD_KEYS } from '../../server/ops/metrics.ts';
import { createTestDatabase } from '../helpers/test-postgres.ts';
import { connect } from '../../runtime-api/store/sql.ts';
import { createEngine, type Engine } from '../../engine/index.ts';
import { loadConfig } from '../../server/config.ts';

t.test('every numeric field of engine.stats(), new ones included, with bounded labels', async (t) => {
  const db = await createTestDatabase();
  const sql = connect(db.url, { max: 2 });
  const real = createEngine({ ...loadConfig({}, {}).engine, poolSize: 1, maxPoolSize: 1 });
  t.teardown(async () => {
    await real.close();
    await sql.end({ timeout: 2 });
    await db.drop();
  });
  await real.ready();
  // The real engine's stats plus fields a later engine may add (a gauge, a record by reason, one by tenant).
  const many = Object.fromEntries(Array.from({ length: MAX_RECORD_KEYS + 8 }, (_, i) => [`org_${String(i).padStart(3, '0')}`, 100 - i]));
  const engine: Engine = { ...real, stats: () => ({ ...real.stats(), hostsLive: 3, crashes: { oom: 2, signal: 1 }, quarantined: many }) };
  const metrics = new Metrics({ sql, poolMax: 7, orgLabels: 0 });
  const observed = metrics.observeEngine(engine);
  const result = await observed.execute({ source: 'return 1 + 1;', bindings: [], hostCall: async () => ({ ok: true, value: null }), tenant: 'org_x' } as never);
  t.equal(result.ok, true);
  const text = await metrics.text();
  t.match(text, /^# TYPE siglata_engine_hosts_live gauge$/m);
  t.match(text, /^siglata_engine_hosts_live 3$/m);
  t.match(text, /^siglata_engine_crashes\{reason="oom"\} 2$/m);
  t.match(text, /^siglata_engine_slots\{state="ready"\} \d+$/m, 'the real fields too');
  t.match(text, /^siglata_engine_executions 1$/m);
  const quarantined = text.split('\n').filter((l) => l.startsWith('siglata_engine_quarantined{'));
  t.equal(quarantined.length, MAX_RECORD_KEYS + 1, 'at most MAX_RECORD_KEYS labels plus other');
  const otherSum = Object.values(many)
    .slice(MAX_RECORD_KEYS)
    .reduce((a, b) => a + b, 0);
  t.ok(quarantined.includes(`siglata_engine_quarantined{key="other"} ${otherSum}`), 'the smallest summed as other');
  t.match(text, /^siglata_db_pool_max 7$/m);
  t.match(text, /^siglata_executions_total\{outcome="ok",error_type=""\} 1$/m);
});
