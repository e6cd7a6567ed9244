// The property-by-property comparison of a plain context and a sandbox context (global-shape.ts), judged against
// global-differences.txt. Needs the sandbox's V8 flags applied in this process first (engine/v8-flags.ts).
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Realms } from './realm.ts';
import { compareShapes, parseAllowed, walkerSource, type AllowedDifference, type Shape } from './global-shape.ts';

export const ALLOWED_FILE = fileURLToPath(new URL('./global-differences.txt', import.meta.url));

export interface GlobalDiff {
  differences: string[];
  unused: AllowedDifference[];
  nodes: { plain: number; sandbox: number };
}

export function globalDifferences(): GlobalDiff {
  const realms = new Realms();
  try {
    const shapes = {} as Record<'plain' | 'sandbox', Shape>;
    for (const mode of ['plain', 'sandbox'] as const) {
      const ctx = realms.context(mode, false);
      shapes[mode] = JSON.parse(ctx.evalSync(walkerSource(), { timeout: 20_000 }) as string) as Shape;
      ctx.release();
    }
    const allowed = parseAllowed(readFileSync(ALLOWED_FILE, 'utf8'));
    const { differences, unused } = compareShapes(shapes.plain, shapes.sandbox, allowed);
    return { differences, unused, nodes: { plain: Object.keys(shapes.plain).length, sandbox: Object.keys(shapes.sandbox).length } };
  } finally {
    realms.dispose();
  }
}
