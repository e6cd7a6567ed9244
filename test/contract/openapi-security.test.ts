// /openapi.json as a generated client reads it: credentials go only where an operation's `security` asks for them
// (as swagger-client, openapi-generator and their kin do), so a route that needs a token but says `security: []`
// is unreachable from such a client. Checked against the real server for every operation: what the document says
// a route needs is what the route refuses without.
import t from 'tap';
import { startTestApp } from '../helpers/app.ts';
import { http, type JsonResponse } from '../helpers/http.ts';
import { startSmtpCatcher } from '../helpers/smtp-catcher.ts';
import { signIn } from '../helpers/session.ts';

type Doc = { paths: Record<string, Record<string, Operation>>; components: { securitySchemes: Record<string, Scheme> } };
type Operation = { operationId: string; security?: Record<string, string[]>[]; requestBody?: { content: Record<string, unknown> } };
type Scheme = { type: string; scheme?: string; in?: string; name?: string };

/** What a client was configured with, by security scheme name (a generated client's `securities.authorized`). */
type Credentials = Partial<Record<string, string>>;

/**
 * The headers a generated client adds for `op`: the first security requirement whose every scheme it holds a
 * credential for (an empty requirement, `{}`, is met by none); nothing when `security` is empty.
 */
function credentialHeaders(doc: Doc, op: Operation, credentials: Credentials): Record<string, string> {
  for (const requirement of op.security ?? []) {
    const names = Object.keys(requirement);
    if (!names.length || !names.every((n) => credentials[n] !== undefined)) continue;
    const headers: Record<string, string> = {};
    for (const name of names) {
      const scheme = doc.components.securitySchemes[name];
      if ((scheme.type === 'http' && scheme.scheme === 'bearer') || scheme.type === 'oauth2') headers.authorization = `Bearer ${credentials[name]}`;
      else if (scheme.type === 'apiKey' && scheme.in === 'cookie') headers.cookie = `${scheme.name}=${credentials[name]}`;
    }
    return headers;
  }
  return {};
}

t.test('a client generated from /openapi.json', async (t) => {
  const smtp = await startSmtpCatcher(t);
  const app = await startTestApp(t, { env: { RATE_LIMIT_MAX: '100000', SMTP_URL: smtp.url } });
  const token = await app.token({ email: 'generated@example.com' });
  const session = await signIn(app, smtp, 'generated@example.com');
  const doc = (await http<Doc>(`${app.url}/openapi.json`)).body;
  const operations = Object.entries(doc.paths).flatMap(([path, ops]) => Object.entries(ops).map(([method, op]) => ({ path, method, op })));
  const byId = (id: string) => operations.find((o) => o.op.operationId === id)!;

  /** The request a generated client sends for `operationId`, with the credentials `security` asks for. */
  function send(id: string, credentials: Credentials, body?: unknown): Promise<JsonResponse> {
    const { path, method, op } = byId(id);
    const url = `${app.url}${path.replace(/\{[^}]+\}/g, 'x')}`;
    const headers = { origin: app.url, ...credentialHeaders(doc, op, credentials) };
    const type = Object.keys(op.requestBody?.content ?? {})[0];
    if (!type) return http(url, { method: method.toUpperCase(), headers });
    const payload = type === 'application/json' ? JSON.stringify(body ?? {}) : type === 'application/x-www-form-urlencoded' ? '' : Buffer.alloc(0);
    return http(url, { method: method.toUpperCase(), headers: { ...headers, 'content-type': type }, body: payload });
  }

  const holding = { bearerAuth: token, oauth2: token, sessionCookie: session.token };

  t.test('reaches the MCP endpoint and its alias with its access token', async (t) => {
    for (const id of ['mcp', 'mcpAlias']) {
      const res = await send(id, { bearerAuth: token }, { jsonrpc: '2.0', id: 1, method: 'tools/list' });
      t.equal(res.status, 200, `${id}: the token was sent because security asks for it`);
      t.same(
        res.body.result.tools.map((x: { name: string }) => x.name),
        ['execute', 'search'],
      );
    }
  });

  t.test('sends its credential to GET /api, which serves anonymous callers too', async (t) => {
    const me = await send('getHealth', { bearerAuth: token });
    t.equal(me.body.user?.email, 'generated@example.com');
    t.equal((await send('getHealth', {})).body.user, null);
    t.same(byId('getHealth').op.security?.at(-1), {}, 'the anonymous alternative is listed last');
  });

  t.test('every operation: what security says is what the server does', async (t) => {
    for (const { path, method, op } of operations) {
      const what = `${method.toUpperCase()} ${path}`;
      const security = op.security ?? [];
      const anonymous = security.length === 0 || security.some((r) => Object.keys(r).length === 0);
      const bare = await send(op.operationId, {});
      const refusedForWantOfCredential = bare.status === 401 || (bare.status === 303 && /\/auth\/sign-in/.test(String(bare.headers.location)));
      if (anonymous) {
        t.notOk(refusedForWantOfCredential, `${what}: declared anonymous, and served without a credential (${bare.status})`);
      } else {
        // The consent form answers a post without a session with its own HTML 403.
        const refused = refusedForWantOfCredential || (op.operationId === 'oauthConsent' && bare.status === 403);
        t.ok(refused, `${what}: declares ${JSON.stringify(security)}, and refuses a request without it (${bare.status})`);
        const given = await send(op.operationId, holding);
        t.not(given.status, 401, `${what}: the credential its security names is accepted (${given.status})`);
      }
    }
  });
});
