// Signing-key rotation as seen through the OAuth server: the JWKS publishes next, active and retired keys (public
// members only), new tokens carry the new kid, old ones verify until their key is retired for good.
// Research/auth.md case 42.
import t from 'tap';
import { startTestApp } from '../helpers/app.ts';
import { http } from '../helpers/http.ts';
import { createOrganization, oauthFlow, signInCookie } from '../helpers/oauth.ts';

const PRIVATE_MEMBERS = ['d', 'p', 'q', 'dp', 'dq', 'qi', 'k', 'oth'];
const kidOf = (jwt: string) => JSON.parse(Buffer.from(jwt.split('.')[0], 'base64url').toString()).kid as string;

t.test('key rotation', async (t) => {
  const app = await startTestApp(t, { env: { RATE_LIMIT_MAX: '100000', TRUST_PROXY: 'true' } });
  const base = app.url;
  const cookie = await signInCookie(app, 'kim@example.com');
  await createOrganization(app, cookie, 'kim-org');
  const jwks = async () => (await http(`${base}/oauth/jwks`)).body.keys as Record<string, unknown>[];

  t.test('case 42: next → active → retired, never private members', async (t) => {
    const firstKid = app.deps.keys.active().kid;
    const before = await oauthFlow(app, { cookie });
    t.equal(kidOf(before.tokens.access_token), firstKid);

    await app.deps.keys.prepareNext();
    const published = await jwks();
    const next = published.find((k) => k.kid !== firstKid);
    t.ok(next, 'the next key is published before it signs');
    const stillOld = await oauthFlow(app, { cookie });
    t.equal(kidOf(stillOld.tokens.access_token), firstKid, 'the active key still signs');

    await app.deps.keys.rotate();
    t.equal(app.deps.keys.active().kid, next!.kid, 'the published next key became active');
    const after = await oauthFlow(app, { cookie });
    t.equal(kidOf(after.tokens.access_token), next!.kid, 'new tokens carry the new kid');
    const rotated = await jwks();
    t.ok(
      rotated.some((k) => k.kid === firstKid),
      'the retired key stays published',
    );
    t.equal((await http(`${base}/api`, { token: before.tokens.access_token })).status, 200, 'tokens of the retiring key still verify');

    for (const keys of [published, rotated]) {
      for (const key of keys) {
        t.match(key, { kty: 'EC', crv: 'P-256', alg: 'ES256', use: 'sig', kid: String, x: String, y: String });
        for (const member of PRIVATE_MEMBERS) t.notOk(member in key, `${key.kid} has no ${member}`);
      }
    }

    // The retired key's publication window ends (two hours after retirement): its tokens stop verifying.
    await app.deps.sql`update signing_keys set retired_at = now() - interval '3 hours' where kid = ${firstKid}`;
    await app.deps.keys.reload();
    t.notOk(
      (await jwks()).some((k) => k.kid === firstKid),
      'no longer published',
    );
    const gone = await http(`${base}/api`, { token: before.tokens.access_token });
    t.equal(gone.status, 401, 'its tokens are refused');
    t.equal((await http(`${base}/api`, { token: after.tokens.access_token })).status, 200, 'tokens of the new key work');
  });
});
