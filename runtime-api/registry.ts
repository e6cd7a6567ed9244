// The explicit list of bindings. Adding one is one file plus one line here.
import type { Binding } from './define.ts';
import { context } from './bindings/context/context.ts';

export const BINDINGS: readonly Binding[] = [
  context,
];

const BY_NAME = new Map(BINDINGS.map((b) => [b.name, b]));

export function findBinding(name: string): Binding | undefined {
  return BY_NAME.get(name);
}
