// When the sign-in stops working, the CLI says why and keeps the server: an owner revoking the CLI's grant is
// "revoked" (not "session expired"), a refresh token that ran out is "expired", and in both cases the next
// `siglata login`, which the resolution suggests, finds the server without --server.
import t, { type Test } from 'tap';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTestApp } from '../helpers/app.ts';
import { approveAuthorization, createOrganization, signInCookie } from '../helpers/oauth.ts';
import { http } from '../helpers/http.ts';
import { runCli, startCli } from './run-cli.ts';

t.test('a revoked or expired sign-in', async (t) => {
  const app = await startTestApp(t, { env: { RATE_LIMIT_MAX: '100000' } });
  const cookie = await signInCookie(app, 'owner@revoke.example');
  const orgId = await createOrganization(app, cookie, 'revoke-org');
  const home = await mkdtemp(join(tmpdir(), 'siglata-revoke-'));
  const configDir = join(home, 'config');
  const env = {
    SIGLATA_CONFIG_DIR: configDir,
    SIGLATA_SERVER: undefined,
    SIGLATA_TOKEN: undefined,
    SIGLATA_LANG: undefined,
    BROWSER: undefined,
    DISPLAY: undefined,
  };
  const cli = (args: string[]) => runCli(args, { env, cwd: home });
  const credentials = async () => JSON.parse(await readFile(join(configDir, 'credentials.json'), 'utf8'));
  const signIn = async (t: Test) => {
    const run = startCli(['login', '--server', app.url, '--no-browser'], { env, cwd: home });
    const url = new URL((await run.waitForStderr(/\/oauth\/authorize\?/)).trim());
    const answer = await approveAuthorization(url, { cookie, organizationId: orgId });
    t.equal((await http(answer.location.toString())).status, 200);
    const done = await run.done;
    t.equal(done.code, 0, `signed in (${done.stderr.slice(-300)})`);
  };
  /** A binding run by the owner's browser session, as the console's Agents and access page runs it. */
  const asOwner = async (script: string) => {
    const res = await http(`${app.url}/app/v1/execute`, { headers: { cookie, origin: app.url }, json: { mode: 'run', script } });
    if (!res.body?.ok) throw new Error(JSON.stringify(res.body));
    return res.body.result;
  };
  /** `siglata login` without --server gets as far as printing the address to open: it knew the server. */
  const loginFindsServer = async () => {
    const run = startCli(['login', '--no-browser'], { env, cwd: home });
    const line = await run.waitForStderr(/\/oauth\/authorize\?|no_server/);
    run.child.kill('SIGTERM');
    await run.done;
    return line;
  };

  t.test('revoked by an owner: "revoked", and the server is kept', async (t) => {
    await signIn(t);
    t.equal((await cli(['ls'])).code, 0);
    const grants = await asOwner('return (await oauth_grants_list({})).items;');
    t.equal(grants.length, 1, "the CLI's grant");
    await asOwner(`return await oauth_grant_revoke({ grantId: ${JSON.stringify(grants[0].id)} });`);

    const after = await cli(['ls']);
    t.equal(after.code, 1);
    t.match(after.stderr, /^error: access_revoked: the access of this sign-in to http:\/\/127\.0\.0\.1:\d+ was revoked \(the grant was revoked\)$/m);
    t.match(after.stderr, /resolution: An owner or admin of the organization revoked it/);
    t.notMatch(after.stderr, /SESSION_EXPIRED|no longer valid/, 'not called an expiry');
    const stored = await credentials();
    t.same(stored.logins, {}, 'the dead tokens are forgotten');
    t.equal(stored.current, app.url, 'but not the server');
    t.match(await loginFindsServer(), /\/oauth\/authorize\?/, 'so the suggested `siglata login` needs no --server');

    const pt = await runCli(['ls', '--lang', 'pt-BR', '--server', app.url], { env, cwd: home });
    t.match(pt.stderr, /not_signed_in/, 'a later command: not signed in, with the server named');
  });

  t.test('ran out: "expired", and the server is kept too', async (t) => {
    await signIn(t);
    const stored = await credentials();
    const login = stored.logins[app.url];
    // An access token past its time and a refresh token the server does not know: what a lapsed sign-in looks like.
    login.expiresAt = Date.now() - 1000;
    login.refreshToken = 'not-a-refresh-token';
    await writeFile(join(configDir, 'credentials.json'), JSON.stringify(stored), { mode: 0o600 });
    const after = await cli(['whoami']);
    t.equal(after.code, 1);
    t.match(after.stderr, /^error: SESSION_EXPIRED: the stored sign-in is no longer valid$/m);
    t.match(after.stderr, /resolution: Sign in again with `siglata login`/);
    t.equal((await credentials()).current, app.url, 'the server is kept');
    t.match(await loginFindsServer(), /\/oauth\/authorize\?/);
  });
});
