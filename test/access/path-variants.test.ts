// A check keyed on how a path is spelled is a check some spelling skips. The router matches a route whatever the
// case of its path and with or without a trailing slash, and answers HEAD for every GET: each of those spellings
// must get exactly the answer of the route's own path, for every route of the table and every kind of caller
// (none, a bad or expired token, a token sent from a foreign Origin, a token of an organization whose MCP access
// is revoked). Over real HTTP.
import t from 'tap';
import { http, type JsonResponse } from '../helpers/http.ts';
import { world } from '../identity/org-helpers.ts';
import { routeTable } from '../../server/app.ts';
import type { RouteDef } from '../../server/http/route.ts';

t.test('path spellings', async (t) => {
  const w = await world(t, { manualClock: true });
  const { app } = w;
  const owner = await w.user('owner@example.com');
  await w.org(owner, 'acme');
  const token = await app.token({ email: 'owner@example.com', org: 'acme' });
  const revokedOrgToken = await app.token({ email: 'owner@example.com', org: 'acme' });
  const expiring = await app.token({ email: 'owner@example.com', org: 'acme', ttlSeconds: 60 });
  const routes = routeTable(app.deps).filter((r) => r.path !== '/auth/sign-out');

  const request = (route: RouteDef, path: string, headers: Record<string, string>, method: string = route.method): Promise<JsonResponse> => {
    const url = `${app.url}${path.replace(/:(\w+)/g, (_m, name: string) => (name === 'partNumber' ? '1' : 'x_missing'))}`;
    if (method === 'GET' || method === 'DELETE' || method === 'HEAD') return http(url, { method, headers });
    if (method === 'PUT') return http(url, { method, body: Buffer.alloc(16), headers: { ...headers, 'content-type': 'application/octet-stream' } });
    return http(url, { method, json: {}, headers });
  };
  const spellings = (route: RouteDef) =>
    [
      ['upper case', route.path.replace(/^[^:]+/, (s) => s.toUpperCase()), route.method],
      ['trailing slash', `${route.path}/`, route.method],
      ...(route.method === 'GET' ? [['HEAD', route.path, 'HEAD']] : []),
    ] as const;
  const answer = (res: JsonResponse) => `${res.status} ${res.body?.error?.code ?? res.body?.code ?? ''}`;

  const callers: Record<string, () => Record<string, string>> = {
    anonymous: () => ({}),
    'bad token': () => ({ authorization: 'Bearer not-a-token' }),
    'expired token': () => ({ authorization: `Bearer ${expiring}` }),
    'token from a foreign Origin': () => ({ authorization: `Bearer ${token}`, origin: 'https://evil.example' }),
    'token of a revoked organization': () => ({ authorization: `Bearer ${revokedOrgToken}` }),
  };
  let revoked = false;
  for (const [caller, headers] of Object.entries(callers)) {
    t.test(caller, async (t) => {
      if (caller === 'token of a revoked organization' && !revoked) {
        t.equal((await owner.post('/auth/organization/set-mcp-access', { state: 'revoked' })).status, 200);
        revoked = true;
      }
      if (caller === 'expired token') app.clock.advance!(120_000);
      for (const route of routes) {
        const own = await request(route, route.path, headers());
        if ((caller === 'bad token' || caller === 'expired token') && route.auth !== 'none') {
          t.equal(own.status, 401, `${route.method} ${route.path}, ${caller}: 401`);
        }
        for (const [label, path, method] of spellings(route)) {
          const res = await request(route, path, headers(), method);
          // HEAD has no body: compare the status only.
          const got = method === 'HEAD' ? `${res.status}` : answer(res);
          const want = method === 'HEAD' ? `${own.status}` : answer(own);
          t.equal(got, want, `${route.method} ${route.path} as ${label}, ${caller}: the route's own answer (${want})`);
          if (res.status < 400 && route.auth !== 'none' && res.status !== 405)
            t.match(res.headers['cache-control'], /no-store|private/, `${route.method} ${route.path} as ${label}: not cacheable`);
        }
      }
    });
  }
});
