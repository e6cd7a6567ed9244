// The explicit list of bindings. Adding one is one file plus one line here.
import type { Binding } from './define.ts';
import { context } from './bindings/context/context.ts';
import { executions_list } from './bindings/executions/executions_list.ts';

export const BINDINGS: readonly Binding[] = [
  context,
  executions_list,
];

const BY_NAME = new Map(BINDINGS.map((b) => [b.name, b]));

export function findBinding(name: string): Binding | undefined {
  return BY_NAME.get(name);
}
