// spreadsheet_write's heavy part, run on a spreadsheet thread (work-worker.ts): check the workbook against its schema
// (100,000 cells, each against its column's type), then build the CSV or XLSX bytes under the binding's caps.
import * as v from 'valibot';
import { WorkbookSchema } from '../../bindings/spreadsheets/workbook.ts';
import { writeCsv, type CsvWriteOptions } from './csv.ts';
import { writeXlsx } from './xlsx.ts';
import { SPREADSHEET_LIMITS } from './limits.ts';
import { csvHoldsOneTable, workbookInvalid, writeTooManyCells, writtenFileTooLarge } from './messages.ts';

export interface WriteRequest {
  format: 'csv' | 'xlsx';
  /** The caller's workbook, unchecked yet (its issues are reported under `workbook`, as for any argument). */
  workbook: unknown;
  csv: CsvWriteOptions;
}

/** Under `workbook`, so that issue paths read `workbook.sheets.0…` as they would for the whole input. */
const Argument = v.object({ workbook: WorkbookSchema });

export async function buildSpreadsheet(req: WriteRequest): Promise<Buffer> {
  const parsed = v.safeParse(Argument, { workbook: req.workbook });
  if (!parsed.success) {
    throw workbookInvalid(parsed.issues);
  }
  const { workbook } = parsed.output;
  const cells = workbook.sheets.reduce((n, s) => n + s.tables.reduce((m, t) => m + t.rows.length * t.columns.length, 0), 0);
  if (cells > SPREADSHEET_LIMITS.maxCells) throw writeTooManyCells(cells);
  let data: Buffer;
  if (req.format === 'csv') {
    const [sheet, ...others] = workbook.sheets;
    if (others.length || sheet.tables.length > 1) {
      throw csvHoldsOneTable(workbook.sheets.length, sheet.tables.length);
    }
    data = writeCsv(sheet.tables[0] ?? null, req.csv);
  } else {
    data = await writeXlsx(workbook);
  }
  if (data.length > SPREADSHEET_LIMITS.maxFileBytes) {
    throw writtenFileTooLarge(req.format.toUpperCase(), data.length);
  }
  return data;
}
