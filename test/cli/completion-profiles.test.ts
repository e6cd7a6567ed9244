// Shell completion generated from the command declarations (bash run for real; zsh and fish checked as text), and
// profiles keeping separate sign-ins (--profile, SIGLATA_PROFILE).
import t from 'tap';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { mkdtemp, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTestApp } from '../helpers/app.ts';
import { runCli } from './run-cli.ts';

const exec = promisify(execFile);

t.test('completion', async (t) => {
  const bash = await runCli(['completion', 'bash']);
  t.equal(bash.code, 0, bash.stderr);
  const complete = async (words: string[]) => {
    const script = `eval "$(cat)"; COMP_WORDS=(${words.map((w) => `'${w}'`).join(' ')}); COMP_CWORD=${words.length - 1}; _siglata; printf '%s\\n' "\${COMPREPLY[@]}"`;
    const child = exec('bash', ['-c', script]);
    child.child.stdin!.end(bash.stdout);
    return (await child).stdout.trim().split('\n');
  };
  t.same((await complete(['siglata', 'c'])).sort(), ['completion', 'cp']);
  t.ok((await complete(['siglata', 'cp', '--d'])).includes('--dry-run'));
  t.same(await complete(['siglata', 'keys', '--exp']), ['--expires-days']);
  t.ok((await complete(['siglata', 'ls', '--'])).includes('--profile'), 'global options too');
  const zsh = await runCli(['completion', 'zsh']);
  t.match(zsh.stdout, /^#compdef siglata\n[^]*bashcompinit[^]*complete -o default -F _siglata siglata/);
  const fish = await runCli(['completion', 'fish']);
  t.match(fish.stdout, /complete -c siglata -n __fish_use_subcommand -a sync -d 'Make remote:PATH match/);
  t.match(fish.stdout, /complete -c siglata -n '__fish_seen_subcommand_from cp' -l include -r -d/);
  const bad = await runCli(['completion', 'tcsh']);
  t.equal(bad.code, 2);
});

t.test('profiles', async (t) => {
  const app = await startTestApp(t, { env: { RATE_LIMIT_MAX: '100000' } });
  const ci = await app.token({ email: 'ci@profiles.example', org: 'prof-ci' });
  const home = await mkdtemp(join(tmpdir(), 'siglata-prof-'));
  const env = { SIGLATA_CONFIG_DIR: home, SIGLATA_SERVER: undefined, SIGLATA_TOKEN: undefined, SIGLATA_PROFILE: undefined };
  const cli = (args: string[], extra: Record<string, string | undefined> = {}) => runCli(args, { env: { ...env, ...extra } });
  const login = await cli(['--profile', 'ci', 'login', '--server', app.url, '--token', ci]); // as docs/cli.md shows it
  t.equal(login.code, 0, login.stderr);
  t.ok(await stat(join(home, 'profiles', 'ci', 'credentials.json')), 'stored under the profile');
  const inProfile = await cli(['whoami', '--profile', 'ci']);
  t.equal(inProfile.code, 0, inProfile.stderr);
  t.equal(JSON.parse(inProfile.stdout).organization.slug, 'prof-ci');
  const byEnv = await cli(['whoami'], { SIGLATA_PROFILE: 'ci' });
  t.equal(JSON.parse(byEnv.stdout).organization.slug, 'prof-ci');
  const plain = await cli(['whoami']);
  t.equal(plain.code, 2, 'the default profile knows no server');
  t.match(plain.stderr, /no_server/);
  const bad = await cli(['whoami', '--profile', '../x']);
  t.equal(bad.code, 2);
});
