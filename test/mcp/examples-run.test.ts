// Examples are tests: every example we publish (the execute tool's text, each binding's examples as search "full"
// returns them, and the @example blocks of the committed sandbox-typings) runs through MCP execute against a real
// organization. Placeholder ids ("fil_...", "upl_...") are replaced with real ones; an example may meet a domain
// refusal (a tool_error such as a conflict), but never a syntax or script error, which would mean it is wrong.
// Examples of bindings an access token may never call (session-only ones, such as mcp_access_set) run as a signed-in
// owner through /app/v1/execute, the face people use for them.
import t from 'tap';
import { readFile } from 'node:fs/promises';
import { http } from '../helpers/http.ts';
import { world } from '../identity/org-helpers.ts';
import { BINDINGS } from '../../runtime-api/registry.ts';

const rpc = (method: string, params?: unknown) => ({ jsonrpc: '2.0', id: 1, method, ...(params !== undefined ? { params } : {}) });

/** The @example blocks of a .d.ts, comment stars removed. */
function typingExamples(dts: string): string[] {
  const out: string[] = [];
  for (const block of dts.matchAll(/\/\*\*([\s\S]*?)\*\//g)) {
    const lines = block[1].split('\n').map((l) => l.replace(/^\s*\* ?/, ''));
    let current: string[] | null = null;
    for (const line of lines) {
      if (line.startsWith('@example')) { if (current) out.push(current.join('\n').trim()); current = []; continue; }
      if (line.startsWith('@')) { if (current) out.push(current.join('\n').trim()); current = null; continue; }
      current?.push(line);
    }
    if (current) out.push(current.join('\n').trim());
  }
  return out.filter(Boolean);
}

t.test('every published example runs against a real organization', async (t) => {
  const w = await world(t);
  const { app } = w;
  const token = await app.token({ email: 'examples@example.com' });
  const owner = await w.user('owner@examples.example');
  await w.org(owner, 'examples-org');
  const call = (body: unknown) => http(`${app.url}/v1/mcp`, { json: body, token });
  const overMcp = async (script: string) => (await call(rpc('tools/call', { name: 'execute', arguments: { script } }))).body.result.structuredContent;
  const asSession = async (script: string) => (await owner.post('/app/v1/execute', { script })).body;
  const sessionOnly = BINDINGS.filter((b) => b.sessionOnly).map((b) => b.name);
  const faceFor = (script: string) => sessionOnly.some((name) => new RegExp(`\\b${name}\\(`).test(script)) ? asSession : overMcp;

  const tools = (await call(rpc('tools/list'))).body.result.tools;
  const fromTools = [...tools[0].description.matchAll(/`([^`]*await [^`]*)`/g)].map((m: RegExpMatchArray) => m[1]);
  const full = (await call(rpc('tools/call', { name: 'search', arguments: { query: '', limit: 50, detail: 'full' } }))).body.result.structuredContent;
  const fromSearch = full.results.flatMap((r: { examples?: string[] }) => r.examples ?? []);
  const fromTypings = typingExamples(await readFile(new URL('../../sandbox-typings/index.d.ts', import.meta.url), 'utf8'));
  t.ok(fromTools.length >= 1, `${fromTools.length} in the execute tool text`);
  t.ok(fromSearch.length >= 20, `${fromSearch.length} in search results`);
  t.same([...fromTypings].sort(), [...fromSearch].sort(), 'the typings carry the same examples as search');

  for (const example of [...new Set([...fromTools, ...fromSearch, ...fromTypings])]) {
    // Fresh real ids for each example (some delete or complete what they are given).
    const execute = faceFor(example);
    const seeded = await execute('const f = await files_write_text({ name: `reports/seed-${Date.now()}-${Math.random()}.csv`, text: "a,b\\n1,2\\n" });'
      + ' const u = await upload_begin({ name: `big-${Date.now()}-${Math.random()}.bin`, byteLength: 10 }); return { fileId: f.fileId, uploadId: u.uploadId };');
    t.equal(seeded.ok, true, 'seeded');
    const script = example.replaceAll('fil_...', seeded.result.fileId).replaceAll('upl_...', seeded.result.uploadId);
    const r = await execute(script);
    const what = example.split('\n')[0];
    t.ok(r.ok || r.error?.type === 'tool_error', `${what}: ${r.ok ? 'ok' : `${r.error.type} ${r.error.code ?? ''} ${r.error.message}`}`);
    t.not(r.error?.type, 'script_error', `${what}: no script error`);
    t.not(r.error?.type, 'syntax_error', `${what}: no syntax error`);
  }
});
