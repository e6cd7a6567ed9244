// The layers and their doors, read from the product's own imports: engine ↛ runtime-api ↛ server, the CLI over HTTP
// only, each layer entered through its index, and no import cycles (a type-only import counts: it is still an arrow
// a reader has to follow).
import t from 'tap';
import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

const ROOT = resolve(import.meta.dirname, '../..');
const LAYERS = ['engine', 'runtime-api', 'server', 'cli'] as const;
type Layer = (typeof LAYERS)[number];

/** Relative specifiers in static imports and re-exports, `import type`, and dynamic `import('…')`. */
export function importsOf(text: string): string[] {
  const found: string[] = [];
  const pattern = /(?:^|[;\s])(?:import|export)\s[^'"`;]*?\sfrom\s*['"]([^'"]+)['"]|(?:^|[;\s])import\s*['"]([^'"]+)['"]|\bimport\(\s*['"]([^'"]+)['"]\s*\)/gm;
  for (const m of text.matchAll(pattern)) {
    const specifier = m[1] ?? m[2] ?? m[3];
    if (specifier.startsWith('.')) found.push(specifier);
  }
  return found;
}

function productFiles(layer: Layer): string[] {
  return readdirSync(join(ROOT, layer), { recursive: true, encoding: 'utf8' })
    .filter((f) => /\.(ts|js|mjs)$/.test(f) && !f.endsWith('.d.ts') && !f.includes('node_modules') && !f.includes('dist/'))
    .map((f) => join(layer, f));
}

const graph = new Map<string, string[]>();
for (const layer of LAYERS) {
  for (const file of productFiles(layer)) {
    const text = readFileSync(join(ROOT, file), 'utf8');
    graph.set(
      file,
      importsOf(text).map((s) => relative(ROOT, resolve(ROOT, dirname(file), s))),
    );
  }
}
const layerOf = (file: string) => LAYERS.find((l) => file.startsWith(`${l}/`));

t.test('the import reader sees every form of import', async (t) => {
  t.same(
    importsOf(
      [
        "import a from './a.ts';",
        "import type { B } from '../b.ts';",
        "import {\n  c,\n  type D,\n} from './c.ts';",
        "export { e } from './e.ts';",
        "export * as f from './f.ts';",
        "import './g.ts';",
        "const h = await import('./h.ts');",
        "import * as i from 'node:fs';",
        "// import x from 'nowhere'",
      ].join('\n'),
    ),
    ['./a.ts', '../b.ts', './c.ts', './e.ts', './f.ts', './g.ts', './h.ts'],
  );
  t.ok(graph.size > 250, `${graph.size} product files read`);
});

t.test('each layer imports only the layers below it, through their front doors', async (t) => {
  // What a layer may reach of another: the other's door, and a few named rooms for bootstrap.
  const allowed: Record<Layer, (from: string, to: string) => boolean> = {
    engine: () => false,
    'runtime-api': (_from, to) => to === 'engine/index.ts',
    server: (from, to) =>
      to === 'runtime-api/index.ts' ||
      to === 'engine/index.ts' ||
      // Bootstrap opens the database and the blob stores before there is anything to call through the door.
      (from === 'server/bootstrap.ts' && (to === 'runtime-api/store/migrate.ts' || to.startsWith('runtime-api/blobs/'))),
    cli: () => false,
  };
  const breaches: string[] = [];
  for (const [from, targets] of graph) {
    const fromLayer = layerOf(from)!;
    for (const to of targets) {
      const toLayer = layerOf(to);
      if (!toLayer || toLayer === fromLayer) continue;
      if (!allowed[fromLayer](from, to)) breaches.push(`${from} → ${to}`);
    }
  }
  t.same(breaches, [], 'no import crosses a layer except through its door');
});

t.test("the server's plumbing knows none of its endpoints", async (t) => {
  // HTTP plumbing and middleware are mounted by the app, which hands them what they need to know of the routes.
  const plumbing = /^server\/(http|middleware|i18n|mail)\//;
  const endpoints = /^server\/(routes|console|mcp|oauth|ask|openapi|pages|ops)\//;
  const breaches = [...graph].flatMap(([from, targets]) =>
    plumbing.test(from) ? targets.filter((to) => endpoints.test(to)).map((to) => `${from} → ${to}`) : [],
  );
  t.same(breaches, []);
});

t.test('inside the runtime API, script orchestration sits above the registry and the chokepoint', async (t) => {
  // execution/ → registry, invoke → bindings → services → store: nothing below reaches back up into execution/ (only
  // the door re-exports it), and invoke, the registry and the binding declarations reach no service.
  const execution = (file: string) => file.startsWith('runtime-api/execution/');
  const core = new Set(['runtime-api/invoke.ts', 'runtime-api/registry.ts', 'runtime-api/define.ts', 'runtime-api/caller.ts']);
  const breaches = [...graph].flatMap(([from, targets]) => {
    if (!from.startsWith('runtime-api/') || from === 'runtime-api/index.ts') return [];
    return targets
      .filter((to) => (execution(to) && !execution(from)) || (core.has(from) && /^runtime-api\/(services|execution)\//.test(to)))
      .map((to) => `${from} → ${to}`);
  });
  t.same(breaches, []);
  t.ok([...graph.keys()].some(execution), 'runtime-api/execution/ exists');
});
t.test('no import cycles', async (t) => {
  const cycles: string[] = [];
  const state = new Map<string, 'open' | 'done'>();
  const path: string[] = [];
  const visit = (file: string) => {
    state.set(file, 'open');
    path.push(file);
    for (const next of graph.get(file) ?? []) {
      if (!graph.has(next)) continue;
      if (state.get(next) === 'open') cycles.push([...path.slice(path.indexOf(next)), next].join(' → '));
      else if (!state.has(next)) visit(next);
    }
    path.pop();
    state.set(file, 'done');
  };
  for (const file of graph.keys()) if (!state.has(file)) visit(file);
  t.same(cycles, [], 'every arrow between files points one way');
});
