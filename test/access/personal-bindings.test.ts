// Bindings that act for a person (create an organization, list one's organizations, answer one's invitations):
// every personal binding (taken from the registry, so a new one is covered) × every kind of caller, on
// /app/v1/execute, over MCP and on its REST route when it has one. A session and a person's access token holding
// org:read may; a token without org:read and an organization API key may not, with INSUFFICIENT_SCOPE and a
// resolution saying why; organizations_list shows a key (or a narrow token) only its own organization.
import t from 'tap';
import { http } from '../helpers/http.ts';
import { world } from '../identity/org-helpers.ts';
import { routeTable } from '../../server/app.ts';
import { BINDINGS } from '../../runtime-api/registry.ts';

const rpc = (script: string) => ({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'execute', arguments: { script } } });

t.test('personal bindings', async (t) => {
  const w = await world(t);
  const { app } = w;
  const owner = await w.user('person@personal.example');
  const home = await w.org(owner, 'person-home');
  await w.org(owner, 'person-second');
  const token = await app.token({ email: 'person@personal.example', org: 'person-home' });
  const narrow = await app.token({ email: 'person@personal.example', org: 'person-home', scopes: ['files:read'] });
  const keyRes = await http(`${app.url}/app/v1/execute`, {
    token,
    json: { script: 'return await api_keys_create({ name: "ci", scopes: ["files:read", "org:read", "org:admin"] });' },
  });
  t.equal(keyRes.body?.ok, true, JSON.stringify(keyRes.body));
  const key = keyRes.body.result.key as string;

  const personal = BINDINGS.filter((b) => b.personal);
  t.same(
    personal.map((b) => b.name).sort(),
    ['invitation_accept', 'invitation_reject', 'invitations_received', 'organization_create'],
    'the personal bindings',
  );
  const routes = routeTable(app.deps);

  let n = 0;
  for (const binding of personal) {
    // Inputs that pass validation, so only authorization decides (an unknown invitation is 404 past it).
    const input =
      binding.name === 'organization_create'
        ? () => ({ name: 'Made', slug: `made-${++n}` })
        : binding.name === 'invitations_received'
          ? () => ({})
          : () => ({ invitationId: 'inv_missing' });
    const script = () => `return await ${binding.name}(${JSON.stringify(input())});`;
    for (const [label, bearer, allowed] of [
      ['person token', token, true],
      ['token without org:read', narrow, false],
      ['API key', key, false],
    ] as const) {
      const app1 = await http(`${app.url}/app/v1/execute`, { token: bearer, json: { script: script() } });
      const mcp = await http(`${app.url}/v1/mcp`, { token: bearer, json: rpc(script()) });
      const mcpCode = mcp.body?.error?.code ?? mcp.body?.result?.structuredContent?.error?.code;
      if (allowed) {
        t.not(app1.body?.error?.code, 'INSUFFICIENT_SCOPE', `${binding.name} as ${label} on /app/v1: allowed (${app1.text.slice(0, 200)})`);
        t.not(mcpCode, 'INSUFFICIENT_SCOPE', `${binding.name} as ${label} over MCP: allowed`);
      } else {
        const code = app1.body?.error?.code ?? app1.body?.result?.error?.code;
        t.equal(code, 'INSUFFICIENT_SCOPE', `${binding.name} as ${label} on /app/v1: INSUFFICIENT_SCOPE (${app1.text.slice(0, 200)})`);
        t.equal(mcpCode, 'INSUFFICIENT_SCOPE', `${binding.name} as ${label} over MCP: INSUFFICIENT_SCOPE`);
        const resolution = JSON.stringify(app1.body);
        t.match(resolution, label === 'API key' ? /acts for a person/ : /org:read/, `${binding.name} as ${label}: the resolution says why`);
      }
      const route = routes.find((r) => r.binding === binding);
      if (route && route.method === 'POST') {
        const rest = await http(`${app.url}${route.path}`, { token: bearer, json: input() });
        // Allowed: created (201), or past authorization to the unknown invitation (404).
        if (allowed) t.ok([201, 404].includes(rest.status), `${route.method} ${route.path} as ${label}: allowed (${rest.status} ${rest.text.slice(0, 160)})`);
        else t.same([rest.status, rest.body?.error?.code], [403, 'INSUFFICIENT_SCOPE'], `${route.method} ${route.path} as ${label}: 403`);
      }
    }
    const session = await owner.post('/app/v1/execute', { script: script() });
    t.not(session.body?.error?.code, 'INSUFFICIENT_SCOPE', `${binding.name} as a session: allowed`);
  }

  const openapi = (await http(`${app.url}/openapi.json`)).body;
  t.match(openapi.paths['/auth/organization/create'].post.description, /an organization API key is refused/, 'OpenAPI says who may call it');

  const pt = await http(`${app.url}/app/v1/execute`, {
    token: key,
    headers: { 'x-service-locale': 'pt-BR' },
    json: { script: 'return await organization_create({ name: "X", slug: "x-pt" });' },
  });
  t.match(JSON.stringify(pt.body), /age por uma pessoa/, 'the refusal in Portuguese');

  const list = async (bearer: string) =>
    (
      await http(`${app.url}/app/v1/execute`, {
        token: bearer,
        json: { script: 'const p = await organizations_list({}); return (Array.isArray(p) ? p : p.items).map((o) => o.slug).sort();' },
      })
    ).body.result;
  t.same(
    (await list(token)).filter((s: string) => s.startsWith('person-')),
    ['person-home', 'person-second'],
    "a person's token lists all their organizations",
  );
  t.same(await list(key), ['person-home'], 'an API key: its own organization only');
  t.same(await list(narrow), ['person-home'], 'a token without org:read: its own organization only');
  t.ok(home.id, 'the home organization exists');
});
