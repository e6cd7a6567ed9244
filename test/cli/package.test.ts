// The installable CLI: `npm pack` in cli/package builds the bundle (prepack) into a tarball with no dependencies;
// installed into a temporary prefix, its `siglata` (plain JavaScript) signs in with a token, uploads and downloads
// against the in-process server, and starts fast.
import t from 'tap';
import { execFile, spawn } from 'node:child_process';
import { promisify } from 'node:util';
import { mkdtemp, readFile, readdir, writeFile } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startTestApp } from '../helpers/app.ts';

const run = promisify(execFile);
const PACKAGE_DIR = fileURLToPath(new URL('../../cli/package/', import.meta.url));

t.test('npm pack → npm install -g → siglata', async (t) => {
  const app = await startTestApp(t, { env: { RATE_LIMIT_MAX: '100000' } });
  const key = await app.token({ email: 'ci@pack.example', org: 'pack-org' });
  const tmp = await mkdtemp(join(tmpdir(), 'siglata-pack-'));
  // npm and the installed `siglata` find Node 24 (this process's) first on PATH, as an installed user's shell would.
  const env = {
    ...process.env,
    PATH: `${dirname(process.execPath)}:${process.env.PATH}`,
    NODE_OPTIONS: '',
    SIGLATA_CONFIG_DIR: join(tmp, 'config'),
    SIGLATA_TOKEN: '',
    SIGLATA_SERVER: '',
  };
  await run('npm', ['pack', '--pack-destination', tmp], { cwd: PACKAGE_DIR, env });
  const tarball = (await readdir(tmp)).find((f) => f.endsWith('.tgz'));
  t.ok(tarball, 'a tarball');
  const manifest = JSON.parse(await readFile(join(PACKAGE_DIR, 'package.json'), 'utf8'));
  t.same(manifest.dependencies ?? {}, {}, "no dependencies: the server's are not needed");
  t.equal(manifest.engines.node, '>=22');
  const prefix = join(tmp, 'prefix');
  await run('npm', ['install', '-g', '--offline', '--no-audit', '--no-fund', '--prefix', prefix, join(tmp, tarball!)], { env });
  const bin = join(prefix, 'bin', 'siglata');
  const installed = await readFile(join(prefix, 'lib', 'node_modules', 'siglata-cli', 'dist', 'siglata.mjs'), 'utf8');
  t.notMatch(installed, /from ["']\.\.?\/[^"']*\.ts["']/, 'JavaScript only, no TypeScript imports');
  const siglata = (args: string[]) =>
    new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
      const child = spawn(bin, args, { env, cwd: tmp });
      let stdout = '';
      let stderr = '';
      child.stdout.setEncoding('utf8').on('data', (d) => {
        stdout += d;
      });
      child.stderr.setEncoding('utf8').on('data', (d) => {
        stderr += d;
      });
      child.on('close', (code) => resolve({ code, stdout, stderr }));
    });

  // Start-up: the target is 0.3 s for `--help`. On a shared, loaded machine an absolute bound is noise, so the
  // assertion is the median of the installed command against the median of `node -e 0` from the same Node, runs
  // interleaved so both see the same load: at most 2× (measured 1.5×: 147 ms against 97 ms at load average 15; the
  // single-file bundle before lazy loading was 3.6×).
  const quiet: NodeJS.ProcessEnv = { ...env };
  delete quiet.NODE_V8_COVERAGE; // tap's coverage would add its own cost to every start
  const time = (command: string, args: string[]) =>
    new Promise<number>((resolve, reject) => {
      const started = performance.now();
      const child = spawn(command, args, { env: quiet, cwd: tmp, stdio: 'ignore' });
      child.on('error', reject);
      child.on('close', (code) => (code === 0 ? resolve(performance.now() - started) : reject(new Error(`${command} ${args.join(' ')}: exit ${code}`))));
    });
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  const helpMs: number[] = [];
  const nodeMs: number[] = [];
  for (let i = 0; i < 9; i++) {
    helpMs.push(await time(bin, ['--help']));
    nodeMs.push(await time(process.execPath, ['-e', '0']));
  }
  const help = await siglata(['--help']);
  t.equal(help.code, 0, help.stderr);
  t.match(help.stdout, /^usage: siglata/);
  t.match(help.stdout, /\n {2}cp +/);
  const ratio = median(helpMs) / median(nodeMs);
  t.comment(`siglata --help (installed): median ${median(helpMs).toFixed(0)} ms; node -e 0: median ${median(nodeMs).toFixed(0)} ms; ratio ${ratio.toFixed(2)}`);
  t.ok(ratio <= 2, `--help costs at most twice a bare Node start (${ratio.toFixed(2)}×; target 300 ms, ${median(helpMs).toFixed(0)} ms here)`);
  const chunks = await readdir(join(prefix, 'lib', 'node_modules', 'siglata-cli', 'dist'));
  t.ok(
    chunks.some((c) => /^undici-.*\.mjs$/.test(c)),
    'the HTTP client is a chunk of its own, loaded on the first request',
  );
  t.equal((await siglata(['--version'])).stdout.trim(), manifest.version);

  const login = await siglata(['login', '--server', app.url, '--token', key]);
  t.equal(login.code, 0, login.stderr);
  t.match(login.stdout, /Signed in to http:\/\/127\.0\.0\.1:\d+ as ci@pack\.example \(organization pack-org/);
  const data = randomBytes(200_000);
  await writeFile(join(tmp, 'artifact.bin'), data);
  const up = await siglata(['upload', 'artifact.bin', '--name', 'ci/artifact.bin']);
  t.equal(up.code, 0, up.stderr);
  const down = await siglata(['download', 'ci/artifact.bin', '-o', 'back.bin']);
  t.equal(down.code, 0, down.stderr);
  t.ok((await readFile(join(tmp, 'back.bin'))).equals(data), 'the same bytes back, with the stored sign-in only');
});
