// Migration 0013 on a database seeded at 0012 the way the old catalogue allowed: active files sharing a name, a file
// that is also a folder of others, trashed copies of taken names. Afterwards every file is still there with its
// bytes (same blob, size and checksum), the newest of each name keeps it, the others sit beside it under derived
// names, each rename is in the migration's log, and the database refuses a second active file at one path.
import t from 'tap';
import { createTestDatabase } from '../helpers/test-postgres.ts';
import { connect } from '../../runtime-api/store/sql.ts';
import { migrate, type MigrationLogEntry } from '../../runtime-api/store/migrate.ts';

const LONG_DIR = `${'d'.repeat(200)}/`;
const LONG_NAME = `${LONG_DIR}${'n'.repeat(50)}.txt`; // 254 characters: ` (2)` does not fit without shortening

t.test('0013 renames duplicates and file/folder clashes without losing a byte', async (t) => {
  const db = await createTestDatabase();
  t.teardown(db.drop);
  const sql = connect(db.url);
  t.teardown(() => sql.end());
  await sql`drop schema public cascade`;
  await sql`create schema public`;
  await migrate(sql, { upTo: 12 });
  t.same((await sql`select max(version) as v from schema_migrations`)[0].v, 12);

  await sql`insert into organizations (id, name, slug) values ('org_a', 'A', 'a'), ('org_b', 'B', 'b')`;
  let n = 0;
  const seed = async (org: string, name: string, day: number, state: 'active' | 'trashed' = 'active') => {
    const id = `fil_${String(++n).padStart(26, 'a')}`;
    const at = new Date(Date.UTC(2026, 0, day));
    await sql`insert into files (id, org_id, name, media_type, byte_length, sha256, crc32, blob_key, state, created_at, updated_at, trashed_at)
      values (${id}, ${org}, ${name}, 'text/plain', ${n * 10}, ${`sha${n}`}, ${`crc${n}`}, ${`${org}/blb_${n}`}, ${state}, ${at}, ${at},
        ${state === 'trashed' ? at : null})`;
    return id;
  };
  const r1 = await seed('org_a', 'reports/report.txt', 1);
  const r3 = await seed('org_a', 'reports/report.txt', 3); // newest: keeps the name
  const r2 = await seed('org_a', 'reports/report.txt', 2);
  const taken = await seed('org_a', 'reports/report (2).txt', 4); // a derived name already in use
  const trashedCopy = await seed('org_a', 'reports/report.txt', 5, 'trashed');
  const dotA = await seed('org_a', '.env', 1);
  const dotB = await seed('org_a', '.env', 2);
  const otherOrg = await seed('org_b', 'reports/report.txt', 1); // another organization's name is its own
  const folderFile = await seed('org_a', 'x', 1);
  const underX = await seed('org_a', 'x/y', 1);
  const underXY = await seed('org_a', 'x/y/z.csv', 1);
  const longA = await seed('org_a', LONG_NAME, 1);
  const longB = await seed('org_a', LONG_NAME, 2);
  const before = await sql`select id, org_id, media_type, byte_length, sha256, crc32, blob_key, state, created_at from files order by id`;

  const log: MigrationLogEntry[] = [];
  const applied = await migrate(sql, { log: (e) => log.push(e) });
  t.ok(applied.includes(13));

  const after = await sql`select id, org_id, media_type, byte_length, sha256, crc32, blob_key, state, created_at from files order by id`;
  t.same(after, before, 'every file keeps its bytes, size, checksums, state and creation time');
  const names = Object.fromEntries((await sql`select id, name from files`).map((r) => [r.id, r.name]));
  t.equal(names[r3], 'reports/report.txt', 'the newest keeps the name');
  t.equal(names[r2], 'reports/report (3).txt', 'the next newest: (2) is taken, so (3)');
  t.equal(names[r1], 'reports/report (4).txt');
  t.equal(names[taken], 'reports/report (2).txt', 'a file already named so is untouched');
  t.equal(names[trashedCopy], 'reports/report.txt', 'a trashed copy keeps its name');
  t.equal(names[dotB], '.env');
  t.equal(names[dotA], '.env (2)', 'a leading dot is not an extension');
  t.equal(names[otherOrg], 'reports/report.txt');
  t.equal(names[folderFile], 'x (2)', 'a file that is also a folder moves beside it');
  t.equal(names[underX], 'x/y (2)');
  t.equal(names[underXY], 'x/y/z.csv', 'what is inside the folder stays');
  t.equal(names[longB], LONG_NAME);
  t.equal([...names[longA]].length, 255, 'a derived name is shortened to fit');
  t.ok(names[longA].startsWith(LONG_DIR) && names[longA].endsWith(' (2).txt'), names[longA]);

  t.same(
    log.map((e) => [e.version, e.details.fileId, e.details.from, e.details.to, e.details.reason]),
    [
      [13, dotA, '.env', '.env (2)', 'duplicate_name'],
      [13, longA, LONG_NAME, names[longA], 'duplicate_name'],
      [13, r2, 'reports/report.txt', 'reports/report (3).txt', 'duplicate_name'],
      [13, r1, 'reports/report.txt', 'reports/report (4).txt', 'duplicate_name'],
      [13, folderFile, 'x', 'x (2)', 'file_is_folder'],
      [13, underX, 'x/y', 'x/y (2)', 'file_is_folder'],
    ],
    'each rename is logged, in a deterministic order',
  );
  t.match(log[2].message, /renamed from reports\/report\.txt to reports\/report \(3\)\.txt/);
  t.equal((await sql`select count(*)::int as n from migration_log where version = 13`)[0].n, 6, 'and kept in migration_log');

  const dup = await sql`insert into files (id, org_id, name, media_type, byte_length, blob_key, created_at, updated_at, modified_at)
    values ('fil_dup', 'org_a', 'reports/report.txt', 'text/plain', 1, 'org_a/blb_dup', now(), now(), now())`.catch((e) => e);
  t.equal(dup.code, '23505', 'the database refuses a second active file at one path');
  await sql`insert into files (id, org_id, name, media_type, byte_length, blob_key, state, created_at, updated_at, modified_at, trashed_at)
    values ('fil_tr', 'org_a', 'reports/report.txt', 'text/plain', 1, 'org_a/blb_tr', 'trashed', now(), now(), now(), now())`;
  t.pass('trashed files may share a path with the active one');
  const [mt] = await sql`select modified_at, updated_at, executable from files where id = ${r3}`;
  t.same([mt.modified_at, mt.executable], [mt.updated_at, false], 'existing files: modifiedAt is their last change, not executable');
});
