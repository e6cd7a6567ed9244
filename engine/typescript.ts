// Scripts may be TypeScript: agents write against our .d.ts. Erasable syntax (annotations, interfaces, `as`, generics)
// is stripped on the host with Node's own `module.stripTypeScriptTypes` in 'strip' mode, which blanks types with
// whitespace, so every line and column stays where the author wrote it. Plain JavaScript never pays for it: a source
// is stripped only when it does not parse as JavaScript.
import { stripTypeScriptTypes } from 'node:module';
import { checkSyntax } from './compile.ts';
import type { ExecutionError } from './result.ts';

// Strip mode wants a whole program, and a body's top-level `return` is not one: wrap it as a function (one line).
const PREFIX = 'async function anonymous() {\n';
const SUFFIX = '\n}';

export type Prepared = { source: string; error?: undefined } | { error: ExecutionError; source?: undefined };

/** The JavaScript to run for `source` (itself, or its types stripped), or the syntax_error to report. */
export function prepareScript(source: string, tenant = ''): Prepared {
  const jsError = checkSyntax(source, tenant);
  if (!jsError) return { source };
  let stripped: string;
  try {
    const out = stripTypeScriptTypes(PREFIX + source + SUFFIX, { mode: 'strip' });
    if (!out.startsWith(PREFIX) || !out.endsWith(SUFFIX)) return { error: jsError };
    stripped = out.slice(PREFIX.length, out.length - SUFFIX.length);
  } catch (err) {
    const code = (err as { code?: unknown }).code;
    const line = tsLine(err);
    if (code === 'ERR_UNSUPPORTED_TYPESCRIPT_SYNTAX') {
      return {
        error: withLine(
          {
            type: 'syntax_error',
            message: `${(err as Error).message}: scripts accept only erasable TypeScript (type annotations, interfaces, type aliases, \`as\`, generics); use a plain object or union of string literals instead of an enum or namespace, and assign fields instead of parameter properties.`,
          },
          line,
        ),
      };
    }
    // Invalid as both: the parser that got further understood more (JavaScript stops at the first annotation).
    if (code === 'ERR_INVALID_TYPESCRIPT_SYNTAX' && line && line > (jsError.line ?? 0)) {
      return { error: { type: 'syntax_error', message: `${(err as Error).message} (read as TypeScript)`, line } };
    }
    return { error: jsError };
  }
  if (stripped === source) return { error: jsError };
  const tsError = checkSyntax(stripped, tenant);
  return tsError ? { error: tsError } : { source: stripped };
}

/** The author's line of a strip error: its stack opens with `:<line>` of the wrapped program. */
function tsLine(err: unknown): number | undefined {
  const m = /^:(\d+)$/.exec(((err as Error).stack ?? '').split('\n', 1)[0]);
  return m && Number(m[1]) > 1 ? Number(m[1]) - 1 : undefined;
}

function withLine(error: ExecutionError, line: number | undefined): ExecutionError {
  return line ? { ...error, line } : error;
}
