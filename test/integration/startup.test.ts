// `npm start` as a user runs it: a real process on embedded PostgreSQL. Data survives restarts and kill -9;
// two instances with different PORT and DATA_DIR run side by side.
import t from 'tap';
import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm, access } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import { http } from '../helpers/http.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const ENTRY = ['--no-node-snapshot', '--import', './scripts/node-check.mjs'];

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

function start(dataDir: string, port: number): ChildProcess & { output: () => string } {
  const child = spawn(process.execPath, [...ENTRY, 'server/main.ts'], {
    cwd: ROOT,
    env: { ...process.env, DATA_DIR: dataDir, PORT: String(port), LOG_LEVEL: 'info' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (c) => {
    out += c;
  });
  child.stderr!.on('data', (c) => {
    out += c;
  });
  return Object.assign(child, { output: () => out });
}

async function waitReady(port: number, child: ChildProcess & { output: () => string }): Promise<void> {
  const deadline = Date.now() + 90_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server exited: ${child.output()}`);
    try {
      if ((await http(`http://127.0.0.1:${port}/api`)).status === 200) return;
    } catch {
      /* not yet */
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`server not ready: ${child.output()}`);
}

async function stop(child: ChildProcess, signal: NodeJS.Signals = 'SIGINT'): Promise<number | null> {
  if (child.exitCode !== null || child.signalCode !== null) return child.exitCode;
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  child.kill(signal);
  return exited;
}

function mint(dataDir: string, port: number): string {
  return execFileSync(process.execPath, [...ENTRY, 'scripts/mint-token.ts', '--email', 'boot@example.com', '--org', 'boot', '--scopes', 'files:read'], {
    cwd: ROOT,
    env: { ...process.env, DATA_DIR: dataDir, PORT: String(port) },
    encoding: 'utf8',
    timeout: 60_000,
  }).trim();
}

function postgresRunningOn(dataDir: string): boolean {
  try {
    return execFileSync('ps', ['-eo', 'args'], { encoding: 'utf8' })
      .split('\n')
      .some((l) => l.includes(join(dataDir, 'postgres')) && l.includes('bin/postgres'));
  } catch {
    return false;
  }
}

t.test('npm start: serves, keeps data across restarts and kill -9, runs side by side', async (t) => {
  const dirA = await mkdtemp(join(tmpdir(), 'siglata-start-a-'));
  const dirB = await mkdtemp(join(tmpdir(), 'siglata-start-b-'));
  const children: ChildProcess[] = [];
  t.teardown(async () => {
    for (const c of children) await stop(c);
    await rm(dirA, { recursive: true, force: true });
    await rm(dirB, { recursive: true, force: true });
  });
  const portA = await freePort();
  const portB = await freePort();

  let a = start(dirA, portA);
  children.push(a);
  await waitReady(portA, a);
  t.match(a.output(), /"msg":"listening"/);
  // The person at the terminal is told where to open it, and (no SMTP here) gets the sign-in link as a plain line.
  t.match(a.output(), new RegExp(`^Siglata is ready: open http://127\\.0\\.0\\.1:${portA}/ in a browser`, 'm'));
  t.match(a.output(), /^No SMTP_URL is set: sign-in links are printed here/m);
  const front = await http(`http://127.0.0.1:${portA}/`);
  t.equal(front.status, 200, 'the address printed serves the front page');
  t.match(front.headers['content-type'], /^text\/html/);
  t.equal((await http(`http://127.0.0.1:${portA}/auth/sign-in/magic-link`, { json: { email: 'newcomer@example.com' } })).status, 200);
  const link = new RegExp(`^Sign-in link for newcomer@example\\.com: (http://127\\.0\\.0\\.1:${portA}/auth/magic-link\\?\\S+)$`, 'm').exec(a.output())?.[1];
  t.ok(link, 'the sign-in link is a plain line of its own');
  t.equal((await http(link!)).status, 200, 'and it opens the sign-in landing page');
  const token = mint(dirA, portA); // beside the running server: borrows its PostgreSQL
  t.match(token, /^ey/);
  const who = await http(`http://127.0.0.1:${portA}/api`, { token });
  t.equal(who.body.user.email, 'boot@example.com');

  t.equal(await stop(a), 0, 'graceful shutdown exits 0');
  t.notOk(postgresRunningOn(dirA), 'the embedded PostgreSQL stopped with it');

  a = start(dirA, portA);
  children.push(a);
  await waitReady(portA, a);
  t.equal((await http(`http://127.0.0.1:${portA}/api`, { token })).body.user?.email, 'boot@example.com', 'data and signing key kept across a restart');

  const b = start(dirB, portB);
  children.push(b);
  await waitReady(portB, b);
  t.equal((await http(`http://127.0.0.1:${portB}/api`)).status, 200, 'a second instance runs beside the first');
  t.equal((await http(`http://127.0.0.1:${portB}/api`, { token })).status, 401, 'with its own data (and keys)');

  await stop(a, 'SIGKILL');
  a = start(dirA, portA);
  children.push(a);
  await waitReady(portA, a);
  t.equal((await http(`http://127.0.0.1:${portA}/api`, { token })).body.user?.email, 'boot@example.com', 'kill -9 leaves data the next start reuses');

  t.equal(await stop(a), 0);
  t.equal(await stop(b), 0);
  t.notOk(postgresRunningOn(dirA));
  t.notOk(postgresRunningOn(dirB));
  await t.resolves(access(join(dirA, 'postgres', 'PG_VERSION')));
});
