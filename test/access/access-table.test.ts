// The access rules as a table derived from the route table and the binding registry, so that a route or binding
// added later is covered without anyone remembering to: every route × every kind of caller (none, session, token of
// the organization, token with too few scopes, token of another organization) × the organization's MCP access
// state, then every binding × caller over both execute faces (/app/v1/execute and MCP), over real HTTP.
import t from 'tap';
import { http, type JsonResponse } from '../helpers/http.ts';
import { world } from '../identity/org-helpers.ts';
import { routeTable } from '../../server/app.ts';
import { BINDINGS } from '../../runtime-api/registry.ts';
import type { RouteDef } from '../../server/http/route.ts';
import { tokenScopeOf, type Binding } from '../../runtime-api/define.ts';

/** Routes a Bearer token cannot use, by design: they act on the browser session itself. */
const SESSION_ONLY_ROUTES = new Set(['GET /auth/get-session', 'POST /auth/organization/set-active']);
/** Browser pages and forms on the session cookie: signing out, and the OAuth sign-in and consent pages. */
const BROWSER_SESSION_ROUTES = new Set(['POST /auth/sign-out', 'GET /oauth/authorize', 'POST /oauth/authorize']);
/** The web console: browser pages on the session cookie only, never a Bearer token (tokens in pages leak). */
const CONSOLE_PAGES = /^\/console(\/|$)/;
/** Public documents: the same for everyone, so they may be cached even when a credential was sent. */
const PUBLIC_DOCUMENTS = /^\/(\.well-known\/|openapi\.json$|schema\/|oauth\/jwks$|ask$|console\/assets\/)/;

/** The "too few scopes" token: it may read the organization, nothing more. */
const NARROW = ['org:read'];
const refusedTo = (scopes: readonly string[], b: Binding) => b.sessionOnly || (tokenScopeOf(b) !== null && !scopes.includes(tokenScopeOf(b)!));

const rpc = (script: string) => ({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'execute', arguments: { script } } });

