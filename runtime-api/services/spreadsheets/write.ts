// spreadsheet_write's heavy part, run on a spreadsheet thread (work-worker.ts): check the workbook against its schema
// (100,000 cells, each against its column's type), then build the CSV or XLSX bytes under the binding's caps.
import * as v from 'valibot';
import { WorkbookSchema } from '../../bindings/spreadsheets/workbook.ts';
import { describeAllIssues } from '../../validation-messages.ts';
import { ServiceError, l10n } from '../../errors.ts';
import { writeCsv, type CsvWriteOptions } from './csv.ts';
import { writeXlsx } from './xlsx.ts';
import { SPREADSHEET_LIMITS, invalid, mib } from './limits.ts';

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
    throw new ServiceError('invalid_input', { resolution: l10n(describeAllIssues(parsed.issues, 'en-US'), describeAllIssues(parsed.issues, 'pt-BR')) });
  }
  const { workbook } = parsed.output;
  const cells = workbook.sheets.reduce((n, s) => n + s.tables.reduce((m, t) => m + t.rows.length * t.columns.length, 0), 0);
  if (cells > SPREADSHEET_LIMITS.maxCells) {
    const n = cells.toLocaleString('en-US'), most = SPREADSHEET_LIMITS.maxCells.toLocaleString('en-US');
    throw invalid('workbook', l10n(`${n} data cells; spreadsheet_write takes at most ${most} per call. Write several files.`,
      `${n} células de dados; spreadsheet_write aceita no máximo ${most} por chamada. Grave vários arquivos.`));
  }
  let data: Buffer;
  if (req.format === 'csv') {
    const [sheet, ...others] = workbook.sheets;
    if (others.length || sheet.tables.length > 1) {
      throw invalid('workbook', l10n(
        `a CSV file holds one sheet with at most one table; this workbook has ${workbook.sheets.length} sheets and ${sheet.tables.length} tables on the first. Use format "xlsx", or write one CSV per table.`,
        `um arquivo CSV comporta uma planilha com no máximo uma tabela; esta pasta de trabalho tem ${workbook.sheets.length} planilhas e ${sheet.tables.length} tabelas na primeira. Use format "xlsx", ou grave um CSV por tabela.`));
    }
    data = writeCsv(sheet.tables[0] ?? null, req.csv);
  } else {
    data = await writeXlsx(workbook);
  }
  if (data.length > SPREADSHEET_LIMITS.maxFileBytes) {
    throw invalid('workbook', l10n(
      `the ${req.format.toUpperCase()} file would have ${data.length} bytes, more than ${mib(SPREADSHEET_LIMITS.maxFileBytes)}, the most spreadsheet_read reads back. Write several files.`,
      `o arquivo ${req.format.toUpperCase()} teria ${data.length} bytes, mais de ${mib(SPREADSHEET_LIMITS.maxFileBytes)}, o máximo que spreadsheet_read lê de volta. Grave vários arquivos.`));
  }
  return data;
}
