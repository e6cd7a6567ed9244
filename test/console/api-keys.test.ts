// API keys in the console (bindings api_keys_create/list/revoke): create with scopes and expiry, the key shown
// once, listed with last use, usable as Bearer until revoked from the console. On a server without those bindings
// the page says API keys are not offered and the form answers 404.
import t from 'tap';
import { world } from '../identity/org-helpers.ts';
import { http } from '../helpers/http.ts';
import { consoleForm, consolePage, withoutLabels } from './helpers.ts';

const mcpCall = (url: string, token: string) =>
  http(`${url}/v1/mcp`, {
    token,
    json: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'execute', arguments: { script: 'return (await context()).organization.slug' } } },
  });

t.test('console: API keys', async (t) => {
  const w = await world(t);
  const { app } = w;
  const owner = await w.user('keys-owner@example.com');
  await w.org(owner, 'keys-org');

  const created = await consoleForm(owner, 'api-key-create', { name: 'ci-nightly', expiresInDays: '30', scopes: 'files:read' });
  t.equal(created.status, 200, 'the new key is shown on the answer itself');
  const key = /id="new-key" readonly value="([^"]+)"/.exec(created.text)?.[1] ?? '';
  t.match(key, /^slk_/, 'the key is shown');
  t.match(created.text, /Copy it now: it will not be shown again/);
  t.equal(created.headers['cache-control'], 'no-store');

  const list = await consolePage(owner, '/console/agents');
  t.notOk(list.text.includes(key), 'never shown again');
  const row = () => consolePage(owner, '/console/agents').then((p) => /<tr><td>ci-nightly<\/td>[\s\S]*?<\/tr>/.exec(withoutLabels(p.text))?.[0] ?? '');
  t.match(await row(), /<code>files:read<\/code><\/td><td>active<\/td>/);
  t.match(await row(), /<\/td><td>never<\/td>/, 'never used yet');

  t.equal((await mcpCall(app.url, key)).status, 200, 'the key works as a Bearer credential');
  t.notMatch(await row(), /<\/td><td>never<\/td>/, 'its last use is shown');

  const keyId = /name="keyId" value="([^"]+)"/.exec(await row())?.[1] ?? '';
  const revoked = await consoleForm(owner, 'api-key-revoke', { keyId });
  t.equal(revoked.status, 303);
  t.equal((await mcpCall(app.url, key)).status, 401, 'a revoked key is refused');
  t.match(await row(), /<td>revoked<\/td>/);

  const badScope = await consoleForm(owner, 'api-key-create', { name: 'no-scope', expiresInDays: '30' });
  t.equal(badScope.status, 400, 'at least one scope');
  t.match(badScope.text, /role="alert">/);
});
