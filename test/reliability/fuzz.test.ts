// Bad input everywhere: every route of /openapi.json and every binding gets malformed JSON, wrong types,
// huge values, unknown fields, invalid UTF-8 and wrong content types. Each answer must be a 4xx in a documented
// error shape — never a 5xx.
import t from 'tap';
import { request } from 'undici';
import { startTestApp } from '../helpers/app.ts';
import { http } from '../helpers/http.ts';
import { BINDINGS } from '../../runtime-api/registry.ts';
import { invoke } from '../../runtime-api/invoke.ts';
import { invokeDeps } from '../../server/deps.ts';
import { callerFromToken } from '../../server/auth/token-caller.ts';
import { jsonSchemaOf } from '../../runtime-api/project/json-schema.ts';
import { ServiceError } from '../../runtime-api/errors.ts';

const INVALID_UTF8 = Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xc3, 0x28, 0xff, 0xfe, 0x22, 0x7d]);
const WEIRD_STRINGS = ['', ' ', '../../etc/passwd', '%00', 'x'.repeat(5000), '\u0000\u0001', '😀', 'fil_aaaaaaaaaaaaaaaaaaaaaaaaaa', '-1', '1e309'];

function wrongValue(schema: any): unknown[] {
  const type = Array.isArray(schema?.type) ? schema.type[0] : schema?.type;
  switch (type) {
    case 'string':
      return [12345, true, null, { $ne: 1 }, ['a'], 'x'.repeat(300_000)];
    case 'number':
    case 'integer':
      return ['12', -1, 1e308, -1e308, 0.5, null, {}, Number.MAX_SAFE_INTEGER * 4];
    case 'boolean':
      return ['true', 1, null];
    case 'array':
      return ['a', {}, Array.from({ length: 5000 }, () => 'x')];
    case 'object':
      return ['o', [], 42, null];
    default:
      return [null, {}, 'x'.repeat(100_000)];
  }
}

/** Bodies for one request schema: malformed ones first, then each property wrong in turn, then unknown fields. */
function fuzzBodies(schema: any): { body: string | Buffer; type: string }[] {
  const json = (value: unknown) => ({ body: JSON.stringify(value), type: 'application/json' });
  const out = [
    { body: '', type: 'application/json' },
    { body: '{"a":', type: 'application/json' },
    { body: INVALID_UTF8, type: 'application/json' },
    { body: '{"script":"return 1"}', type: 'text/plain' },
    { body: '<x/>', type: 'application/xml' },
    json([]),
    json(null),
    json(42),
    json('text'),
    json({ unknown: true, __proto__x: 1 }),
    json({ constructor: { prototype: { polluted: true } } }),
    { body: JSON.stringify({ pad: 'x'.repeat(2 * 1024 * 1024) }), type: 'application/json' },
  ];
  const props: Record<string, any> = schema?.properties ?? {};
  const base: Record<string, unknown> = {};
  for (const [name, prop] of Object.entries(props))
    base[name] =
      prop?.type === 'string'
        ? 'x'
        : prop?.type === 'integer' || prop?.type === 'number'
          ? 1
          : prop?.type === 'boolean'
            ? true
            : prop?.type === 'array'
              ? []
              : prop?.type === 'object'
                ? {}
                : null;
  for (const [name, prop] of Object.entries(props)) {
    for (const wrong of wrongValue(prop)) out.push(json({ ...base, [name]: wrong }));
  }
  out.push(json({ ...base, extraField: 'nope' }));
  return out;
}

function documentedShape(path: string, body: any, contentType: string): boolean {
  if (contentType.startsWith('text/html')) return true; // the OAuth/sign-in pages answer bad requests with a page
  if (!body || typeof body !== 'object') return false;
  if (path === '/ask') return typeof body._meta === 'object' && Array.isArray(body.results) && typeof body.error === 'object';
  if (path.startsWith('/oauth/') && typeof body.error === 'string') return true; // RFC 6749 / 7591 error bodies
  // The MCP endpoint answers malformed JSON-RPC in JSON-RPC (its documented 400).
  if ((path === '/v1/mcp' || path === '/mcp') && body.jsonrpc === '2.0' && Number.isInteger(body.error?.code) && typeof body.error?.message === 'string')
    return true;
  if (typeof body.code === 'string' && typeof body.message === 'string') return true;
  return typeof body.error?.code === 'string' && typeof body.error?.message === 'string' && typeof body.error?.resolution === 'string';
}

