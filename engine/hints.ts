// Host-side hints added to a failed execution's error, where the isolate only knows what V8 said. An unknown global
// is usually a misspelt binding (`file_list`): name the closest bindings and point at `search`.
import { clip, type ExecutionResult } from './result.ts';

const NOT_DEFINED = /^ReferenceError: ([\p{L}\p{N}_$]{1,100}) is not defined$/u;

/** Levenshtein distance, cut off once it exceeds `max` (names are short; this runs only on the error path). */
function distance(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) row[j] = Math.min(prev[j] + 1, row[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    if (Math.min(...row) > max) return max + 1;
    prev = row;
  }
  return prev[b.length];
}

/** Up to three binding names close to `name`: a small edit away, or sharing a word (`list_files` → `files_list`). */
export function closeNames(name: string, bindings: readonly string[]): string[] {
  const lower = name.toLowerCase();
  const words = new Set(
    lower
      .split(/[_$]+|(?=[A-Z])/)
      .filter((w) => w.length > 2)
      .map((w) => w.replace(/s$/, '')),
  );
  const max = Math.max(2, Math.floor(lower.length / 3));
  return bindings
    .map((b) => {
      const d = distance(lower, b, max);
      const shared = b.split('_').filter((w) => words.has(w.replace(/s$/, ''))).length;
      return { b, score: d <= max ? d : shared ? max + 2 - shared / 10 : Infinity };
    })
    .filter((x) => x.score !== Infinity)
    .sort((x, y) => x.score - y.score || x.b.localeCompare(y.b))
    .slice(0, 3)
    .map((x) => x.b);
}

export function explainUnknownGlobal(result: ExecutionResult, bindings: readonly string[]): ExecutionResult {
  const error = result.error;
  const m = error?.type === 'script_error' ? NOT_DEFINED.exec(error.message) : null;
  if (!error || !m) return result;
  const near = closeNames(m[1], bindings);
  const hint = near.length
    ? `Did you mean ${near.join(', ')}? Bindings are globals with snake_case names; the search tool lists them all.`
    : 'It is not a binding: bindings are globals with snake_case names, and the search tool lists them all.';
  return { ...result, error: { ...error, message: clip(`${error.message}. ${hint}`), resolution: hint } };
}
