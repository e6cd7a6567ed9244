import t from 'tap';
import { readFile } from 'node:fs/promises';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { loadConfig, ConfigError, ENV_SPEC } from '../../server/config.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

t.test('defaults run with nothing set', async (t) => {
  const config = loadConfig({});
  t.equal(config.port, 8080);
  t.equal(config.host, '127.0.0.1');
  t.equal(config.publicBaseUrl, 'http://127.0.0.1:8080');
  t.equal(config.quotaBytes, 10 * 1024 ** 3);
  t.equal(config.rateLimit.max, 120);
  t.equal(config.engine.memoryMb, 64);
  t.equal(config.databaseUrl, undefined);
  t.ok(Object.isFrozen(config) && Object.isFrozen(config.engine), 'frozen');
});

t.test('every problem is reported at once', async (t) => {
  const err = t.throws(() => loadConfig({ PORT: 'abc', BLOB_STORE: 'ftp', SCRIPT_WALL_MS: '-5', PUBLIC_BASE_URL: 'nope' })) as ConfigError;
  t.ok(err instanceof ConfigError);
  t.equal(err.problems.length, 4);
  for (const name of ['PORT', 'BLOB_STORE', 'SCRIPT_WALL_MS', 'PUBLIC_BASE_URL']) t.match(err.message, name);
});

t.test('npm start with bad config exits non-zero naming every bad variable', async (t) => {
  const res = spawnSync(process.execPath, ['--no-node-snapshot', 'server/main.ts'], {
    cwd: ROOT,
    env: { ...process.env, PORT: 'abc', RATE_LIMIT_STORE: 'redis' },
    encoding: 'utf8',
    timeout: 30_000,
  });
  t.equal(res.status, 2);
  t.match(res.stderr, /PORT="abc"/);
  t.match(res.stderr, /RATE_LIMIT_STORE="redis"/);
});

t.test('.env.example documents exactly the variables the config reads', async (t) => {
  const text = await readFile(`${ROOT}.env.example`, 'utf8');
  const documented = [...text.matchAll(/^([A-Z_]+)=/gm)].map((m) => m[1]).sort();
  t.same(documented, Object.keys(ENV_SPEC).sort());
});

t.test('entry points refuse an older Node with one clear line', async (t) => {
  // The machine's system node (20 here) stands in for "an older Node"; Node 24 itself must pass the check.
  const system = spawnSync('/usr/bin/node', ['--version'], { encoding: 'utf8' });
  const major = Number(system.stdout?.replace(/^v/, '').split('.')[0]);
  if (system.status === 0 && major < 24) {
    const res = spawnSync('/usr/bin/node', ['--no-node-snapshot', '--import', './scripts/node-check.mjs', 'server/main.ts'], {
      cwd: ROOT,
      encoding: 'utf8',
      timeout: 30_000,
    });
    t.equal(res.status, 1);
    t.equal(res.stderr.trim().split('\n').length, 1, 'one line');
    t.match(res.stderr, /needs Node\.js 24 or newer \(found 20\./);
  }
  const ok = spawnSync(process.execPath, ['--no-node-snapshot', '--import', './scripts/node-check.mjs', '-e', 'process.stdout.write("ran")'], {
    cwd: ROOT,
    encoding: 'utf8',
  });
  t.equal(ok.stdout, 'ran', 'Node 24 with --no-node-snapshot passes');
  const noFlag = spawnSync(process.execPath, ['--import', './scripts/node-check.mjs', '-e', '1'], {
    cwd: ROOT,
    encoding: 'utf8',
    env: { ...process.env, NODE_OPTIONS: '' },
  });
  t.equal(noFlag.status, 1);
  t.match(noFlag.stderr, /--no-node-snapshot/);
});
