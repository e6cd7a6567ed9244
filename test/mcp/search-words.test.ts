// The MCP `search` tool finds bindings by Portuguese words as well as English ones (each binding declares its pt-BR
// summary and words, none is left out), answers a pt-BR caller in pt-BR, and explains a binding the caller cannot
// call by the reason the call itself would be refused with: a signed-in session only, a missing scope, the role, an
// API key acting for a person.
import t from 'tap';
import { startTestApp } from '../helpers/app.ts';
import { http } from '../helpers/http.ts';
import { BINDINGS } from '../../runtime-api/registry.ts';
import { searchBindings } from '../../server/mcp/search.ts';

const rpc = (params: unknown) => ({ jsonrpc: '2.0', id: 1, method: 'tools/call', params });

t.test('every binding declares pt-BR words and is found by its own summary in either language', async (t) => {
  for (const b of BINDINGS) {
    t.ok(b.pt && b.pt.summary.length > 10 && b.pt.summary !== b.summary, `${b.name} has a pt-BR summary`);
    t.ok(b.pt?.aliases?.length, `${b.name} has pt-BR words`);
    for (const query of [b.summary, b.pt!.summary]) {
      const rank = searchBindings(BINDINGS, query, 50, 'names').results.findIndex((r) => r.name === b.name);
      t.ok(rank >= 0 && rank < 3, `${b.name} is among the first three for "${query.slice(0, 50)}…" (${rank + 1})`);
    }
  }
});

t.test('search over MCP', async (t) => {
  const app = await startTestApp(t, { env: { RATE_LIMIT_MAX: '100000' } });
  const owner = await app.token({ email: 'owner@example.com', org: 'words' });
  const member = await app.token({ email: 'member@example.com', org: 'words', role: 'member' });
  const readOnly = await app.token({ email: 'owner@example.com', org: 'words', scopes: ['files:read'] });
  const search = async (query: string, token = owner, headers: Record<string, string> = {}, limit = 3) =>
    (await http(`${app.url}/v1/mcp`, { json: rpc({ name: 'search', arguments: { query, limit, detail: 'names' } }), token, headers })).body.result;
  const names = async (query: string) => (await search(query)).structuredContent.results.map((r: { name: string }) => r.name) as string[];

  t.test('Portuguese words find the bindings', async (t) => {
    const cases: [string, string][] = [
      ['planilha', 'spreadsheet_read'],
      ['ler planilha', 'spreadsheet_read'],
      ['criar planilha', 'spreadsheet_write'],
      ['arquivos', 'files_list'],
      ['listar arquivos', 'files_list'],
      ['lixeira', 'files_trash'],
      ['esvaziar a lixeira', 'files_delete'],
      ['restaurar arquivo', 'files_restore'],
      ['renomear arquivo', 'files_update'],
      ['convite', 'invitations_received'],
      ['cancelar convite', 'invitation_cancel'],
      ['membros', 'members_list'],
      ['remover membro', 'member_remove'],
      ['chave', 'api_keys_list'],
      ['revogar chave', 'api_keys_revoke'],
      ['envio', 'upload_begin'],
      ['retomar envio', 'upload_status'],
      ['quem sou eu', 'context'],
    ];
    for (const [query, expected] of cases) t.ok((await names(query)).includes(expected), `"${query}" finds ${expected}`);
    t.equal((await names('apagar arquivo'))[0], 'files_trash', 'accents and plurals fold: "apagar arquivo" → files_trash');
    const pt = await search('planilha', owner, { 'x-service-locale': 'pt-BR' });
    t.match(pt.structuredContent.results[0].summary, /^Lê um arquivo CSV ou XLSX/, 'a pt-BR caller reads pt-BR summaries');
    t.match(pt.content[0].text, /de \d+ bindings encontradas/);
  });

  t.test('a refusal is explained by its real reason', async (t) => {
    const session = (await search('mcp_access_set')).structuredContent.results[0];
    t.match(session, { name: 'mcp_access_set', callable: false, refusal: { reason: 'session', code: 'INSUFFICIENT_SCOPE' } });
    t.match(session.refusal.message, /can only be called from a signed-in session/);
    t.notMatch((await search('mcp_access_set')).content[0].text, /needs the scope org:admin/, 'not a scope the token could ask for');
    t.match((await search('mcp_access_set')).content[0].text, /Not callable with your grant: mcp_access_set can only be called from a signed-in session/);
    const role = (await search('api_keys_list', member)).structuredContent.results[0];
    t.match(role, { callable: false, refusal: { reason: 'role', code: 'ORGANIZATION_ADMIN_REQUIRED', message: /owner or admin role/ } });
    const scope = (await search('files_write_text', readOnly)).structuredContent.results[0];
    t.match(scope, { callable: false, refusal: { reason: 'scope', message: /needs the scope files:write/ } });
    t.equal((await search('files_list', readOnly)).structuredContent.results[0].callable, true);
    const pt = await search('mcp_access_set', owner, { 'x-service-locale': 'pt-BR' });
    t.match(pt.content[0].text, /Não pode ser chamada com a sua autorização: mcp_access_set só pode ser chamado a partir de uma sessão autenticada/);

    const created = await http(`${app.url}/app/v1/execute`, {
      json: { script: 'return (await api_keys_create({ name: "ci", scopes: ["files:read", "org:read"] })).key;' },
      token: owner,
    });
    const key = created.body.result as string;
    const personal = (await search('organization_create', key)).structuredContent.results[0];
    t.match(personal, { callable: false, refusal: { reason: 'api_key', message: /acts for a person/ } });

    const index = async (token: string) =>
      (await http(`${app.url}/v1/mcp`, { json: { jsonrpc: '2.0', id: 1, method: 'tools/list' }, token })).body.result.tools[0].description as string;
    t.match(await index(owner), /- mcp_access_set: [^\n]*\[not callable with your grant: needs a signed-in session\]/);
    t.match(await index(member), /- api_keys_list: [^\n]*\[not callable with your grant: needs the owner or admin role\]/);
    t.match(await index(key), /- organization_create: [^\n]*\[not callable with your grant: needs a person signed in, not an API key\]/);
  });
});
