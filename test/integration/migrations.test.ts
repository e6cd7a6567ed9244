import t from 'tap';
import { createTestDatabase } from '../helpers/test-postgres.ts';
import { connect } from '../../runtime-api/store/sql.ts';
import { migrate, listMigrations } from '../../runtime-api/store/migrate.ts';

t.test('migrations apply once, in order, and are idempotent', async (t) => {
  const db = await createTestDatabase();
  t.teardown(db.drop);
  const sql = connect(db.url);
  t.teardown(() => sql.end());
  // The template is already migrated: nothing to do.
  t.same(await migrate(sql), []);
  const all = await listMigrations();
  t.ok(all.length >= 1);
  t.same(
    all.map((m) => m.version),
    [...all.map((m) => m.version)].sort((a, b) => a - b),
  );
  const rows = await sql`select version from schema_migrations order by version`;
  t.same(
    rows.map((r) => r.version),
    all.map((m) => m.version),
  );
  // Two concurrent runs on an empty schema (two instances starting together) apply each migration once.
  await sql`drop schema public cascade`;
  await sql`create schema public`;
  const [a, b] = await Promise.all([migrate(sql), migrate(sql)]);
  t.same(
    [...a, ...b].sort((x, y) => x - y),
    all.map((m) => m.version),
  );
});
