// One PostgreSQL per test run: started by the tap `before` script (global-setup.ts), shared by every test file,
// stopped by `after` (global-teardown.ts) once no other run still holds a lease on it. A migrated template is
// built once per set of migration files; each test file clones its own database from it.
import { createHash } from 'node:crypto';
import { readFile, readdir, writeFile, mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import postgres from 'postgres';
import { startEmbeddedPostgres, ensureDatabase, type EmbeddedPostgres } from '../../server/embedded-postgres.ts';
import { connect } from '../../runtime-api/store/sql.ts';
import { migrate } from '../../runtime-api/store/migrate.ts';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const TEST_PG_DIR = join(ROOT, '.data', 'test-postgres');
const INFO_FILE = join(TEST_PG_DIR, 'run.json');
const LEASES = join(TEST_PG_DIR, 'leases');

interface Info {
  adminUrl: string;
  pid: number;
  template: string;
}

async function templateName(): Promise<string> {
  const dir = join(ROOT, 'runtime-api', 'store', 'migrations');
  const hash = createHash('sha256');
  for (const f of (await readdir(dir)).sort()) hash.update(f).update(await readFile(join(dir, f)));
  return `tpl_${hash.digest('hex').slice(0, 12)}`;
}

export async function startTestCluster(): Promise<EmbeddedPostgres> {
  return startEmbeddedPostgres({ dir: join(TEST_PG_DIR, 'cluster'), detached: true });
}

/** Used by the `before` script: start (or adopt) the cluster, build the template, take a lease. */
export async function setupRun(leaseId: string): Promise<Info> {
  const pg = await startTestCluster();
  const template = await templateName();
  const admin = postgres(pg.adminUrl, { max: 1, onnotice: () => {} });
  try {
    const [exists] = await admin`select 1 from pg_database where datname = ${template}`;
    if (!exists) {
      const building = `${template}_build_${process.pid}`;
      await admin.unsafe(`drop database if exists ${building}`);
      await admin.unsafe(`create database ${building}`);
      const sql = connect(pg.urlFor(building), { max: 1 });
      try {
        await migrate(sql);
      } finally {
        await sql.end({ timeout: 2 });
      }
      try {
        await admin.unsafe(`alter database ${building} rename to ${template}`);
      } catch {
        await admin.unsafe(`drop database if exists ${building}`); // another run built it first
      }
    }
  } finally {
    await admin.end({ timeout: 2 });
  }
  const info = { adminUrl: pg.adminUrl, pid: pg.pid, template };
  await mkdir(LEASES, { recursive: true });
  await writeFile(join(LEASES, leaseId), String(process.pid));
  await writeFile(INFO_FILE, JSON.stringify(info));
  return info;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Used by the `after` script: drop the lease; stop the cluster when no live run holds one. */
export async function teardownRun(leaseId: string): Promise<void> {
  await rm(join(LEASES, leaseId), { force: true });
  let others: string[] = [];
  try {
    others = (await readdir(LEASES)).filter((l) => alive(Number(l)));
  } catch {
    /* none */
  }
  if (others.length) return;
  try {
    const info = JSON.parse(await readFile(INFO_FILE, 'utf8')) as Info;
    const admin = postgres(info.adminUrl, { max: 1, onnotice: () => {} });
    try {
      const dbs = await admin`select datname from pg_database where datname like 't\\_%'`;
      for (const { datname } of dbs) await admin.unsafe(`drop database if exists ${datname} with (force)`).catch(() => {});
    } finally {
      await admin.end({ timeout: 2 }).catch(() => {});
    }
    if (alive(info.pid)) {
      process.kill(info.pid, 'SIGINT');
      for (let i = 0; i < 200 && alive(info.pid); i++) await new Promise((r) => setTimeout(r, 50));
    }
  } catch {
    /* nothing running */
  }
}

let cached: Promise<Info> | null = null;

/** The run's cluster, whether or not a `before` script set it up (a test file run alone starts it too). */
export function runInfo(): Promise<Info> {
  cached ??= (async () => {
    try {
      const info = JSON.parse(await readFile(INFO_FILE, 'utf8')) as Info;
      if (alive(info.pid) && info.template === (await templateName())) {
        const probe = postgres(info.adminUrl, { max: 1, connect_timeout: 3, onnotice: () => {} });
        try {
          await probe`select 1`;
          const [tpl] = await probe`select 1 from pg_database where datname = ${info.template}`;
          if (tpl) return info;
        } finally {
          await probe.end({ timeout: 1 });
        }
      }
    } catch {
      /* fall through: set up our own */
    }
    return setupRun(String(process.pid));
  })();
  return cached;
}

/** A fresh database cloned from the migrated template; dropped by the returned function. */
export async function createTestDatabase(): Promise<{ url: string; drop: () => Promise<void> }> {
  const info = await runInfo();
  const name = `t_${process.pid}_${Math.random().toString(36).slice(2, 10)}`;
  await ensureDatabase(info.adminUrl, name, info.template);
  const url = info.adminUrl.replace(/\/postgres$/, `/${name}`);
  return {
    url,
    async drop() {
      const admin = postgres(info.adminUrl, { max: 1, onnotice: () => {} });
      try {
        await admin.unsafe(`drop database if exists ${name} with (force)`);
      } finally {
        await admin.end({ timeout: 2 });
      }
    },
  };
}
