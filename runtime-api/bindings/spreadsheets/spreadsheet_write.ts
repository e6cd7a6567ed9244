// spreadsheet_write: the workbook representation (/schema/spreadsheet/1) → a CSV or XLSX file at a path in the
// catalogue (a file already there is replaced and moves to the trash).
import * as v from 'valibot';
import { defineBinding } from '../../define.ts';
import { FileName, toWrittenRecord, WrittenFileRecord } from '../files/schemas.ts';
import { WorkbookSchema } from './workbook.ts';
import { createFileFromBytes } from '../../services/spreadsheets/files.ts';
import { buildOnThread } from '../../services/spreadsheets/work-pool.ts';

export const MEDIA_TYPES = {
  csv: 'text/csv; charset=utf-8',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
} as const;

export const spreadsheet_write = defineBinding({
  name: 'spreadsheet_write',
  summary: 'Write a workbook (schema: /schema/spreadsheet/1) as a CSV or XLSX file at a path.',
  pt: {
    summary: 'Grava uma pasta de trabalho (esquema: /schema/spreadsheet/1) como arquivo CSV ou XLSX num caminho.',
    aliases: ['planilha', 'excel', 'xlsx', 'csv', 'exportar', 'criar planilha', 'salvar tabela', 'gerar planilha'],
  },
  description: [
    'Writes the file at `name` (kept as given, so end it in .csv or .xlsx) and returns its record. A file already at that path is replaced: it moves to the trash (restorable; `replacedFileId` names it). Counts against the storage quota.',
    'XLSX: one worksheet per sheet. A sheet holding one table named like the sheet is a plain range from A1 with a bold, frozen header row; ' +
      'otherwise each table is an Excel table (ListObject), stacked top to bottom with one empty row between. ' +
      '`date` and `datetime` cells are real Excel dates (formats yyyy-mm-dd and yyyy-mm-dd hh:mm:ss); strings are never formulas.',
    'CSV: the workbook must hold one sheet with at most one table. RFC 4180 with CRLF line ends, UTF-8; header row of column names; ' +
      'null is an empty field and the empty string is `""`; booleans are true/false, numbers in JSON syntax, dates ISO 8601. ' +
      'CSV carries no types: reading it back infers them again (a `string` column of digits comes back as `integer`) — use XLSX to keep declared types.',
    'Limits: at most 100,000 data cells, and a result of at most 10 MiB (what spreadsheet_read reads back).',
  ].join('\n'),
  aliases: ['excel', 'xlsx', 'csv', 'export', 'create spreadsheet', 'save table'],
  examples: [
    'return await spreadsheet_write({\n  name: "reports/totals.xlsx", format: "xlsx",\n  workbook: { version: 1, sheets: [{ name: "Totals", tables: [{ name: "Totals",\n    columns: [{ name: "region", type: "string" }, { name: "total", type: "number" }, { name: "closed", type: "date" }],\n    rows: [["North", 1250.5, "2026-03-31"], ["South", null, null]] }] }] },\n});',
    'const wb = await spreadsheet_read({ fileId: "fil_..." });\nreturn await spreadsheet_write({ name: "copy.csv", format: "csv", workbook: wb, csv: { delimiter: ";", bom: true } });',
  ],
  input: v.strictObject({
    name: FileName,
    format: v.pipe(
      v.picklist(['csv', 'xlsx']),
      v.description('`xlsx` (media type application/vnd.openxmlformats-officedocument.spreadsheetml.sheet) or `csv` (text/csv; charset=utf-8).'),
    ),
    workbook: v.pipe(WorkbookSchema, v.description('The workbook, as /schema/spreadsheet/1 describes it (what spreadsheet_read returns).')),
    csv: v.pipe(
      v.optional(
        v.strictObject({
          delimiter: v.pipe(
            v.optional(v.picklist([',', ';', '\t']), ','),
            v.description('Field delimiter: `,` (default), `;` (what Excel expects where the decimal separator is a comma, e.g. pt-BR) or a tab.'),
          ),
          bom: v.pipe(
            v.optional(v.boolean(), false),
            v.description('Start with a UTF-8 byte order mark, so that Excel shows accented letters right (default false).'),
          ),
        }),
      ),
      v.description('CSV options; ignored for xlsx.'),
    ),
  }),
  output: WrittenFileRecord,
  scope: 'files:write',
  writes: true,
  async handler(input, deps) {
    // Checked against the workbook schema and built on a spreadsheet thread, one at a time per organization and per
    // person; the thread's CPU time is charged to the calling execution.
    const owner = { org: deps.caller.membership!.orgId, person: deps.caller.userId };
    const data = await buildOnThread(
      owner,
      { format: input.format, workbook: input.workbook, csv: { delimiter: input.csv?.delimiter ?? ',', bom: input.csv?.bom ?? false } },
      deps.signal,
      (ms) => deps.chargeHostMs?.(ms),
    );
    // A cancelled call must not leave a file behind for an execution that already ended.
    deps.signal?.throwIfAborted();
    const written = await createFileFromBytes(deps, { name: input.name, mediaType: MEDIA_TYPES[input.format], data });
    return toWrittenRecord(written, deps.config);
  },
});
