// The workbook representation, version 1 (not a binding itself): what spreadsheet_read returns and
// spreadsheet_write takes, published as JSON Schema 2020-12 at /schema/spreadsheet/1 (server/routes/schema.ts).
// Cross-field rules JSON Schema cannot state (one cell per column, cells of the column's type, unique names) are
// checked here by valibot and said in the descriptions.
import * as v from 'valibot';

export const WORKBOOK_VERSION = 1;
export const COLUMN_TYPES = ['string', 'number', 'integer', 'boolean', 'date', 'datetime'] as const;
export type ColumnType = (typeof COLUMN_TYPES)[number];
export type Cell = string | number | boolean | null;

/** Excel's own caps, so that every valid workbook can be written as XLSX. */
export const MAX_CELL_CHARS = 32_767;
export const MAX_COLUMNS = 16_384;
export const MAX_SHEET_NAME_CHARS = 31;
export const MAX_NAME_CHARS = 255;

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATETIME = /^(\d{4})-(\d{2})-(\d{2})T([01]\d|2[0-3]):([0-5]\d):([0-5]\d)(\.\d{1,3})?$/;

function validDay(y: string, m: string, d: string): boolean {
  const date = new Date(Date.UTC(Number(y), Number(m) - 1, Number(d)));
  return date.getUTCFullYear() === Number(y) && date.getUTCMonth() === Number(m) - 1 && date.getUTCDate() === Number(d);
}

export function isIsoDate(s: string): boolean {
  const m = DATE.exec(s);
  return !!m && validDay(m[1], m[2], m[3]);
}

export function isIsoDateTime(s: string): boolean {
  const m = DATETIME.exec(s);
  return !!m && validDay(m[1], m[2], m[3]);
}

/** Why `value` cannot be a cell of a `type` column, or null when it can. Null cells fit every column. */
export function cellProblem(type: ColumnType, value: Cell): string | null {
  if (value === null) return null;
  switch (type) {
    case 'string':
      return typeof value === 'string' ? null : 'must be a string or null (column type string)';
    case 'number':
      return typeof value === 'number' ? null : 'must be a number or null (column type number)';
    case 'integer':
      return typeof value === 'number' && Number.isSafeInteger(value) ? null : 'must be a safe integer or null (column type integer)';
    case 'boolean':
      return typeof value === 'boolean' ? null : 'must be true, false or null (column type boolean)';
    case 'date':
      return typeof value === 'string' && isIsoDate(value) ? null : 'must be a date YYYY-MM-DD or null (column type date)';
    case 'datetime':
      return typeof value === 'string' && isIsoDateTime(value)
        ? null
        : 'must be a date-time YYYY-MM-DDTHH:MM:SS[.sss] without offset, or null (column type datetime)';
  }
}

function wellFormedName(s: string): boolean {
  return s.isWellFormed() && !/[\u0000-\u001f\u007f]/.test(s);
}

export const SheetName = v.pipe(
  v.string(),
  v.minLength(1),
  v.maxLength(MAX_SHEET_NAME_CHARS),
  v.regex(/^[^\\/?*[\]:]*$/, 'a sheet name must not contain \\ / ? * [ ] or :'),
  v.check((s) => wellFormedName(s) && !s.startsWith("'") && !s.endsWith("'"), "a sheet name must not start or end with ' nor contain control characters"),
  v.check((s) => s.toLowerCase() !== 'history', 'History is a sheet name Excel reserves'),
  v.description(
    'Sheet name as XLSX allows it: 1 to 31 characters, none of \\ / ? * [ ] :, not starting or ending with an apostrophe, not `History` (reserved by Excel). ' +
      'Unique within the workbook, ignoring case. For CSV it is the file name without folders and extension.',
  ),
);

const TableName = v.pipe(
  v.string(),
  v.minLength(1),
  v.maxLength(MAX_NAME_CHARS),
  v.check(wellFormedName, 'a table name must not contain control characters'),
  v.description(
    'Table name, 1 to 255 characters, unique within its sheet. A sheet read without Excel tables has one table named like the sheet. ' +
      'In XLSX a table named like its sheet, alone on it, is written as a plain range from A1; otherwise each table becomes an Excel table (ListObject) ' +
      'whose name keeps letters, digits, `_` and `.` (other characters become `_`).',
  ),
);

export const ColumnTypeSchema = v.pipe(
  v.picklist(COLUMN_TYPES),
  v.description(
    'Type of every non-null cell of the column: `string`; `number` (finite, JSON number); `integer` (a safe integer, |n| < 2^53); ' +
      '`boolean`; `date` (ISO 8601 calendar date `YYYY-MM-DD`); `datetime` (ISO 8601 `YYYY-MM-DDTHH:MM:SS` with optional `.sss`, no offset: ' +
      'spreadsheet times have no time zone, so none is invented). Any cell may be null (an empty cell).',
  ),
);

