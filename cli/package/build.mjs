// Builds the installable `siglata` package: cli/ bundled with its one dependency (undici) into dist/siglata.mjs,
// plain JavaScript for Node >= 22, so an install needs nothing from the server's dependencies. Run by `prepack`.
// Code split: what a dynamic import loads (undici, on the first request) is its own chunk, so `--help` parses only
// the command table.
import { build } from 'esbuild';
import { rm } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';

const here = (p) => fileURLToPath(new URL(p, import.meta.url));
await rm(here('./dist'), { recursive: true, force: true });
await build({
  entryPoints: { siglata: here('./entry.mjs') },
  outdir: here('./dist'),
  outExtension: { '.js': '.mjs' },
  chunkNames: '[name]-[hash]',
  splitting: true,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node22',
  minify: true,
  legalComments: 'linked',
  banner: { js: "#!/usr/bin/env node\nimport { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);" },
  logLevel: 'warning',
});
