// Caps on what spreadsheet_read parses and spreadsheet_write produces, so one script cannot exhaust the server's
// memory: a file is read whole into memory (at most maxInputBytes), and an XLSX (a zip) is first inflated under
// caps (see zip-guard.ts) before exceljs, which builds every cell in memory, sees it.
import { ServiceError, l10n, type Localized } from '../../errors.ts';

export const SPREADSHEET_LIMITS = Object.freeze({
  /** Largest file spreadsheet_read accepts, and largest file spreadsheet_write produces (so it can be read back). */
  maxFileBytes: 10 * 1024 * 1024,
  /** Data cells (rows × columns, header excluded) across the tables read or written in one call. */
  maxCells: 100_000,
  /** XLSX: total bytes of the zip's entries once inflated. */
  maxXlsxInflatedBytes: 32 * 1024 * 1024,
  /** XLSX: number of zip entries. */
  maxXlsxEntries: 10_000,
  /** XLSX: `<c>` and `<row>` elements across all worksheets (styled empty ones count too), checked before parsing. */
  maxXlsxCellElements: 200_000,
  /** XLSX files parsed or built at once per process (exceljs holds every cell in memory); others wait their turn. */
  xlsxConcurrency: 2,
  /** Highest `maxRows` a caller may pass (Excel's row count). */
  maxRows: 1_048_576,
});

export function mib(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(bytes % (1024 * 1024) === 0 ? 0 : 1)} MiB`;
}

/** A limit or content problem the caller can fix: 400 invalid_input naming the field. */
export function invalid(field: string, problem: Localized): ServiceError {
  return new ServiceError('invalid_input', { resolution: l10n(`\`${field}\`: ${problem['en-US']}`, `\`${field}\`: ${problem['pt-BR']}`) });
}

const fmt = (n: number) => n.toLocaleString('en-US');

/** More data cells than the call may return; `budget` is what is left of maxCells for this table. */
export function tooManyCells(what: Localized, width: number, budget: number): ServiceError {
  const max = SPREADSHEET_LIMITS.maxCells;
  const rows = fmt(Math.floor(budget / Math.max(1, width)));
  return invalid('fileId', l10n(
    `${what['en-US']} has more than ${fmt(budget)} data cells (rows × columns, header excluded)${budget < max ? ' left for it' : ''}; `
      + `spreadsheet_read returns at most ${fmt(max)} per call. Pass \`maxRows\` (at most ${rows} here) or \`sheet\` to read part of it.`,
    `${what['pt-BR']} tem mais de ${fmt(budget)} células de dados (linhas × colunas, sem o cabeçalho)${budget < max ? ' disponíveis para ela' : ''}; `
      + `spreadsheet_read devolve no máximo ${fmt(max)} por chamada. Passe \`maxRows\` (no máximo ${rows} aqui) ou \`sheet\` para ler parte dela.`));
}

/** A FIFO semaphore: `run(fn)` runs at most `max` fns at once. */
export function concurrencyLimit(max: number) {
  let active = 0;
  const waiting: (() => void)[] = [];
  return async function run<T>(fn: () => Promise<T>): Promise<T> {
    if (active >= max) await new Promise<void>((resolve) => waiting.push(resolve));
    else active++;
    try {
      return await fn();
    } finally {
      const next = waiting.shift();
      if (next) next(); // the slot passes straight to the next caller
      else active--;
    }
  };
}
