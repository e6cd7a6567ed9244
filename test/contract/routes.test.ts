// Contract: a representative request for every route the OpenAPI document lists, its live response validated
// against the document. Routes checked in their own area's contract tests are named in CHECKED_ELSEWHERE; a new
// route that nobody checks fails here.
import t from 'tap';
import { randomBytes } from 'node:crypto';
import { request } from 'undici';
import { startTestApp } from '../helpers/app.ts';
import { http, type JsonResponse } from '../helpers/http.ts';
import { contract } from '../helpers/openapi-contract.ts';
import { approveAuthorization, authorizeUrl, createOrganization, pkce, registerClient, revokeRequest, signInCookie, exchangeCode } from '../helpers/oauth.ts';

const CHECKED_ELSEWHERE = [
  // test/identity/openapi.test.ts
  'POST /auth/sign-in/magic-link',
  'GET /auth/magic-link/verify',
  'GET /auth/magic-link',
  'GET /auth/sign-in',
  'GET /auth/get-session',
  'POST /auth/sign-out',
  'POST /auth/organization/create',
  'GET /auth/organization/list',
  'GET /auth/organization/get',
  'POST /auth/organization/invite-member',
  'GET /auth/organization/list-invitations',
  'POST /auth/organization/accept-invitation',
  'POST /auth/organization/update-member-role',
  'POST /auth/organization/cancel-invitation',
  'POST /auth/organization/set-active',
  'POST /auth/organization/remove-member',
  'POST /auth/organization/reject-invitation',
  'GET /auth/organization/invitation',
  // test/access/mcp-access.test.ts
  'GET /auth/organization/mcp-access',
  'POST /auth/organization/set-mcp-access',
  // test/oauth/discovery.test.ts
  'GET /.well-known/oauth-authorization-server',
  'GET /.well-known/openid-configuration',
  'GET /.well-known/oauth-protected-resource/v1/mcp',
  'GET /.well-known/oauth-protected-resource/mcp',
  'GET /oauth/jwks',
  'POST /oauth/register',
  // test/console/front.test.ts
  'GET /',
  // test/console/activity.test.ts
  'GET /console/activity',
  'GET /console/activity/executions.csv',
  // test/console/polish.test.ts
  'POST /console/actions/invitation-resend',
  // test/console/files.test.ts
  'POST /console/actions/file-trash',
  'POST /console/actions/files-bulk',
  'POST /console/actions/file-delete',
  'POST /console/actions/file-rename',
  'POST /console/api/upload_begin',
  'POST /console/api/upload_status',
  'POST /console/api/upload_complete',
  'POST /console/api/upload_abort',
  // test/console/http.test.ts
  'GET /console',
  'GET /console/members',
  'GET /console/files',
  'GET /console/files/trash',
  'GET /console/files/details',
  'POST /console/actions/organization-create',
  'POST /console/actions/organization-switch',
  'POST /console/actions/invitation-accept',
  'POST /console/actions/invitation-reject',
  'POST /console/actions/member-invite',
  'POST /console/actions/invitation-cancel',
  'POST /console/actions/member-role',
  'POST /console/actions/member-remove',
  'POST /console/actions/file-restore',
  'POST /console/actions/sign-out',
  'GET /console/assets/console.css',
  'GET /console/assets/console.js',
  'GET /console/assets/files.js',
  // test/console/agents.test.ts
  'GET /console/agents',
  'POST /console/actions/grant-revoke',
  'POST /console/actions/mcp-access-set',
  'POST /console/actions/api-key-create',
  'POST /console/actions/api-key-revoke',
  // test/files/archive-access.test.ts
  'POST /app/v1/files/import',
  'POST /app/v1/files/export',
  'GET /v1/mcp/files/exports/{exportId}/download',
  // test/app/app-v1.test.ts, test/spreadsheets/schema-route.test.ts, test/contract/openapi.test.ts
  'GET /app/v1/context',
  'GET /app/v1/files',
  'GET /app/v1/files/by-path',
  'POST /app/v1/execute',
  'GET /schema/spreadsheet/1',
  'GET /openapi.json',
  'GET /api',
];

