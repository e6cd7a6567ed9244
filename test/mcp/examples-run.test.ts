// Examples are tests: every example we publish (the execute tool's text, each binding's examples as search "full"
// returns them, the @example blocks of the committed sandbox-typings, the public site's pages and the README) runs
// through MCP execute against a real organization. Placeholder ids ("fil_...", "upl_...", or a free `fileId` as the
// site's snippets write it) are replaced with real ones; an example may meet a domain refusal (a tool_error such as a
// conflict), but never a syntax or script error, which would mean it is wrong. The execute tool's own example, the
// first script an agent copies, must succeed outright.
// Examples of bindings an access token may never call (session-only ones, such as mcp_access_set) run as a signed-in
// owner through /app/v1/execute, the face people use for them.
import t from 'tap';
import { readFile, readdir } from 'node:fs/promises';
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
      if (line.startsWith('@example')) {
        if (current) out.push(current.join('\n').trim());
        current = [];
        continue;
      }
      if (line.startsWith('@')) {
        if (current) out.push(current.join('\n').trim());
        current = null;
        continue;
      }
      current?.push(line);
    }
    if (current) out.push(current.join('\n').trim());
  }
  return out.filter(Boolean);
}

/** Inline code that awaits a binding, from prose (site pages, README): `...await ...` or '...await ...' in a shell line. */
function proseExamples(text: string): string[] {
  const inline = [...text.matchAll(/`([^`\n]*\bawait [^`\n]*)`/g)].map((m) => m[1]);
  const shell = [...text.matchAll(/echo '([^']*\bawait [^']*)'/g)].map((m) => m[1]);
  return [...inline, ...shell];
}

async function siteExamples(): Promise<string[]> {
  const root = new URL('../../fixtures/site/pages/', import.meta.url);
  const out: string[] = [];
  for (const lang of await readdir(root)) {
    for (const file of await readdir(new URL(`${lang}/`, root))) {
      const page = JSON.parse(await readFile(new URL(`${lang}/${file}`, root), 'utf8'));
      out.push(...proseExamples(JSON.stringify(page).replaceAll('\\"', '"')));
    }
  }
  return out;
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
  const faceFor = (script: string) => (sessionOnly.some((name) => new RegExp(`\\b${name}\\(`).test(script)) ? asSession : overMcp);

  const tools = (await call(rpc('tools/list'))).body.result.tools;
  const fromTools = [...tools[0].description.matchAll(/`([^`]*await [^`]*)`/g)].map((m: RegExpMatchArray) => m[1]);
  const full = (await call(rpc('tools/call', { name: 'search', arguments: { query: '', limit: 50, detail: 'full' } }))).body.result.structuredContent;
  const fromSearch = full.results.flatMap((r: { examples?: string[] }) => r.examples ?? []);
  const fromTypings = typingExamples(await readFile(new URL('../../sandbox-typings/index.d.ts', import.meta.url), 'utf8'));
  t.ok(fromTools.length >= 1, `${fromTools.length} in the execute tool text`);
  t.ok(fromSearch.length >= 20, `${fromSearch.length} in search results`);
  t.same([...fromTypings].sort(), [...fromSearch].sort(), 'the typings carry the same examples as search');
  const fromSite = await siteExamples();
  const fromReadme = (
    await Promise.all(['README.md', 'docs/usage.md', 'docs/cli.md'].map((file) => readFile(new URL(`../../${file}`, import.meta.url), 'utf8')))
  ).flatMap(proseExamples);
  t.ok(fromSite.length >= 10, `${fromSite.length} on the public site's pages`);
  t.ok(fromReadme.length >= 1, `${fromReadme.length} in the README and the guides of docs/`);

  for (const example of [...new Set([...fromTools, ...fromSearch, ...fromTypings, ...fromSite, ...fromReadme])]) {
    // Fresh real ids for each example (some delete or complete what they are given).
    const execute = faceFor(example);
    const seeded = await execute(
      'const f = await files_write_text({ name: `reports/seed-${Date.now()}-${Math.random()}.csv`, text: "a,b\\n1,2\\n" });' +
        ' const u = await upload_begin({ name: `big-${Date.now()}-${Math.random()}.bin`, size: 10 }); return { fileId: f.fileId, uploadId: u.uploadId };',
    );
    t.equal(seeded.ok, true, 'seeded');
    let script = example.replaceAll('fil_...', seeded.result.fileId).replaceAll('upl_...', seeded.result.uploadId);
    // The site's snippets name the file they act on `fileId`, left for the reader to fill in.
    if (/\bfileId\b(?!\s*:)/.test(script) && !/\b(const|let)\s+(\{[^}]*\bfileId\b|fileId\b)/.test(script))
      script = `const fileId = ${JSON.stringify(seeded.result.fileId)};\n${script}`;
    const r = await execute(script);
    const what = example.split('\n')[0];
    t.ok(r.ok || r.error?.type === 'tool_error', `${what}: ${r.ok ? 'ok' : `${r.error.type} ${r.error.code ?? ''} ${r.error.message}`}`);
    t.not(r.error?.type, 'script_error', `${what}: no script error`);
    t.not(r.error?.type, 'syntax_error', `${what}: no syntax error`);
    if (fromTools.includes(example)) t.equal(r.ok, true, `${what}: the execute tool's example succeeds`);
  }
});
