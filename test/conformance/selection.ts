// Which test262 files are run: the directories of every builtin the engine's prelude replaces, wraps or removes,
// plus the harness's self-tests, intl402, direct and indirect eval, and Annex B's escape/unescape and RegExp.
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

export const DEFAULT_SELECTION: readonly string[] = [
  'test/harness/',
  'test/built-ins/String/',
  'test/built-ins/RegExp/',
  'test/built-ins/Array/prototype/join/',
  'test/built-ins/Array/prototype/toLocaleString/',
  'test/built-ins/TypedArray/',
  'test/built-ins/TypedArrayConstructors/',
  'test/built-ins/ArrayBuffer/',
  'test/built-ins/Function/',
  'test/built-ins/AsyncFunction/',
  'test/built-ins/GeneratorFunction/',
  'test/built-ins/AsyncGeneratorFunction/',
  'test/built-ins/eval/',
  'test/built-ins/JSON/',
  'test/built-ins/Number/prototype/toLocaleString/',
  'test/built-ins/BigInt/prototype/toLocaleString/',
  'test/built-ins/Date/prototype/toLocaleString/',
  'test/built-ins/Date/prototype/toLocaleDateString/',
  'test/built-ins/Date/prototype/toLocaleTimeString/',
  'test/built-ins/Object/',
  'test/built-ins/FinalizationRegistry/',
  'test/built-ins/WeakRef/',
  'test/built-ins/SharedArrayBuffer/',
  'test/built-ins/Atomics/',
  'test/intl402/',
  'test/language/eval-code/',
  'test/annexB/built-ins/escape/',
  'test/annexB/built-ins/unescape/',
  'test/annexB/built-ins/RegExp/',
];

function walk(root: string, rel: string, out: string[]): void {
  const abs = join(root, rel);
  let st;
  try {
    st = statSync(abs);
  } catch {
    return;
  }
  if (st.isFile()) {
    if (rel.endsWith('.js')) out.push(rel);
    return;
  }
  for (const name of readdirSync(abs).sort()) walk(root, rel === '' ? name : `${rel.replace(/\/$/, '')}/${name}`, out);
}

function globToRegExp(glob: string): RegExp {
  let re = '';
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i];
    if (c === '*' && glob[i + 1] === '*') {
      re += '.*';
      i++;
      if (glob[i + 1] === '/') i++;
    } else if (c === '*') re += '[^/]*';
    else if (c === '?') re += '[^/]';
    else re += c.replace(/[.+^${}()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`^${re}$`);
}

/**
 * The files (paths relative to `root`, sorted) that `patterns` name: each a directory or file path (a prefix), or
 * a glob with `*`, `**` and `?`.
 */
export function selectFiles(root: string, patterns: readonly string[] = DEFAULT_SELECTION): string[] {
  const files = new Set<string>();
  for (const pattern of patterns) {
    if (/[*?]/.test(pattern)) {
      const base = pattern.slice(0, pattern.search(/[*?]/)).replace(/[^/]*$/, '');
      const all: string[] = [];
      walk(root, base, all);
      const re = globToRegExp(pattern);
      for (const f of all) if (re.test(f)) files.add(f);
    } else {
      const all: string[] = [];
      walk(root, pattern, all);
      for (const f of all) files.add(f);
    }
  }
  return [...files].sort();
}