t.test('every documented route answers as documented', async (t) => {
  const app = await startTestApp(t, { env: { RATE_LIMIT_MAX: '100000', TRUST_PROXY: 'true' } });
  const doc = (await http(`${app.url}/openapi.json`)).body;
  const c = contract(doc);
  const checked = new Set<string>();
  const check = (method: string, path: string, res: JsonResponse) => {
    checked.add(`${method.toUpperCase()} ${path}`);
    c.check(t, method, path, res);
  };
  const token = await app.token({ email: 'routes@example.com' });
  const rpc = (method: string, params?: unknown) => ({ jsonrpc: '2.0', id: 1, method, ...(params ? { params } : {}) });

  // MCP, both paths
  for (const path of ['/v1/mcp', '/mcp']) {
    check('post', path, await http(`${app.url}${path}`, { token, json: rpc('tools/list') }));
    check('post', path, await http(`${app.url}${path}`, { token, json: rpc('tools/call', { name: 'execute', arguments: { script: 'return 1' } }) }));
    check('post', path, await http(`${app.url}${path}`, { json: rpc('tools/list') }));
    check('post', path, await http(`${app.url}${path}`, { token, json: [rpc('ping')] }));
    check('get', path, await http(`${app.url}${path}`, { token }));
    check('delete', path, await http(`${app.url}${path}`, { method: 'DELETE', token }));
  }

  // Transfers: a part, a wrong-size part, a download, a range, a missing file
  const exec = async (script: string) =>
    (await http(`${app.url}/v1/mcp`, { token, json: rpc('tools/call', { name: 'execute', arguments: { script } }) })).body.result.structuredContent.result;
  const data = randomBytes(1000);
  const up = await exec(`return await upload_begin({ name: "contract.bin", mediaType: "application/x-contract", size: ${data.length} });`);
  const put = (body: Buffer, n = 1) =>
    request(`${app.url}/v1/mcp/uploads/${up.uploadId}/parts/${n}`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/octet-stream' },
      body,
    })
      .then(async (r) => ({ status: r.statusCode, headers: r.headers, text: await r.body.text() }))
      .then((r) => ({ ...r, body: r.text ? JSON.parse(r.text) : undefined }));
  const partPath = '/v1/mcp/uploads/{uploadId}/parts/{partNumber}';
  check('put', partPath, await put(data.subarray(0, 10)));
  check('put', partPath, await put(data));
  check('put', partPath, await put(data, 2));
  const done = await exec(`return await upload_complete({ uploadId: ${JSON.stringify(up.uploadId)} });`);
  const dl = '/v1/mcp/files/{fileId}/download';
  const download = (headers: Record<string, string> = {}) =>
    request(`${app.url}/v1/mcp/files/${done.file.fileId}/download`, { headers: { authorization: `Bearer ${token}`, ...headers } }).then(async (r) => ({
      status: r.statusCode,
      headers: r.headers,
      text: await r.body.text(),
      body: undefined as unknown,
    }));
  check('get', dl, await download());
  check('get', dl, await download({ range: 'bytes=0-9' }));
  check('get', dl, await download({ range: 'bytes=5000-6000' }));
  check('get', dl, await http(`${app.url}/v1/mcp/files/fil_aaaaaaaaaaaaaaaaaaaaaaaaaa/download`, { token }));

  // /ask
  check('post', '/ask', await http(`${app.url}/ask`, { json: { query: { text: 'how do I upload a file' }, prefer: { streaming: false } } }));
  check('post', '/ask', await http(`${app.url}/ask`, { json: { query: {} } }));

  // Health probes (the 503 of /health/ready is checked in test/platform/operations.test.ts)
  check('get', '/health/live', await http(`${app.url}/health/live`));
  check('get', '/health/ready', await http(`${app.url}/health/ready`));

  // The magic-link landing page's button posts the token; an unknown one is refused without a session.
  check('post', '/auth/magic-link/verify', await http(`${app.url}/auth/magic-link/verify`, { json: { token: 'unknown-token' }, headers: { origin: app.url } }));

  // OAuth: authorize (page, consent post), token, revoke
  const cookie = await signInCookie(app, 'routes-oauth@example.com');
  await createOrganization(app, cookie, 'routes-org');
  const client = await registerClient(app);
  const pair = pkce();
  const url = authorizeUrl(app, { clientId: client.client_id, challenge: pair.challenge, scope: 'files:read offline_access' });
  const page = await http(url, { headers: { cookie } });
  check('get', '/oauth/authorize', page);
  check('get', '/oauth/authorize', await http(authorizeUrl(app, { clientId: 'unknown', challenge: pair.challenge })));
  const approved = await approveAuthorization(url, { cookie });
  check(
    'post',
    '/oauth/authorize',
    await http(`${app.url}/oauth/authorize`, {
      method: 'POST',
      body: 'csrf_token=bad',
      headers: { cookie, 'content-type': 'application/x-www-form-urlencoded', origin: app.url },
    }),
  );
  const tokens = await exchangeCode(app, { clientId: client.client_id, code: approved.code!, verifier: pair.verifier });
  check('post', '/oauth/token', tokens);
  check('post', '/oauth/token', await exchangeCode(app, { clientId: client.client_id, code: approved.code!, verifier: pair.verifier }));
  check('post', '/oauth/revoke', await revokeRequest(app, { clientId: client.client_id, token: tokens.body.refresh_token }));

  const documented = Object.entries<Record<string, unknown>>(doc.paths).flatMap(([path, ops]) => Object.keys(ops).map((m) => `${m.toUpperCase()} ${path}`));
  const unchecked = documented.filter((op) => !checked.has(op) && !CHECKED_ELSEWHERE.includes(op));
  t.same(unchecked, [], 'every documented operation has a contract check');
  t.same(
    CHECKED_ELSEWHERE.filter((op) => !documented.includes(op)),
    [],
    'no stale entries',
  );
});
