// Every example of the command-line guide (docs/cli.md) runs, in order, through bash with the real CLI
// (bin/siglata.mjs) against the in-process server. The examples are read from the guide, so a new one is tested
// without anyone adding it here. `npx siglata` becomes the CLI run by this Node, the documented address becomes the
// test server's, and the guide's placeholders (`fil_…`, `slk_…`, `key_…`, `<token>`) become real values; an
// example with a placeholder this test does not know fails. Browser steps are answered by a signed-in session.
import t from 'tap';
import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTestApp } from '../helpers/app.ts';
import { approveAuthorization, createOrganization, signInCookie } from '../helpers/oauth.ts';
import { http } from '../helpers/http.ts';
import { BIN } from './run-cli.ts';

const GUIDE = new URL('../../docs/cli.md', import.meta.url);
const DOCUMENTED_SERVER = 'http://127.0.0.1:8080';

/** The command lines of the guide's fenced `sh` blocks, comments dropped. */
export function cliExamples(section: string): string[] {
  const blocks = [...section.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1]);
  // A comment starts at ` # ` outside quotes; the examples keep quotes simple, so a quote count tells.
  const withoutComment = (line: string) => {
    for (const m of line.matchAll(/\s#\s/g)) {
      const before = line.slice(0, m.index);
      if ((before.split('"').length - 1) % 2 === 0 && (before.split("'").length - 1) % 2 === 0) return before.trimEnd();
    }
    return line.trimEnd();
  };
  return blocks
    .flatMap((b) => b.split('\n'))
    .map(withoutComment)
    .filter((l) => l.trim() !== '');
}

const shellQuote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

