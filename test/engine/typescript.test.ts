// Scripts written in TypeScript run (erasable syntax stripped on the host, lines kept); what cannot be erased is a
// syntax_error with its line; a misspelt binding name is answered with the close names and a pointer to `search`.
import t from 'tap';
import { BINDINGS, FakeHost } from './helpers/fake-host.ts';
import { startEngine } from './helpers/engine.ts';
import { closeNames } from '../../engine/hints.ts';

const engine = await startEngine({ poolSize: 1 });
t.teardown(() => engine.close());
const run = (source: string) => engine.execute({ source, bindings: BINDINGS, hostCall: new FakeHost().hostCall });

t.test('erasable TypeScript runs as written', async (t) => {
  for (const [source, expected] of [
    ['const n: number = 41;\nreturn n + 1;', 42],
    [
      'interface Row { name: string; size?: number }\ntype Id = string;\nconst rows: Row[] = [{ name: "a" }];\nconst id = "x" as Id;\nreturn rows.map((r: Row): string => r.name + id);',
      ['ax'],
    ],
    ['function pick<T>(xs: T[], i: number): T { return xs[i]!; }\nreturn pick<string>(["a", "b"], 1);', 'b'],
    ['const c = (await context()) satisfies object as { org: string };\nlet u: unknown;\nreturn typeof c;', 'object'],
    ['class Box { value: number; constructor(v: number) { this.value = v; } }\nreturn new Box(3).value;', 3],
  ] as const) {
    const r = await run(source);
    t.same({ ok: r.ok, result: r.result, error: r.error }, { ok: true, result: expected, error: undefined }, source.split('\n')[0]);
  }
});

t.test("line numbers are the author's after stripping", async (t) => {
  const r = await run('const a: string = "x";\ninterface I { x: number }\n\nthrow new Error("boom at 4");');
  t.match(r.error, { type: 'script_error', line: 4 });
  const bad = await run('const a: number = 1;\n\nreturn a +;');
  t.match(bad.error, { type: 'syntax_error', line: 3 });
});

t.test('non-erasable TypeScript is a clear syntax_error with its line', async (t) => {
  for (const [source, line, what] of [
    ['const a = 1;\nenum Color { Red, Green }\nreturn Color.Red;', 2, /enum/],
    ['const a: number = 1;\n\n\nnamespace N { export const x = 1; }\nreturn 1;', 4, /namespace/],
    ['class P { constructor(private x: number) {} }\nreturn new P(1);', 1, /parameter propert/],
  ] as const) {
    const r = await run(source);
    t.equal(r.ok, false);
    t.match(r.error, { type: 'syntax_error', line, message: what }, source.split('\n')[1] ?? source);
    t.match(r.error?.message, /erasable TypeScript/);
  }
});

t.test("plain JavaScript syntax errors keep JavaScript's message; a wrapper escape is still refused", async (t) => {
  t.match((await run('return 1 +;')).error, { type: 'syntax_error', line: 1, message: /Unexpected token/ });
  const escape = await run('}); globalThis.x = 1; (async function () {');
  t.equal(escape.error?.type, 'syntax_error');
  const typed = await run('const x: number = 1; }); globalThis.y = 1; (async function () {');
  t.equal(typed.error?.type, 'syntax_error', 'a TypeScript source cannot close the wrapper either');
});

t.test('an unknown global names the close bindings and says search lists them', async (t) => {
  const r = await run('return await file_list({});');
  t.equal(r.error?.type, 'script_error');
  t.match(r.error?.message, /^ReferenceError: file_list is not defined\. Did you mean files_list\b/);
  t.match(r.error?.message, /search tool lists them/);
  t.match(r.error?.resolution, /search/);
  const far = await run('return zzqqxx;');
  t.match(far.error?.message, /zzqqxx is not defined\. It is not a binding: .*search tool/);
  t.same(closeNames('list_files', ['files_list', 'files_get', 'members_list']).slice(0, 1), ['files_list'], 'word order swapped');
  t.same(closeNames('filesGet', ['files_list', 'files_get']).slice(0, 1), ['files_get'], 'camelCase');
  t.same(closeNames('upload_start', ['upload_begin', 'upload_status', 'files_get']).includes('upload_begin'), true);
  const caught = await run('try { file_get({}); } catch (e) { return String(e); }');
  t.equal(caught.result, 'ReferenceError: file_get is not defined', "a script that catches it sees V8's own error");
});
