// "Did you mean …?" for a mistyped command, option or action: the closest known word by edit distance (a swap of two
// neighbouring letters counts once, as people mistype), or the one word the typed text begins.
import { type CliError, usageError } from './errors.ts';
import { t } from './i18n.ts';

/** Optimal string alignment distance: insertions, deletions, substitutions and adjacent transpositions. */
export function editDistance(a: string, b: string): number {
  const rows = Array.from({ length: a.length + 1 }, (_, i) => {
    const row = new Array<number>(b.length + 1).fill(0);
    row[0] = i;
    return row;
  });
  for (let j = 0; j <= b.length; j++) rows[0][j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(rows[i - 1][j] + 1, rows[i][j - 1] + 1, rows[i - 1][j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) best = Math.min(best, rows[i - 2][j - 2] + 1);
      rows[i][j] = best;
    }
  }
  return rows[a.length][b.length];
}

/**
 * The known word `typed` most likely stands for, or null: the nearest within a distance that grows with the word
 * (1 for up to four letters, 2 beyond, so `ls` does not suggest `rm`), else the only word it is the start of.
 */
export function closest(typed: string, known: readonly string[]): string | null {
  const word = typed.toLowerCase();
  const allowed = word.length <= 4 ? 1 : 2;
  let best: string | null = null;
  let bestDistance = Number.POSITIVE_INFINITY;
  for (const candidate of known) {
    const d = editDistance(word, candidate.toLowerCase());
    if (d < bestDistance) {
      best = candidate;
      bestDistance = d;
    }
  }
  if (best !== null && bestDistance > 0 && bestDistance <= allowed) return best;
  const starts = known.filter((k) => word.length >= 2 && k.toLowerCase().startsWith(word));
  return starts.length === 1 ? starts[0] : null;
}

/** The usage error for an action a command does not have (`keys lst`), with the one meant when it is clear. */
export function unknownAction(command: string, action: string, actions: readonly string[]): CliError {
  const guess = closest(action, actions);
  return usageError(
    `${t('unknownAction', { command, action })}; ${guess ? `${t('didYouMean', { word: `"${command} ${guess}"` })} ` : ''}(${actions.join(', ')})`,
  );
}