t.test("the command-line guide's examples run", async (t) => {
  const app = await startTestApp(t, { env: { RATE_LIMIT_MAX: '100000' } });
  const cookie = await signInCookie(app, 'readme@cli.example');
  const orgId = await createOrganization(app, cookie, 'readme-org');
  const admin = await app.token({ email: 'readme@cli.example', org: 'readme-org' });
  const binding = async (name: string, input: unknown) => {
    const res = await http(`${app.url}/app/v1/execute`, { token: admin, json: { mode: 'run', script: `return await ${name}(${JSON.stringify(input)});` } });
    if (!res.body?.ok) throw new Error(`${name}: ${JSON.stringify(res.body)}`);
    return res.body.result;
  };

  // What the examples act on: local files and folders, and catalogue files named as the guide names them.
  const work = await mkdtemp(join(tmpdir(), 'siglata-readme-'));
  await writeFile(join(work, 'backup.tar.gz'), Buffer.alloc(300_000, 7));
  await writeFile(
    join(work, 'rename.js'),
    'const page = await files_list({ prefix: "reports/2026/" });\nfor (const f of page.items ?? page.files ?? page) await files_update({ fileId: f.fileId, name: f.name.replace("reports/2026/", "reports/2026-archive/") });\nreturn "renamed";',
  );
  await mkdir(join(work, 'reports', 'q'), { recursive: true });
  for (const [name, text] of [
    ['a.csv', 'x,y\n1,2\n'],
    ['q/b.csv', 'x\n3\n'],
    ['notes.txt', 'not a csv\n'],
  ])
    await writeFile(join(work, 'reports', name), text);
  for (const name of ['reports/2026/q3.csv', 'reports/old.csv', 'reports/older.csv']) await binding('files_write_text', { name, text: 'a,b\n1,2\n' });
  const ciKey = await binding('api_keys_create', { name: 'readme-ci', scopes: ['files:read', 'files:write'] });
  const spareKey = await binding('api_keys_create', { name: 'readme-spare', scopes: ['files:read'] });

  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_OPTIONS: '',
    SIGLATA_CONFIG_DIR: join(work, 'config'),
    SIGLATA_NODE: process.execPath,
    SIGLATA_BIN: BIN,
  };
  for (const name of ['SIGLATA_SERVER', 'SIGLATA_TOKEN', 'SIGLATA_LANG', 'SIGLATA_PROFILE', 'BROWSER', 'DISPLAY', 'WAYLAND_DISPLAY', 'NODE_V8_COVERAGE'])
    delete env[name];
  let planToken: string | null = null;

  /** The example as bash will run it: the real CLI, the test server, the placeholders filled in. */
  async function concrete(example: string): Promise<string> {
    let line = example.replaceAll('npx siglata', '"$SIGLATA_NODE" "$SIGLATA_BIN"').replaceAll(DOCUMENTED_SERVER, app.url);
    if (line.includes('fil_…')) {
      const page = await binding('files_list', { prefix: 'backups/' });
      const file = (page.items ?? page.files ?? page).find((f: { name: string }) => f.name === 'backups/2026-11.tar.gz');
      if (!file) throw new Error('fil_… stands for the uploaded backup, which an earlier example uploads');
      line = line.replaceAll('fil_…', file.fileId);
    }
    if (line.includes('<token>')) {
      if (!planToken) throw new Error('<token> stands for the token an earlier --plan printed');
      line = line.replaceAll('<token>', shellQuote(planToken));
    }
    line = line.replaceAll('slk_…', shellQuote(ciKey.key)).replaceAll('key_…', spareKey.id);
    const unknown = /\w+_…|<[a-z-]+>/.exec(line);
    if (unknown) throw new Error(`unknown placeholder ${unknown[0]}: teach guide-examples.test.ts what it stands for`);
    return line;
  }

  /** bash -c, answering a browser sign-in (as the guide's reader would) when the CLI prints its address. */
  function run(line: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
    return new Promise((resolve, reject) => {
      const child = spawn('bash', ['-o', 'pipefail', '-c', line], { env, cwd: work, stdio: ['ignore', 'pipe', 'pipe'] });
      let stdout = '';
      let stderr = '';
      let answered = false;
      child.stdout.setEncoding('utf8').on('data', (d) => {
        stdout += d;
      });
      child.stderr.setEncoding('utf8').on('data', (d) => {
        stderr += d;
        const url = /(http:\/\/\S+\/oauth\/authorize\?\S+)/.exec(stderr)?.[1];
        if (url && !answered) {
          answered = true;
          approveAuthorization(url, { cookie, organizationId: orgId })
            .then((a) => http(a.location.toString()))
            .catch(reject);
        }
      });
      child.on('close', (code) => resolve({ code, stdout, stderr }));
    });
  }

  const examples = cliExamples(await readFile(GUIDE, 'utf8'));
  t.ok(examples.length >= 20, `${examples.length} examples found`);
  // The examples sign in once (the first line) and act as that sign-in, whatever a later line stores: each runs
  // from the sign-in state the first left, so `login --token slk_…` does not narrow the next example's scopes.
  let signedIn: string | null = null;
  for (const example of examples) {
    if (signedIn !== null) await writeFile(join(work, 'config', 'credentials.json'), signedIn, { mode: 0o600 });
    const r = await run(await concrete(example));
    t.equal(r.code, 0, `${example}\n${r.stderr.slice(0, 600)}`);
    t.notMatch(r.stderr, /\n\s+at .*\.(ts|mjs):\d+/, `${example}: no stack trace`);
    if (signedIn === null) signedIn = await readFile(join(work, 'config', 'credentials.json'), 'utf8');
    planToken = /--apply (\S+)/.exec(r.stdout)?.[1] ?? planToken;
  }

  // What a reader would check after the examples: the effects they describe happened.
  const names = async (prefix: string) => {
    const page = await binding('files_list', { prefix, limit: 100 });
    return (page.items ?? page.files ?? page).map((f: { name: string }) => f.name).sort();
  };
  t.same(await names('reports/2026-archive/'), ['reports/2026-archive/q3.csv'], 'exec --apply renamed what --plan showed');
  t.same(await names('reports/old'), ['reports/old.csv'], 'trash then restore: old.csv is back, older.csv in the trash');
  t.ok((await names('reports/')).includes('reports/q/b.csv'), 'cp copied the nested folder');
  t.equal(await readFile(join(work, 'reports-copy', 'a.csv'), 'utf8'), 'x,y\n1,2\n', 'sync brought the files back down');
  const keys = await binding('api_keys_list', {});
  t.equal((keys.items ?? keys).find((k: { id: string }) => k.id === spareKey.id)?.state, 'revoked', 'keys revoke key_… revoked the key');
  t.ok((await names('reports/')).includes('reports/old.csv'), 'sync --delete --dry-run deleted nothing');
});
