// Caps on what spreadsheet_read parses and spreadsheet_write produces, so one script cannot exhaust the server's
// memory: a file is read whole into memory (at most maxInputBytes), and an XLSX (a zip) is first inflated under
// caps (see zip-guard.ts) before exceljs, which builds every cell in memory, sees it.

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
      if (next)
        next(); // the slot passes straight to the next caller
      else active--;
    }
  };
}
