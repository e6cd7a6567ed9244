// Numbered SQL migrations (migrations/NNNN_name.sql), applied in order at start, each in its own transaction,
// recorded in schema_migrations, under an advisory lock so that two instances starting together apply each once.
// A migration that changes people's data (renaming files, say) writes what it did to migration_log; each applied
// migration's entries are handed to `log` so that the process starting it prints them.
import { readdir, readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { Sql } from 'postgres';

const MIGRATIONS_DIR = fileURLToPath(new URL('./migrations/', import.meta.url));
const LOCK_KEY = 7301_0001;

export interface MigrationLogEntry {
  version: number;
  message: string;
  details: Record<string, unknown>;
}

export interface MigrateOptions {
  /** Apply migrations up to this version only (tests seed data between versions). */
  upTo?: number;
  /** Each entry an applied migration wrote to migration_log, in order. */
  log?: (entry: MigrationLogEntry) => void;
}

export async function listMigrations(): Promise<{ version: number; name: string; file: string }[]> {
  const files = (await readdir(MIGRATIONS_DIR)).filter((f) => /^\d{4}_[a-z0-9_]+\.sql$/.test(f)).sort();
  return files.map((file) => ({ version: Number(file.slice(0, 4)), name: file.slice(5, -4), file }));
}

/** Returns the versions applied by this call. */
export async function migrate(sql: Sql, options: MigrateOptions = {}): Promise<number[]> {
  const applied: number[] = [];
  await sql.reserve().then(async (conn) => {
    try {
      await conn`select pg_advisory_lock(${LOCK_KEY})`;
      await conn`create table if not exists schema_migrations (
        version integer primary key, name text not null, applied_at timestamptz not null default now())`;
      const done = new Set((await conn`select version from schema_migrations`).map((r) => r.version as number));
      for (const m of await listMigrations()) {
        if (done.has(m.version)) continue;
        if (options.upTo !== undefined && m.version > options.upTo) break;
        const text = await readFile(MIGRATIONS_DIR + m.file, 'utf8');
        await conn`begin`;
        try {
          await conn.unsafe(text);
          await conn`insert into schema_migrations (version, name) values (${m.version}, ${m.name})`;
          await conn`commit`;
        } catch (err) {
          await conn`rollback`;
          throw new Error(`migration ${m.file} failed: ${(err as Error).message}`, { cause: err });
        }
        applied.push(m.version);
        if (options.log) {
          const [table] = await conn`select to_regclass('migration_log') as t`;
          if (table.t) {
            const rows = await conn<MigrationLogEntry[]>`select version, message, details from migration_log where version = ${m.version} order by id`;
            for (const row of rows) options.log(row);
          }
        }
      }
    } finally {
      await conn`select pg_advisory_unlock(${LOCK_KEY})`.catch(() => {});
      conn.release();
    }
  });
  return applied;
}
