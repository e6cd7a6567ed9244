// npm run gen:typings: write sandbox-typings/index.d.ts from the binding registry (committed; a test fails when stale).
import { writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { BINDINGS } from '../runtime-api/registry.ts';
import { sandboxTypings } from '../runtime-api/project/to-dts.ts';

const target = fileURLToPath(new URL('../sandbox-typings/index.d.ts', import.meta.url));
await writeFile(target, sandboxTypings(BINDINGS));
process.stdout.write(`wrote ${target}\n`);