const Column = v.strictObject({
  name: v.pipe(
    v.string(),
    v.minLength(1),
    v.maxLength(MAX_NAME_CHARS),
    v.check(wellFormedName, 'a column name must not contain control characters'),
    v.description(
      'Column name (the header cell), 1 to 255 characters, unique within the table ignoring case. A missing header is read as `column_N` (N = position from 1); a repeated one gets `_2`, `_3`…',
    ),
  ),
  type: ColumnTypeSchema,
});

export const CellSchema = v.pipe(
  v.union([v.pipe(v.string(), v.maxLength(MAX_CELL_CHARS)), v.pipe(v.number(), v.finite()), v.boolean(), v.null()]),
  v.description(
    "A cell: a string (at most 32,767 characters, Excel's cap), a finite number, a boolean, or null for an empty cell. " +
      'Dates and date-times are strings in ISO 8601 (see the column type).',
  ),
);

const Row = v.pipe(v.array(CellSchema), v.description('One record: exactly one cell per column, in column order.'));

export const TableSchema = v.pipe(
  v.strictObject({
    name: TableName,
    columns: v.pipe(v.array(Column), v.minLength(1), v.maxLength(MAX_COLUMNS), v.description('The columns, left to right (at least 1, at most 16,384).')),
    rows: v.pipe(
      v.array(Row),
      v.description(
        "The data rows, top to bottom, without the header row. Each row has one cell per column, and each cell is null or a value of its column's type.",
      ),
    ),
    truncated: v.pipe(
      v.optional(v.boolean()),
      v.description('Set by spreadsheet_read: true when only the first `maxRows` data rows were returned. Ignored by spreadsheet_write.'),
    ),
  }),
  v.rawCheck(({ dataset, addIssue }) => {
    if (!dataset.typed) return;
    const table = dataset.value;
    const seen = new Set<string>();
    for (const [i, column] of table.columns.entries()) {
      const key = column.name.toLowerCase();
      if (seen.has(key)) {
        addIssue({
          message: `column name ${JSON.stringify(column.name)} is repeated (names are compared ignoring case)`,
          path: [pathItem(table, 'columns'), pathItem(table.columns, i)],
        });
        return;
      }
      seen.add(key);
    }
    for (const [r, row] of table.rows.entries()) {
      const rowPath: [v.IssuePathItem, v.IssuePathItem] = [pathItem(table, 'rows'), pathItem(table.rows, r)];
      if (row.length !== table.columns.length) {
        addIssue({ message: `the row has ${row.length} cells; the table has ${table.columns.length} columns`, path: rowPath });
        return;
      }
      for (const [c, cell] of row.entries()) {
        const problem = cellProblem(table.columns[c].type, cell);
        if (problem) {
          addIssue({ message: `cell of column ${JSON.stringify(table.columns[c].name)} ${problem}`, path: [...rowPath, pathItem(row, c)] });
          return;
        }
      }
    }
  }),
  v.description('A relational table: typed columns and rows of cells.'),
);

export const SheetSchema = v.pipe(
  v.strictObject({
    name: SheetName,
    tables: v.pipe(v.array(TableSchema), v.description('The tables on the sheet (none for an empty sheet). Table names are unique within the sheet.')),
  }),
  v.check((s) => new Set(s.tables.map((t) => t.name)).size === s.tables.length, 'table names must be unique within a sheet'),
  v.description('A worksheet. A CSV file is one sheet with one table.'),
);

export const WorkbookSchema = v.pipe(
  v.strictObject({
    version: v.pipe(
      v.literal(WORKBOOK_VERSION),
      v.description('Representation version: 1. A breaking change gets a new version and a new /schema/spreadsheet/N.'),
    ),
    sheets: v.pipe(v.array(SheetSchema), v.minLength(1), v.description('The sheets in workbook order (at least 1). Sheet names are unique ignoring case.')),
  }),
  v.check((w) => new Set(w.sheets.map((s) => s.name.toLowerCase())).size === w.sheets.length, 'sheet names must be unique within the workbook (ignoring case)'),
  v.title('Spreadsheet workbook, version 1'),
  v.description(
    'A spreadsheet workbook as relational tables: sheets, each holding named tables of typed columns and rows of cells. ' +
      'spreadsheet_read returns it for CSV and XLSX files; spreadsheet_write turns it back into a CSV or XLSX file.',
  ),
);

export type Workbook = v.InferOutput<typeof WorkbookSchema>;
export type Sheet = v.InferOutput<typeof SheetSchema>;
export type Table = v.InferOutput<typeof TableSchema>;
export type Column = Table['columns'][number];

/** A path item for rawCheck issues, so describeIssues reports e.g. `workbook.sheets.0.tables.0.rows.3.2`. */
function pathItem(input: unknown, key: string | number): v.IssuePathItem {
  return typeof key === 'number'
    ? { type: 'array', origin: 'value', input: input as unknown[], key, value: (input as unknown[])[key] }
    : { type: 'object', origin: 'value', input: input as Record<string, unknown>, key, value: (input as Record<string, unknown>)[key] };
}
