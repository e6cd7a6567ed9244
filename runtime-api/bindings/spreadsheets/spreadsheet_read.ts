// spreadsheet_read: a CSV or XLSX file of the organization → the workbook representation (/schema/spreadsheet/1).
import * as v from 'valibot';
import { defineBinding } from '../../define.ts';
import { fileRefEntries, oneFileRef } from '../files/schemas.ts';
import { fileIdOf } from '../../services/files.ts';
import { WorkbookSchema, type Workbook } from './workbook.ts';
import { readFileBytes } from '../../services/spreadsheets/files.ts';
import { parseWorkbook } from '../../services/spreadsheets/work-pool.ts';
import { alreadyValidated } from '../../invoke.ts';
import { isZip } from '../../services/spreadsheets/zip-guard.ts';
import { sheetNameFromFile } from '../../services/spreadsheets/names.ts';
import { SPREADSHEET_LIMITS } from '../../services/spreadsheets/limits.ts';
import { csvHasOneSheet } from '../../services/spreadsheets/messages.ts';

export const spreadsheet_read = defineBinding({
  name: 'spreadsheet_read',
  summary: 'Read a CSV or XLSX file as a workbook of typed tables (schema: /schema/spreadsheet/1).',
  pt: {
    summary: 'Lê um arquivo CSV ou XLSX como uma pasta de trabalho de tabelas tipadas (esquema: /schema/spreadsheet/1).',
    aliases: ['planilha', 'excel', 'xlsx', 'csv', 'ler tabela', 'ler linhas', 'abrir planilha', 'importar planilha'],
  },
  description: [
    'The format is recognized from the content (an XLSX is a zip), not the name. Trashed files can be read too.',
    'XLSX: every sheet (or only `sheet`); each Excel table (ListObject) on a sheet becomes a table, otherwise the block from the first to the last non-empty cell is one table named like the sheet, its top row being the header. ' +
      'Formulas give their cached result (null when the file has none, or for errors such as #N/A); merged cells have their value in the top-left cell only. ' +
      "Dates and times follow the cell's number format: `date` (YYYY-MM-DD), `datetime` (YYYY-MM-DDTHH:MM:SS, the wall-clock time, no offset), a time alone as the string HH:MM:SS. " +
      'XLSX has one number type: a column whose numbers are all integral is `integer`. A column mixing kinds (e.g. numbers and text) is `string`, each value as its text.',
    'CSV: one sheet named after the file, one table. RFC 4180 (quoted fields, "" escapes, line breaks inside quotes), UTF-8 with or without BOM, UTF-16 with BOM, else Windows-1252; ' +
      "delimiter `,`, `;` or tab, detected (or Excel's `sep=;` first line); the first non-blank line is the header. " +
      'Types are inferred per column from the text: `integer` and `number` (JSON number syntax: `1.5`, `-2`, `1e3`; no leading zeros, so `007` stays text, no thousands separators or decimal commas), ' +
      '`boolean` (true/false, any case), `date` (YYYY-MM-DD), `datetime` (YYYY-MM-DD HH:MM[:SS[.sss]] or with `T`); a column is the narrowest type all its values fit, else `string`. ' +
      'An empty field is null; a quoted empty field ("") is the empty string.',
    'Trailing rows without any value are dropped. Limits: files up to 10 MiB; at most 100,000 data cells (rows × columns) per call — past that the answer is 400 invalid_input: pass `maxRows` or `sheet`.',
  ].join('\n'),
  aliases: ['excel', 'xlsx', 'csv', 'parse table', 'read rows', 'import'],
  examples: [
    'const wb = await spreadsheet_read({ fileId: "fil_..." });\nconst t = wb.sheets[0].tables[0];\nreturn t.rows.map((r) => Object.fromEntries(t.columns.map((c, i) => [c.name, r[i]])));',
    'const wb = await spreadsheet_read({ fileId: "fil_...", sheet: "Sales", maxRows: 10 });\nreturn wb.sheets[0].tables.map((t) => ({ name: t.name, columns: t.columns, truncated: !!t.truncated }));',
  ],
  input: oneFileRef(
    v.strictObject({
      ...fileRefEntries('The path of an active CSV or XLSX file, e.g. `reports/q1.csv`.'),
      sheet: v.pipe(
        v.optional(v.pipe(v.string(), v.minLength(1), v.maxLength(31))),
        v.description(
          "XLSX: read only this sheet (exact name, else ignoring case). CSV: must be the file's one sheet (its name without extension). Default: every sheet.",
        ),
      ),
      maxRows: v.pipe(
        v.optional(v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(SPREADSHEET_LIMITS.maxRows))),
        v.description(
          'Return at most this many data rows per table (the first ones; the table is then marked `truncated: true`). Column types are inferred from the rows returned. 0 returns the columns only.',
        ),
      ),
    }),
  ),
  output: WorkbookSchema,
  scope: 'files:read',
  writes: false,
  async handler(input, deps) {
    const fileId = await fileIdOf(deps.sql, deps.caller.membership!.orgId, input);
    const { file, bytes } = await readFileBytes(deps, fileId, SPREADSHEET_LIMITS.maxFileBytes);
    const options = { maxRows: input.maxRows, maxCells: SPREADSHEET_LIMITS.maxCells };
    const xlsx = isZip(bytes);
    const sheetName = sheetNameFromFile(file.name);
    if (!xlsx && input.sheet !== undefined && input.sheet.toLowerCase() !== sheetName.toLowerCase()) {
      throw csvHasOneSheet(sheetName);
    }
    // Parsed (and validated) on a parser thread, one at a time per organization and per person.
    const owner = { org: deps.caller.membership!.orgId, person: deps.caller.userId };
    const workbook: Workbook = await parseWorkbook(
      owner,
      { kind: xlsx ? 'xlsx' : 'csv', bytes, sheetName, options: xlsx ? { ...options, sheet: input.sheet } : options },
      deps.signal,
      (ms) => deps.chargeHostMs?.(ms),
    );
    return alreadyValidated(workbook);
  },
});
