// `npm start` as an operator runs it: a real server process with embedded PostgreSQL and sandbox host processes.
// SIGTERM ends it (exit 0) and stops PostgreSQL and every host, both once it listens and while it is still starting.
import t from 'tap';
import { spawn } from 'node:child_process';
import { chmod, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT } from './helpers/engine.ts';

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

async function until<T>(what: string, ms: number, check: () => Promise<T | undefined> | T | undefined): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Host processes of the server: children of `pid` whose command line runs engine/sandbox-process/child/main.ts. */
async function hostPids(pid: number): Promise<number[]> {
  const children = (await readFile(`/proc/${pid}/task/${pid}/children`, 'utf8').catch(() => '')).split(' ').filter(Boolean).map(Number);
  const hosts: number[] = [];
  for (const child of children) {
    const cmd = await readFile(`/proc/${child}/cmdline`, 'utf8').catch(() => '');
    if (cmd.includes('engine/sandbox-process/child/main.ts')) hosts.push(child);
  }
  return hosts;
}

async function startServer(dataDir: string) {
  const child = spawn(process.execPath, ['--no-node-snapshot', '--import', './scripts/node-check.mjs', 'server/main.ts'], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { PATH: process.env.PATH, DATA_DIR: dataDir, PORT: '0', LOG_LEVEL: 'info', ENGINE_HOSTS: '2', ENGINE_POOL_SIZE: '2' },
  });
  let out = '';
  child.stdout.on('data', (d) => {
    out += d;
  });
  child.stderr.on('data', (d) => {
    out += d;
  });
  const exited = new Promise<{ code: number | null; signal: string | null }>((resolve) => child.on('exit', (code, signal) => resolve({ code, signal })));
  return { child, exited, output: () => out };
}

const hung = (ms: number) => new Promise((r) => setTimeout(r, ms, 'hung').unref());

const postgresPid = async (dataDir: string) => {
  const pidFile = await readFile(join(dataDir, 'postgres', 'postmaster.pid'), 'utf8').catch(() => '');
  const pid = Number(pidFile.split('\n')[0]);
  return pid > 0 && alive(pid) ? pid : undefined;
};

t.test('SIGTERM of a running server: it exits 0, PostgreSQL and the sandbox hosts stop', async (t) => {
  const dataDir = await mkdtemp(join(tmpdir(), 'siglata-sigterm-'));
  await chmod(dataDir, 0o755); // the postgres user must traverse it when we run as root
  t.teardown(() => rm(dataDir, { recursive: true, force: true }));
  const server = await startServer(dataDir);
  t.teardown(() => {
    if (server.child.exitCode === null) server.child.kill('SIGKILL');
  });
  const url = await until('listening', 60_000, () => /"url":"(http:[^"]+)"/.exec(server.output())?.[1]);
  const health = await fetch(`${url}/.well-known/oauth-protected-resource/v1/mcp`);
  t.equal(health.status, 200, 'it answers HTTP');
  const pg = await until('PostgreSQL', 5000, () => postgresPid(dataDir));
  // Two hosts and the warm spare.
  const hosts = await until('the hosts', 5000, async () => {
    const p = await hostPids(server.child.pid!);
    return p.length >= 3 ? p : undefined;
  });
  server.child.kill('SIGTERM');
  const exit = await Promise.race([server.exited, hung(25_000)]);
  t.same(exit, { code: 0, signal: null }, `exited cleanly: ${server.output().slice(-300)}`);
  await until('PostgreSQL to stop', 10_000, () => (alive(pg) ? undefined : true));
  t.notOk(alive(pg), 'embedded PostgreSQL stopped');
  t.notOk(hosts.some(alive), 'no sandbox host left behind');

  // Again, SIGTERM while it is still starting (the database is up, the server not yet listening).
  const early = await startServer(dataDir);
  t.teardown(() => {
    if (early.child.exitCode === null) early.child.kill('SIGKILL');
  });
  const pg2 = await until('PostgreSQL', 60_000, () => postgresPid(dataDir));
  early.child.kill('SIGTERM');
  const exit2 = await Promise.race([early.exited, hung(25_000)]);
  t.same(exit2, { code: 0, signal: null }, 'a SIGTERM during start-up also ends it cleanly');
  await until('PostgreSQL to stop', 10_000, () => (alive(pg2) ? undefined : true));
  t.notOk(alive(pg2), 'embedded PostgreSQL stopped');
});
