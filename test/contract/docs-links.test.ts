// The README and docs/ are what a newcomer reads first: every relative link and every repository path they name in
// backticks must exist, so that a move of a file or folder fails here rather than in a reader's hands.
import t from 'tap';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

const ROOT = resolve(import.meta.dirname, '../..');
const pages = [
  'README.md',
  ...readdirSync(join(ROOT, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
];
/** Top-level folders of the repository: a backticked path starting with one of them names a file or folder. */
const TOP = ['engine', 'runtime-api', 'server', 'cli', 'test', 'bench', 'scripts', 'bin', 'fixtures', 'sandbox-typings', 'docs'];

for (const page of pages) {
  t.test(page, async (t) => {
    const text = readFileSync(join(ROOT, page), 'utf8');
    const missing: string[] = [];
    for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
      if (/^(https?:|mailto:|#)/.test(target)) continue;
      const path = target.split('#')[0];
      if (!existsSync(resolve(ROOT, dirname(page), path))) missing.push(`link ${target}`);
    }
    for (const [, path] of text.matchAll(/`((?:[\w.-]+\/)+[\w.-]*)`/g)) {
      const top = path.split('/')[0];
      // Paths with placeholders (`<area>`, `…`) or globs name a shape, not a file.
      if (!TOP.includes(top) || /[<>*…]/.test(path)) continue;
      if (!existsSync(join(ROOT, path))) missing.push(`path ${path}`);
    }
    t.same(missing, [], 'every link and named path exists');
  });
}