t.test('every route answers bad input with a documented 4xx, never a 5xx', async (t) => {
  const app = await startTestApp(t, { env: { RATE_LIMIT_MAX: '100000000', TRUST_PROXY: 'true' } });
  const token = await app.token({ email: 'fuzz@example.com' });
  const doc = (await http(`${app.url}/openapi.json`)).body;
  const failures: string[] = [];
  let sent = 0;
  let ip = 0;
  for (const [template, ops] of Object.entries<Record<string, any>>(doc.paths)) {
    for (const [method, op] of Object.entries<any>(ops)) {
      const paths = template.includes('{') ? WEIRD_STRINGS.map((w) => template.replace(/\{[^}]+\}/g, encodeURIComponent(w))) : [template];
      const schema = op.requestBody?.content?.['application/json']?.schema;
      const bodies = ['post', 'put'].includes(method) ? fuzzBodies(schema) : [{ body: undefined as unknown as string, type: '' }];
      const queries = (op.parameters ?? [])
        .filter((p: any) => p.in === 'query')
        .flatMap((p: any) => WEIRD_STRINGS.slice(0, 6).map((w) => `${p.name}=${encodeURIComponent(w)}`));
      for (const path of paths) {
        for (const query of ['', ...queries]) {
          for (const { body, type } of bodies) {
            for (const auth of [true, false]) {
              const url = `${app.url}${path}${query ? `?${query}` : ''}`;
              const headers: Record<string, string> = { 'x-forwarded-for': `198.51.100.${(ip++ % 250) + 1}` };
              if (type) headers['content-type'] = type;
              if (auth) headers.authorization = `Bearer ${token}`;
              const res = await request(url, { method: method.toUpperCase() as 'GET', headers, body: body === undefined ? undefined : body });
              const text = await res.body.text();
              sent++;
              const contentType = String(res.headers['content-type'] ?? '');
              let parsed: unknown = null;
              try {
                parsed = JSON.parse(text);
              } catch {
                /* not JSON */
              }
              if (res.statusCode >= 500)
                failures.push(`${method.toUpperCase()} ${path}${query ? `?${query.slice(0, 40)}` : ''} [${type}] → ${res.statusCode} ${text.slice(0, 200)}`);
              else if (res.statusCode >= 400 && res.statusCode !== 405 && !documentedShape(template, parsed, contentType)) {
                failures.push(`${method.toUpperCase()} ${path} [${type}] → ${res.statusCode} undocumented body ${text.slice(0, 200)}`);
              }
            }
          }
        }
      }
    }
  }
  t.ok(sent > 1000, `${sent} requests sent`);
  t.same(failures.slice(0, 30), [], `${failures.length} bad answers`);
});

t.test('every binding answers bad input with a 4xx error, never an internal one', async (t) => {
  const app = await startTestApp(t);
  const caller = (await callerFromToken(app.deps, await app.token({ email: 'fuzzb@example.com' }), 'en-US')).caller;
  const deps = invokeDeps(app.deps);
  const failures: string[] = [];
  for (const binding of BINDINGS) {
    const schema = jsonSchemaOf(binding.input, 'input');
    const inputs: unknown[] = [null, [], 'str', 42, true, { unknown: 1 }, { constructor: { prototype: { x: 1 } } }];
    for (const [name, prop] of Object.entries<any>(schema.properties ?? {})) for (const wrong of wrongValue(prop)) inputs.push({ [name]: wrong });
    for (const input of inputs) {
      try {
        await invoke(binding, input, caller, deps);
      } catch (err) {
        if (!(err instanceof ServiceError) || err.status >= 500) {
          failures.push(`${binding.name}(${JSON.stringify(input).slice(0, 80)}) → ${err instanceof ServiceError ? err.code : String(err)}`);
        }
      }
    }
  }
  t.same(failures, [], 'no binding fails internally on bad input');
});
