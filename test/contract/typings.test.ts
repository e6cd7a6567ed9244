// The committed sandbox typings are exactly what the registry generates, and the example scripts type-check
// against them (a script with a wrong argument does not).
import t from 'tap';
import { readFile, readdir, mkdtemp, writeFile, rm, mkdir } from 'node:fs/promises';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { BINDINGS } from '../../runtime-api/registry.ts';
import { sandboxTypings } from '../../runtime-api/project/to-dts.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const run = promisify(execFile);

t.test('sandbox-typings/index.d.ts is up to date (npm run gen:typings)', async (t) => {
  const committed = await readFile(join(ROOT, 'sandbox-typings/index.d.ts'), 'utf8');
  t.equal(committed, sandboxTypings(BINDINGS), 'regenerate with npm run gen:typings');
  for (const b of BINDINGS) t.match(committed, `declare function ${b.name}(`, `${b.name} is declared`);
});

/** tap preloads its own hooks through NODE_OPTIONS; tsc must not inherit them. */
function cleanEnv(): NodeJS.ProcessEnv {
  const env = { ...process.env };
  delete env.NODE_OPTIONS;
  return env;
}

/**
 * TypeScript 7's native compiler, run directly (its JS launcher cannot load under tap's require hooks), found as the
 * `typescript` package finds it: its optional dependency @typescript/typescript-<platform>-<arch>, resolved from it.
 */
function nativeTsc(): string {
  const fromTypescript = createRequire(createRequire(import.meta.url).resolve('typescript/package.json'));
  const pkg = fromTypescript.resolve(`@typescript/typescript-${process.platform}-${process.arch}/package.json`);
  return join(dirname(pkg), 'lib', process.platform === 'win32' ? 'tsc.exe' : 'tsc');
}

/** Type-check script bodies as a plain-JavaScript editor would (checkJs, not strict: `let cursor = null` is fine),
 * each wrapped in an async function, with the globals from the typings: calls must match the bindings. */
async function typecheck(scripts: Record<string, string>): Promise<{ ok: boolean; output: string }> {
  const dir = await mkdtemp(join(tmpdir(), 'siglata-typecheck-'));
  try {
    await mkdir(join(dir, 'scripts'));
    for (const [name, source] of Object.entries(scripts)) {
      await writeFile(join(dir, 'scripts', name), `export {};\nasync function script() {\n${source}\n}\nvoid script;\n`);
    }
    await writeFile(
      join(dir, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          allowJs: true,
          checkJs: true,
          noEmit: true,
          strict: false,
          target: 'es2024',
          lib: ['es2024'],
          types: [],
          module: 'esnext',
          moduleResolution: 'bundler',
        },
        files: [join(ROOT, 'sandbox-typings/index.d.ts'), ...Object.keys(scripts).map((n) => `scripts/${n}`)],
      }),
    );
    try {
      const { stdout } = await run(nativeTsc(), ['-p', dir], { env: cleanEnv() });
      return { ok: true, output: stdout };
    } catch (err) {
      const e = err as { stdout?: string; stderr?: string };
      return { ok: false, output: `${e.stdout ?? ''}${e.stderr ?? ''}` || String(err) };
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

t.test('fixtures/scripts/examples type-check against the typings', async (t) => {
  const dir = join(ROOT, 'fixtures/scripts/examples');
  const names = (await readdir(dir)).filter((n) => n.endsWith('.js'));
  t.ok(names.length >= 4, 'there are examples');
  const scripts = Object.fromEntries(await Promise.all(names.map(async (n) => [n, await readFile(join(dir, n), 'utf8')] as const)));
  const result = await typecheck(scripts);
  t.ok(result.ok, result.output);
});

t.test('a script calling a binding wrongly fails the type-check', async (t) => {
  const result = await typecheck({
    'wrong-args.js': 'const c = await context({ bogus: 1 });\nreturn c.role;',
    'wrong-type.js': 'return await files_list({ state: 5 });',
    'wrong-field.js': 'const { items } = await files_list({});\nreturn items[0].byteLength;',
  });
  t.notOk(result.ok);
  t.match(result.output, /wrong-args\.js/);
  t.match(result.output, /wrong-type\.js/);
  t.match(result.output, /wrong-field\.js/);
});
