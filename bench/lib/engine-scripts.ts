// The engine benchmarks' scripts and their host: (a) the smallest script, (b) two host calls answered at once, (c) the
// kind of work scripts do once the data is in (build, sort and group 2,000 rows).
import type { HostCall } from '../../engine/index.ts';

export const SCRIPTS = {
  a: 'return 1 + 1',
  b: 'const page = await files_list({ limit: 5 }); const ctx = await context(); return page.items.length + ctx.scopes.length',
  // Beyond the brief's two: the kind of work scripts do once the data is in (build, sort, group 2,000 rows).
  c: `const rows = [];
for (let i = 0; i < 2000; i++) rows.push({ id: i, name: 'file-' + ((i * 7919) % 2000), size: (i * 104729) % 100000 });
rows.sort((x, y) => (x.name < y.name ? -1 : x.name > y.name ? 1 : 0));
const byPrefix = {};
for (const r of rows) { const k = r.name.slice(0, 7); byPrefix[k] = (byPrefix[k] ?? 0) + r.size; }
return Object.keys(byPrefix).length;`,
};
/** Both only read (as the server declares them): a run they were part of may run again if its host dies. */
export const BINDINGS = ['context', 'files_list'];
const REPLIES: Record<string, string> = { files_list: '{"items":[],"nextCursor":null}', context: '{"scopes":["files:read"]}' };
/** The host answers at once with a small JSON: the bench measures the engine, not the services. */
export const hostCall: HostCall = async (name) => ({ ok: true, json: REPLIES[name] ?? 'null' });
