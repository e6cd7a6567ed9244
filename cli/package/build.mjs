// Builds the installable `siglata` package: cli/ bundled with its one dependency (undici) into dist/siglata.mjs,
// plain JavaScript for Node >= 22, so an install needs nothing from the server's dependencies. Run by `prepack`.
import { build } from 'esbuild';
import { fileURLToPath } from 'node:url';

const here = (p) => fileURLToPath(new URL(p, import.meta.url));
await build({
  entryPoints: [here('./entry.mjs')],
  outfile: here('./dist/siglata.mjs'),
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node22',
  minify: true,
  legalComments: 'linked',
  banner: { js: "#!/usr/bin/env node\nimport { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);" },
  logLevel: 'warning',
});
