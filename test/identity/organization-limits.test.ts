// Creating organizations is bounded per person: an hourly rate (429 rate_limited with Retry-After) and a total
// (403 organization_limit_reached), over real HTTP with a session and through an execute script with a person's
// token; concurrent creates at the limit never both pass.
import t from 'tap';
import { startTestApp } from '../helpers/app.ts';
import { http } from '../helpers/http.ts';
import { signInCookie } from '../helpers/oauth.ts';

const PER_HOUR = 3;
const PER_PERSON = 5;

t.test('organization creation limits', async (t) => {
  const app = await startTestApp(t, {
    manualClock: true,
    env: { ORG_CREATE_PER_HOUR: String(PER_HOUR), ORG_CREATE_MAX_PER_PERSON: String(PER_PERSON), RATE_LIMIT_MAX: '100000' },
  });
  const hour = () => app.clock.advance!(3600_000 + 1000);

  t.test("over HTTP: the hourly rate, then the total, in the spec's shapes and the caller's locale", async (t) => {
    const cookie = await signInCookie(app, 'maker@example.com');
    const create = (slug: string, headers: Record<string, string> = {}) =>
      http(`${app.url}/auth/organization/create`, { json: { name: slug, slug }, headers: { cookie, origin: app.url, ...headers } });

    for (let i = 1; i <= PER_HOUR; i++) t.equal((await create(`maker-${i}`)).status, 201, `organization ${i} of the hour`);
    app.clock.advance!(600_000); // ten minutes on: the first of the hour frees up 50 minutes from now
    const rated = await create('maker-4');
    t.equal(rated.status, 429);
    t.equal(rated.body.error.code, 'rate_limited');
    t.match(rated.body.error.message, /organizations created in the last hour/);
    t.match(rated.body.error.resolution, /3 organizations per hour/);
    t.equal(rated.body.error.limit, PER_HOUR);
    t.equal(rated.headers['retry-after'], '3000', 'Retry-After: when the oldest of the hour leaves the window');
    t.equal(rated.body.error.retryAfterSeconds, 3000);
    const pt = await create('maker-4', { 'x-service-locale': 'pt-BR' });
    t.match(pt.body.error.message, /Organizações demais/);
    t.equal((await http(`${app.url}/auth/organization/list`, { headers: { cookie } })).body.length, PER_HOUR, 'nothing was created past the rate');

    hour();
    t.equal((await create('maker-4')).status, 201);
    t.equal((await create('maker-5')).status, 201);
    const capped = await create('maker-6');
    t.equal(capped.status, 403, "the total is reached within the hour's rate");
    t.equal(capped.body.error.code, 'organization_limit_reached');
    t.match(capped.body.error.resolution, /at most 5 organizations, and you have created 5/);
    hour();
    t.equal((await create('maker-6')).status, 403, 'the total does not come back with time');
    const ptCap = await create('maker-6', { 'x-service-locale': 'pt-BR' });
    t.match(ptCap.body.error.resolution, /no máximo 5 organizações/);
  });

  t.test('two creates at the limit at once: exactly one passes', async (t) => {
    for (let round = 0; round < 3; round++) {
      const cookie = await signInCookie(app, `racer${round}@example.com`);
      const create = (slug: string) => http(`${app.url}/auth/organization/create`, { json: { name: slug, slug }, headers: { cookie, origin: app.url } });
      for (let i = 1; i < PER_HOUR; i++) t.equal((await create(`racer${round}-${i}`)).status, 201);
      const racing = await Promise.all(Array.from({ length: 6 }, (_, i) => create(`racer${round}-x${i}`)));
      const statuses = racing.map((r) => r.status).sort();
      t.same(statuses, [201, 429, 429, 429, 429, 429], `round ${round}: one of six concurrent creates passes (${statuses.join(', ')})`);
    }
  });

  t.test('through an execute script: the same limit, the same error for the script', async (t) => {
    const token = await app.token({ email: 'scripter@example.com', org: 'scripter-home' }); // its first organization
    const script = `
      const made = [];
      for (let i = 1; i <= 10; i++) {
        try { made.push((await organization_create({ name: "S" + i, slug: "scripter-" + i })).slug); }
        catch (e) { return { made, code: e.code, resolution: e.resolution }; }
      }
      return { made };`;
    const run = await http(`${app.url}/app/v1/execute`, { json: { script }, token });
    t.equal(run.status, 200, run.text.slice(0, 300));
    t.same(run.body.result.made, ['scripter-1', 'scripter-2'], 'the organization minted with the token counts: two more this hour');
    t.equal(run.body.result.code, 'rate_limited');
    t.match(run.body.result.resolution, /3 organizations per hour/);

    hour();
    const fresh = await app.token({ email: 'scripter@example.com', org: 'scripter-home' }); // the first one expired
    const again = await http(`${app.url}/app/v1/execute`, { json: { script: script.replaceAll('scripter-', 'scripter-b') }, token: fresh });
    t.same(again.body.result.made, ['scripter-b1', 'scripter-b2'], 'two more reach the total of five');
    t.equal(again.body.result.code, 'organization_limit_reached');
  });
});
