import t from 'tap';
import { SignJWT, generateKeyPair } from 'jose';
import { startTestApp } from '../helpers/app.ts';
import { http } from '../helpers/http.ts';
import { issueAccessToken, verifyAccessToken } from '../../runtime-api/identity/access-tokens.ts';
import { tokenSettings } from '../../server/auth/token-caller.ts';

t.test('access tokens', async (t) => {
  const app = await startTestApp(t, { manualClock: true });
  const settings = tokenSettings(app.deps);
  const minted = await app.mint({ email: 'tok@example.com', scopes: ['files:read'] });

  t.test('an RFC 9068 JWT with our claims', async (t) => {
    const [header, payload] = minted.token
      .split('.')
      .slice(0, 2)
      .map((p) => JSON.parse(Buffer.from(p, 'base64url').toString()));
    t.match(header, { alg: 'ES256', typ: 'at+jwt', kid: /^key_/ });
    t.match(payload, { iss: app.url, aud: `${app.url}/v1/mcp`, sub: minted.userId, org: minted.orgId, scope: 'files:read', client_id: 'mint-token' });
    t.equal(payload.exp - payload.iat, 3600);
  });

  t.test('expired tokens are refused', async (t) => {
    const { token } = await issueAccessToken(app.deps.keys, settings, app.clock, {
      userId: minted.userId,
      orgId: minted.orgId,
      scopes: ['files:read'],
      clientId: 'c',
      ttlSeconds: 60,
    });
    t.equal((await http(`${app.url}/api`, { token })).status, 200);
    app.clock.advance!(61_000);
    const res = await http(`${app.url}/api`, { token });
    t.equal(res.status, 401);
    t.match(res.headers['www-authenticate'], /error="invalid_token"/);
  });

  t.test('wrong audience, issuer, type or signature are refused', async (t) => {
    const key = app.deps.keys.active();
    const now = Math.floor(app.clock.now().getTime() / 1000);
    const base = () =>
      new SignJWT({ org: minted.orgId, scope: 'files:read', client_id: 'c' })
        .setSubject(minted.userId)
        .setIssuedAt(now)
        .setExpirationTime(now + 600)
        .setJti('x');
    const wrongAud = await base()
      .setProtectedHeader({ alg: 'ES256', typ: 'at+jwt', kid: key.kid })
      .setIssuer(app.url)
      .setAudience('https://elsewhere/v1/mcp')
      .sign(key.privateKey);
    const wrongIss = await base()
      .setProtectedHeader({ alg: 'ES256', typ: 'at+jwt', kid: key.kid })
      .setIssuer('https://evil')
      .setAudience(`${app.url}/v1/mcp`)
      .sign(key.privateKey);
    const wrongTyp = await base()
      .setProtectedHeader({ alg: 'ES256', typ: 'JWT', kid: key.kid })
      .setIssuer(app.url)
      .setAudience(`${app.url}/v1/mcp`)
      .sign(key.privateKey);
    const foreign = (await generateKeyPair('ES256')).privateKey;
    const wrongKey = await base()
      .setProtectedHeader({ alg: 'ES256', typ: 'at+jwt', kid: key.kid })
      .setIssuer(app.url)
      .setAudience(`${app.url}/v1/mcp`)
      .sign(foreign);
    for (const [name, token] of Object.entries({ wrongAud, wrongIss, wrongTyp, wrongKey })) {
      t.equal((await http(`${app.url}/api`, { token })).status, 401, name);
    }
    const unsigned = `${Buffer.from(JSON.stringify({ alg: 'none', typ: 'at+jwt' })).toString('base64url')}.${minted.token.split('.')[1]}.`;
    t.equal((await http(`${app.url}/api`, { token: unsigned })).status, 401, 'alg none');
  });

  t.test('tokens signed before a key rotation still verify; new ones use the new key', async (t) => {
    const before = await app.mint({ email: 'tok@example.com', scopes: ['files:read'] });
    const oldKid = app.deps.keys.active().kid;
    await app.deps.keys.rotate();
    t.not(app.deps.keys.active().kid, oldKid);
    t.ok(await verifyAccessToken(app.deps.keys, settings, app.clock, before.token));
    t.equal((await http(`${app.url}/api`, { token: before.token })).status, 200);
    const after = await app.mint({ email: 'tok@example.com', scopes: ['files:read'] });
    t.equal(JSON.parse(Buffer.from(after.token.split('.')[0], 'base64url').toString()).kid, app.deps.keys.active().kid);
    t.ok(
      app.deps.keys.jwks().keys.some((k) => k.kid === oldKid),
      'the retired key stays published',
    );
  });

  t.test("a removed member's token stops working at once", async (t) => {
    const m = await app.mint({ email: 'gone@example.com', scopes: ['files:read'] });
    t.equal((await http(`${app.url}/api`, { token: m.token })).status, 200);
    await app.deps.sql`delete from members where user_id = ${m.userId}`;
    const res = await http(`${app.url}/api`, { token: m.token });
    t.equal(res.status, 403);
    t.equal(res.body.error.code, 'ORGANIZATION_MEMBERSHIP_REQUIRED');
  });
});
