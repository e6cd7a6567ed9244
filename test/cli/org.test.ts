// siglata org with every way of signing in the CLI offers: the browser sign-in (OAuth), `login --token` with a
// person's access token, and an organization API key (stored, or in SIGLATA_TOKEN). A person lists, creates and
// switches organizations and answers invitations; a key acts for its organization only and gets a clear,
// localized refusal for the rest. The real CLI as a child process against the in-process server.
import t from 'tap';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTestApp } from '../helpers/app.ts';
import { approveAuthorization, createOrganization, signInCookie } from '../helpers/oauth.ts';
import { http } from '../helpers/http.ts';
import { runCli, startCli } from './run-cli.ts';

t.test('siglata org, for every kind of credential', async (t) => {
  const app = await startTestApp(t, { env: { RATE_LIMIT_MAX: '100000' } });
  const cookie = await signInCookie(app, 'founder@org-cli.example');
  const alphaId = await createOrganization(app, cookie, 'alpha');
  const home = await mkdtemp(join(tmpdir(), 'siglata-org-'));
  const base = {
    SIGLATA_CONFIG_DIR: join(home, 'config'),
    SIGLATA_SERVER: app.url,
    SIGLATA_TOKEN: undefined,
    SIGLATA_LANG: undefined,
    SIGLATA_PROFILE: undefined,
    BROWSER: undefined,
    DISPLAY: undefined,
  };
  const cli = (args: string[], env: Record<string, string | undefined> = {}) => runCli(args, { env: { ...base, ...env }, cwd: home });
  const json = async (args: string[], env: Record<string, string | undefined> = {}) => {
    const r = await cli([...args, '--json'], env);
    t.equal(r.code, 0, `${args.join(' ')}: ${r.stderr}`);
    return JSON.parse(r.stdout);
  };
  /** The browser step of a sign-in, answered by the founder's session for `organizationId`. */
  const browserSignIn = async (args: string[], organizationId: string) => {
    const run = startCli(args, { env: base, cwd: home });
    const url = new URL((await run.waitForStderr(/\/oauth\/authorize\?/)).trim());
    const answer = await approveAuthorization(url, { cookie, organizationId });
    t.equal((await http(answer.location.toString())).status, 200);
    return run.done;
  };

  t.test('browser sign-in: list, create, switch', async (t) => {
    const login = await browserSignIn(['login', '--no-browser'], alphaId);
    t.equal(login.code, 0, login.stderr);
    const before = await json(['org', 'list']);
    t.match(before, [{ slug: 'alpha', role: 'owner', current: true }]);

    const made = await cli(['org', 'create', 'Beta Lábs']);
    t.equal(made.code, 0, made.stderr);
    t.match(made.stdout, /Created organization beta-labs \(org_\w+\); you are its owner\. To work in it: siglata org switch/);
    const custom = await json(['org', 'create', 'Gamma', '--slug', 'gamma-team']);
    t.match(custom, { slug: 'gamma-team', name: 'Gamma', role: 'owner' });
    const taken = await cli(['org', 'create', 'Again', '--slug', 'gamma-team']);
    t.equal(taken.code, 1);
    t.match(taken.stderr, /error: conflict: The slug "gamma-team" is taken/);
    const bad = await cli(['org', 'create', '!!']);
    t.equal(bad.code, 2, 'a name without a usable slug is a usage error');
    t.match(bad.stderr, /--slug/);

    const table = await cli(['org', 'list']);
    t.equal(table.code, 0, table.stderr);
    t.match(table.stdout, /^\s+SLUG\s+ROLE\s+ID\s+NAME\n/);
    t.match(table.stdout, /\*\s+alpha\s+owner/);
    t.match(table.stdout, /\n\s+beta-labs\s+owner\s+org_\w+\s+Beta Lábs/);
    const all = await json(['org', 'list']);
    t.same(all.map((o: any) => o.slug).sort(), ['alpha', 'beta-labs', 'gamma-team'], "a person's sign-in lists every organization of theirs");

    const switched = await browserSignIn(['org', 'switch', '--no-browser'], all.find((o: any) => o.slug === 'beta-labs').id);
    t.equal(switched.code, 0, switched.stderr);
    t.match(switched.stderr, /Pick the organization on the page that opens/);
    t.match(switched.stdout, /organization beta-labs/);
    t.match(
      await json(['org', 'list']),
      [
        { slug: 'alpha', current: false },
        { slug: 'beta-labs', current: true },
        { slug: 'gamma-team', current: false },
      ].sort((a, b) => a.slug.localeCompare(b.slug)),
    );
    t.equal((await json(['whoami'])).organization.slug, 'beta-labs', 'later commands act on the new organization');
  });

  t.test("invitations: sent by an admin, answered with `login --token` (a person's access token)", async (t) => {
    const inviteeToken = await app.token({ email: 'invitee@org-cli.example', org: 'invitee-home' });
    const env = { SIGLATA_PROFILE: 'invitee' };
    const stored = await cli(['login', '--token', inviteeToken], env);
    t.equal(stored.code, 0, stored.stderr);
    // One pending invitation per address and organization: the second comes from another of the founder's.
    const fromGamma = { SIGLATA_TOKEN: await app.token({ email: 'founder@org-cli.example', org: 'gamma-team' }) };
    for (const [role, e] of [
      ['admin', {}],
      ['member', fromGamma],
    ] as const) {
      const sent = await cli(['org', 'invite', 'invitee@org-cli.example', '--role', role], e);
      t.equal(sent.code, 0, sent.stderr);
      t.match(sent.stdout, new RegExp(`pending\\s+${role}`));
    }
    const received = await json(['org', 'received'], env);
    t.equal(received.length, 2);
    const beta = received.find((i: any) => i.organizationName === 'Beta Lábs');
    const gamma = received.find((i: any) => i.organizationName === 'Gamma');
    t.ok(beta && gamma, "both invitations, with their organizations' names");
    const declined = await cli(['org', 'decline', gamma.id], env);
    t.equal(declined.code, 0, declined.stderr);
    t.match(declined.stdout, /Declined/);
    const accepted = await json(['org', 'accept', beta.id], env);
    t.match(accepted, { invitation: { status: 'accepted' }, member: { email: 'invitee@org-cli.example' } });
    t.same(await json(['org', 'received'], env), [], 'nothing left to answer');
    const again = await cli(['org', 'accept', beta.id], env);
    t.equal(again.code, 1);
    t.match(again.stderr, /INVITATION_NOT_FOUND/);
    const members = await cli(['org', 'members']);
    t.match(members.stdout, /\w+\s+(admin|member)\s+.*invitee@org-cli\.example/);
    const list = await json(['org', 'list'], env);
    t.same(list.map((o: any) => o.slug).sort(), ['beta-labs', 'invitee-home'], "the token's person sees the organization joined");
  });

  t.test('an organization API key: its own organization only, clear refusals for the rest', async (t) => {
    const made = await cli(['keys', 'create', 'ci', '--scope', 'files:read org:read']);
    t.equal(made.code, 0, made.stderr);
    const key = made.stdout.trim();
    const env = { SIGLATA_PROFILE: 'ci' };
    t.equal((await cli(['login', '--token', key], env)).code, 0);
    for (const [label, e] of [
      ['stored key', env],
      ['SIGLATA_TOKEN', { SIGLATA_TOKEN: key }],
    ] as const) {
      const list = await json(['org', 'list'], e);
      t.match(list, [{ slug: 'beta-labs', current: true }], `${label}: org list shows the key's organization only`);
      t.equal(list.length, 1, `${label}: none of its creator's other organizations`);
      t.equal((await cli(['org', 'members'], e)).code, 0, `${label}: members with org:read`);
      const create = await cli(['org', 'create', 'Keyed'], e);
      t.equal(create.code, 1, `${label}: create refused`);
      t.match(
        create.stderr,
        /error: INSUFFICIENT_SCOPE: .*\n\s+resolution: organization_create acts for a person, and an organization API key belongs to its organization only; sign in as yourself/,
      );
      const createJson = await cli(['org', 'create', 'Keyed', '--json'], e);
      t.match(JSON.parse(createJson.stdout), { error: { code: 'INSUFFICIENT_SCOPE' } }, `${label}: --json gives the error as JSON`);
      const received = await cli(['org', 'received'], e);
      t.equal(received.code, 1);
      t.match(received.stderr, /INSUFFICIENT_SCOPE[\s\S]*invitations_received acts for a person/);
      const invite = await cli(['org', 'invite', 'x@org-cli.example'], e);
      t.equal(invite.code, 1);
      t.match(invite.stderr, /INSUFFICIENT_SCOPE[\s\S]*needs the scope org:admin/, `${label}: invitations follow the key's scopes`);
    }
    // A key given org:admin by its admin creator administers invitations like its creator.
    const adminKey = (await cli(['keys', 'create', 'ci-admin', '--scope', 'org:read org:admin'])).stdout.trim();
    const asAdminKey = { SIGLATA_TOKEN: adminKey };
    const sent = await json(['org', 'invite', 'from-key@org-cli.example'], asAdminKey);
    t.match(sent, { status: 'pending', email: 'from-key@org-cli.example', role: 'member' });
    t.match(await json(['org', 'invitations'], asAdminKey), [{ id: sent.id }]);
    t.match(await json(['org', 'cancel-invite', sent.id], asAdminKey), { id: sent.id, status: 'canceled' });
    const sw = await cli(['org', 'switch', '--no-browser'], env);
    t.equal(sw.code, 1, 'switch with a stored key: refused before any browser step');
    t.match(sw.stderr, /error: api_key_bound: the stored credential is an organization API key[\s\S]*resolution: Sign in as yourself with `siglata login`/);
    t.notMatch(sw.stderr, /oauth\/authorize/);
    const swPt = await cli(['org', 'switch', '--lang', 'pt-BR'], env);
    t.match(swPt.stderr, /erro: api_key_bound: a credencial salva é uma chave de API[\s\S]*solução: Entre como você mesmo/);
    const createPt = await cli(['org', 'create', 'Keyed', '--lang', 'pt-BR'], env);
    t.match(createPt.stderr, /solução: organization_create age por uma pessoa/, "the server's refusal in Portuguese");
    const fixed = await cli(['org', 'switch', '--token', key]);
    t.equal(fixed.code, 2);
    t.match(fixed.stderr, /error: fixed_credential: --token \/ SIGLATA_TOKEN fixes the credential/);
  });

  t.test("a person's token without org:read: only its organization, and no creating", async (t) => {
    const narrow = await app.token({ email: 'founder@org-cli.example', org: 'alpha', scopes: ['files:read'] });
    const env = { SIGLATA_TOKEN: narrow };
    t.match(await json(['org', 'list'], env), [{ slug: 'alpha' }]);
    t.equal((await json(['org', 'list'], env)).length, 1);
    const create = await cli(['org', 'create', 'Narrow'], env);
    t.equal(create.code, 1);
    t.match(create.stderr, /INSUFFICIENT_SCOPE[\s\S]*needs the scope org:read/);
  });

  t.test('usage mistakes', async (t) => {
    for (const args of [['org'], ['org', 'list', 'extra'], ['org', 'accept'], ['org', 'nope']]) {
      const r = await cli(args);
      t.equal(r.code, 2, `${args.join(' ')}: exit 2`);
      t.notMatch(r.stderr, /\n\s+at /, `${args.join(' ')}: no stack trace`);
    }
  });
});