t.test('access table', async (t) => {
  const w = await world(t);
  const { app } = w;
  const owner = await w.user('owner@example.com');
  const acme = await w.org(owner, 'acme');
  const ownerToken = (scopes?: string[]) => app.token({ email: 'owner@example.com', org: 'acme', ...(scopes ? { scopes } : {}) });
  const tokens = {
    token: await ownerToken(),
    narrow: await ownerToken(NARROW),
    other: await app.token({ email: 'eve@example.com', org: 'evil' }),
  };
  const routes = routeTable(app.deps);

  function request(route: RouteDef, headers: Record<string, string>): Promise<JsonResponse> {
    const path = route.path.replace(/:(\w+)/g, (_m, name: string) => (name === 'partNumber' ? '1' : 'x_missing'));
    // organizationId names the organization under test wherever a route takes one.
    const takesOrg = route.binding?.needsOrganization && route.path.startsWith('/auth/organization/');
    const url = `${app.url}${path}${route.method === 'GET' && takesOrg ? `?organizationId=${acme.id}` : ''}`;
    if (route.method === 'GET' || route.method === 'DELETE') return http(url, { method: route.method, headers });
    if (route.method === 'PUT')
      return http(url, { method: 'PUT', body: Buffer.alloc(16), headers: { ...headers, 'content-type': 'application/octet-stream' } });
    return http(url, { method: route.method, json: takesOrg ? { organizationId: acme.id } : {}, headers });
  }

  const setAccess = async (state: string) => {
    const res = await owner.post('/auth/organization/set-mcp-access', { state });
    if (res.status !== 200) throw new Error(`set-mcp-access ${state}: ${res.status} ${res.text}`);
  };

  t.test('no route is session-only unless it acts on the session itself (spec 5.2: API requests carry Bearer)', async (t) => {
    const sessionOnly = routes
      .filter((r) => r.auth === 'session' && !CONSOLE_PAGES.test(r.path))
      .map((r) => `${r.method} ${r.path}`)
      .filter((name) => !BROWSER_SESSION_ROUTES.has(name));
    t.same(sessionOnly.sort(), [...SESSION_ONLY_ROUTES].sort());
  });

  t.test('every MCP and transfer route validates Origin whatever the method (spec 5.8), with the same guard', async (t) => {
    const mcpRoutes = routes.filter((r) => /^\/(v1\/)?mcp(\/|$)/.test(r.path));
    t.ok(mcpRoutes.length >= 8, 'the MCP endpoint, its alias and the transfer routes');
    for (const route of mcpRoutes) {
      const name = `${route.method} ${route.path}`;
      t.equal(route.origin, 'always', `${name} declares the Origin check`);
      for (const origin of ['https://evil.example', 'null', `${app.url}.evil.example`]) {
        const res = await request(route, { authorization: `Bearer ${tokens.token}`, origin });
        t.equal(res.status, 403, `${name} from ${origin}: 403`);
        t.equal(res.body?.error?.code, 'ORIGIN_NOT_ALLOWED', `${name} from ${origin}: ORIGIN_NOT_ALLOWED`);
      }
      const allowed = await request(route, { authorization: `Bearer ${tokens.token}`, origin: app.url });
      t.not(allowed.status, 403, `${name} from the service's own origin passes the check`);
    }
  });

  for (const state of ['testing', 'active', 'revoked'] as const) {
    t.test(`every route × every caller, MCP access ${state}`, async (t) => {
      await setAccess(state);
      for (const route of routes) {
        const name = `${route.method} ${route.path}`;
        const anonymous = await request(route, {});
        t.ok(anonymous.status < 500, `${name} anonymous: no 5xx (${anonymous.status})`);
        if (route.auth !== 'none' && !route.authCheck) t.equal(anonymous.status, 401, `${name} without credentials is 401`);
        if (route.authCheck === 'handler') {
          // Its own refusal (the MCP challenge, the way to the sign-in page, the consent form's HTML 403), or a form
          // refusing this JSON body's shape first: never served.
          t.ok(anonymous.status >= 300 && anonymous.status < 500, `${name} without credentials is not served (${anonymous.status})`);
        }

        // Signing out would end the session the rest of the table uses; its own tests cover it.
        if (name === 'POST /auth/sign-out') continue;
        const session = await request(route, owner.headers());
        t.ok(session.status < 500, `${name} session: no 5xx (${session.status} ${session.text.slice(0, 120)})`);
        if (route.auth !== 'none' || route.path === '/api') {
          t.match(session.headers['cache-control'], /no-store|private/, `${name} session: not cacheable`);
        }
        if (route.binding && route.auth !== 'bearer') t.not(session.status, 403, `${name} session of the owner: allowed (${session.text.slice(0, 160)})`);

        for (const [kind, token] of Object.entries(tokens)) {
          const res = await request(route, { authorization: `Bearer ${token}` });
          const label = `${name} ${kind} token`;
          t.ok(res.status < 500, `${label}: no 5xx (${res.status})`);
          if (route.path === '/ask') continue; // public and unauthenticated: a credential is ignored
          if (state === 'revoked' && kind !== 'other') {
            t.equal(res.status, 403, `${label}, access revoked: 403`);
            t.equal(res.body?.error?.code, 'MCP_ACCESS_REVOKED', `${label}, access revoked: MCP_ACCESS_REVOKED`);
            continue;
          }
          if (!PUBLIC_DOCUMENTS.test(route.path))
            t.match(res.headers['cache-control'], /no-store|private/, `${label}: not cacheable (${res.status} ${res.text.slice(0, 200)})`);
          if (SESSION_ONLY_ROUTES.has(name)) {
            t.equal(res.status, 401, `${label}: a session-only route refuses a token`);
            t.notMatch(res.body?.error?.resolution, /access token|Bearer/, `${label}: the resolution asks for a session, not for another token`);
          } else if (CONSOLE_PAGES.test(route.path) && !/\/assets\//.test(route.path)) {
            // A page answers 401; a form action may refuse the request's shape first (415 for JSON): never served.
            t.ok(res.status >= 400 && res.status < 500, `${label}: the console refuses a token (${res.status})`);
            if (res.status === 401) t.match(res.body?.error?.resolution, /sign in/i, `${label}: the resolution says to sign in`);
          } else {
            t.not(res.status, 401, `${label}: a valid Bearer token is accepted (${res.text.slice(0, 160)})`);
          }
          if (kind === 'narrow' && route.binding && refusedTo(NARROW, route.binding)) {
            t.equal(res.status, 403, `${label}: 403 (needs ${route.binding.scope})`);
            t.equal(res.body?.error?.code, 'INSUFFICIENT_SCOPE', `${label}: INSUFFICIENT_SCOPE`);
          }
          if (kind === 'token' && route.binding?.sessionOnly) {
            t.equal(res.body?.error?.code, 'INSUFFICIENT_SCOPE', `${label}: ${route.binding.name} is for signed-in sessions only`);
          }
          if (kind === 'other') {
            t.notOk(res.text.includes('owner@example.com'), `${label}: nothing of the other organization leaks`);
            if (route.binding?.needsOrganization && route.path.startsWith('/auth/organization/') && res.status < 400) {
              t.fail(`${label}: acting on another organization must be refused (${res.status})`);
            }
          }
        }
      }
    });
  }

  t.test('every binding × every caller on both execute faces: one answer for scope, session-only and revoked access', async (t) => {
    await setAccess('active');
    const app1 = (script: string, headers: Record<string, string>) => http(`${app.url}/app/v1/execute`, { json: { script }, headers });
    const mcp = (script: string, token: string) => http(`${app.url}/v1/mcp`, { json: rpc(script), token });
    for (const binding of BINDINGS) {
      const script = `return await ${binding.name}({});`;
      for (const [kind, token] of [
        ['token', tokens.token],
        ['narrow', tokens.narrow],
      ] as const) {
        const refused = kind === 'narrow' ? refusedTo(NARROW, binding) : binding.sessionOnly;
        const viaApp = await app1(script, { authorization: `Bearer ${token}` });
        const viaMcp = await mcp(script, token);
        const label = `${binding.name} as ${kind} token`;
        if (refused) {
          t.equal(viaApp.status, 403, `${label} on /app/v1: 403`);
          t.equal(viaApp.body?.error?.code, 'INSUFFICIENT_SCOPE', `${label} on /app/v1: INSUFFICIENT_SCOPE`);
          t.equal(viaMcp.status, 403, `${label} over MCP: 403`);
          t.equal(viaMcp.body?.error?.code, 'INSUFFICIENT_SCOPE', `${label} over MCP: INSUFFICIENT_SCOPE`);
        } else {
          t.equal(viaApp.status, 200, `${label} on /app/v1: 200 (${viaApp.text.slice(0, 160)})`);
          t.equal(viaMcp.status, 200, `${label} over MCP: 200 (${viaMcp.text.slice(0, 160)})`);
          t.not(viaApp.body?.error?.code, 'INSUFFICIENT_SCOPE');
        }
      }
      const session = await app1(script, { ...owner.headers() });
      t.equal(session.status, 200, `${binding.name} as the owner's session: 200`);
      t.not(session.body?.error?.code, 'INSUFFICIENT_SCOPE', `${binding.name} as the owner's session: allowed`);
    }
    // A token left with no scope at all runs nothing, on either face.
    const none = await ownerToken(['offline_access']);
    const emptyApp = await app1('return 1;', { authorization: `Bearer ${none}` });
    const emptyMcp = await mcp('return 1;', none);
    t.same([emptyApp.status, emptyApp.body?.error?.code], [403, 'INSUFFICIENT_SCOPE'], 'no scope: /app/v1 refuses to run');
    t.same([emptyMcp.status, emptyMcp.body?.error?.code], [403, 'INSUFFICIENT_SCOPE'], 'no scope: MCP refuses to run');
    await setAccess('revoked');
    for (const binding of BINDINGS) {
      const script = `return await ${binding.name}({});`;
      const viaApp = await app1(script, { authorization: `Bearer ${tokens.token}` });
      const viaMcp = await mcp(script, tokens.token);
      t.equal(viaApp.body?.error?.code, 'MCP_ACCESS_REVOKED', `${binding.name} on /app/v1 with access revoked`);
      t.equal(viaMcp.body?.error?.code, 'MCP_ACCESS_REVOKED', `${binding.name} over MCP with access revoked`);
    }
    await setAccess('active');
  });
});
