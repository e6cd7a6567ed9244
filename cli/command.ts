// The shape of one command: its options (node:util parseArgs), its help in both languages, and what it runs.
// main.ts parses and dispatches; help text is generated from these declarations only.
import type { ParseArgsOptionDescriptor } from 'node:util';
import type { CommandContext } from './context.ts';

export interface OptionSpec extends ParseArgsOptionDescriptor {
  /** `[en-US, pt-BR]` help; the value's placeholder (e.g. `URL`) for string options. */
  help: readonly [string, string];
  placeholder?: string;
}

export interface Command {
  name: string;
  /** `<script.js | ->`, `<path>` ...: the positional part of the usage line. */
  args: string;
  summary: readonly [string, string];
  /** Longer help and examples, both languages. */
  details?: readonly [string, string];
  options: Record<string, OptionSpec>;
  /** Positional arguments: at least `min`, at most `max` (default: unlimited). */
  positionals: { min: number; max?: number; name: string };
  run(ctx: CommandContext, values: Record<string, string | boolean | undefined>, positionals: string[]): Promise<number>;
}

export function defineCommand(command: Command): Command {
  return command;
}

/**
 * A command body that lives in its own module, imported only when the command runs, so `--help`, completion and
 * usage errors never load what transfers need (node:crypto, node:zlib, streams, the HTTP client).
 */
export function lazyRun(load: () => Promise<Command['run']>): Command['run'] {
  return async (ctx, values, positionals) => (await load())(ctx, values, positionals);
}
