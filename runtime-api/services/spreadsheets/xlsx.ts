// XLSX ⇄ workbook, through exceljs. Reading: each sheet's Excel tables (ListObjects) become tables; a sheet without
// any becomes one table over the bounding box of its non-empty cells, its top row being the header. Formulas give
// their cached result; dates follow the cell's number format. Writing mirrors that (see TableName in workbook.ts).
import type ExcelJS from 'exceljs';

// exceljs is loaded on first use: it is ~10 MB of heap that every major GC would otherwise mark, in every process,
// for a feature most requests never touch.
let excel: typeof ExcelJS | null = null;
async function loadExcel(): Promise<typeof ExcelJS> {
  excel ??= (await import('exceljs')).default;
  return excel;
}
import type { Cell, Column, Sheet, Table, Workbook } from '../../bindings/spreadsheets/workbook.ts';
import { MAX_CELL_CHARS, MAX_COLUMNS, WORKBOOK_VERSION } from '../../bindings/spreadsheets/workbook.ts';
import { canonicalTime, typedColumnType, typedCellValue, type TypedCell } from './types.ts';
import { columnNames, excelTableName, sheetNameFromXlsx } from './names.ts';
import { guardXlsxZip } from './zip-guard.ts';
import { SPREADSHEET_LIMITS, concurrencyLimit } from './limits.ts';
import { noSuchSheet, noWorksheets, notReadableXlsx, sheetTooManyCells, tableTooWide, xlsxCellTooLong } from './messages.ts';

const exclusive = concurrencyLimit(SPREADSHEET_LIMITS.xlsxConcurrency);

// ---- reading ----

/** Strip literals, escapes and bracketed parts of a number format, keeping elapsed-time markers ([h], [mm], [ss]). */
function formatTokens(numFmt: string | undefined): { time: boolean; date: boolean } {
  const fmt = (numFmt ?? '').replace(/"[^"]*"/g, '').replace(/\\./g, '');
  const elapsed = /\[(h+|m+|s+)\]/i.test(fmt);
  const bare = fmt.replace(/\[[^\]]*\]/g, '');
  return { time: elapsed || /[hs]|AM\/PM|A\/P/i.test(bare), date: /[yd]/i.test(bare) };
}

function fromDate(d: Date, numFmt: string | undefined): TypedCell {
  if (Number.isNaN(d.getTime())) return null;
  const iso = d.toISOString(); // exceljs reads serials as UTC wall-clock time
  if (!/^\d{4}-/.test(iso)) return { kind: 'string', value: iso }; // past year 9999: not a date Excel can show
  const day = iso.slice(0, 10);
  const time = canonicalTime(iso.slice(11, 23));
  const tokens = formatTokens(numFmt);
  const midnight = time === '00:00:00';
  if ((day === '1899-12-30' || day === '1904-01-01') && tokens.time && !tokens.date) return { kind: 'string', value: time };
  if (midnight && !tokens.time) return { kind: 'date', value: day };
  return { kind: 'datetime', value: `${day}T${time}` };
}

function richText(value: { richText?: { text: string }[] }): string {
  return (value.richText ?? []).map((r) => r.text).join('');
}

/** A value (or a formula's cached result) → its kind. Errors (#N/A…) and formulas without a cached result are null. */
function fromValue(value: unknown, numFmt: string | undefined): TypedCell {
  if (value === null || value === undefined) return null;
  if (typeof value === 'number') return Number.isFinite(value) ? { kind: 'number', value } : null;
  if (typeof value === 'string') return { kind: 'string', value };
  if (typeof value === 'boolean') return { kind: 'boolean', value };
  if (value instanceof Date) return fromDate(value, numFmt);
  if (typeof value === 'object') {
    const o = value as Record<string, unknown>;
    if ('richText' in o) return { kind: 'string', value: richText(o as { richText: { text: string }[] }) };
    if ('hyperlink' in o || 'text' in o) return fromValue(o.text, numFmt);
    if ('formula' in o || 'sharedFormula' in o || 'result' in o) return fromValue(o.result, numFmt);
  }
  return null;
}

function readCell(cell: ExcelJS.Cell): TypedCell {
  const V = excel!.ValueType;
  if (cell.type === V.Merge || cell.type === V.Null || cell.type === V.Error) return null;
  // A formula's cached result: `cell.result`, since exceljs' `cell.value` drops falsy results (0, false, '').
  const raw = cell.type === V.Formula ? (cell as unknown as { result: unknown }).result : cell.value;
  const typed = fromValue(raw, cell.numFmt);
  if (typed?.kind === 'string' && typed.value.length > MAX_CELL_CHARS) {
    throw xlsxCellTooLong(cell.address, cell.worksheet.name, MAX_CELL_CHARS);
  }
  return typed;
}

interface Box {
  top: number;
  left: number;
  bottom: number;
  right: number;
}

function parseRef(ref: string): Box | null {
  const m = /^\$?([A-Z]+)\$?(\d+)(?::\$?([A-Z]+)\$?(\d+))?$/i.exec(ref);
  if (!m) return null;
  const col = (s: string) => [...s.toUpperCase()].reduce((n, ch) => n * 26 + ch.charCodeAt(0) - 64, 0);
  const a = { row: Number(m[2]), col: col(m[1]) };
  const b = m[3] ? { row: Number(m[4]), col: col(m[3]) } : a;
  return { top: Math.min(a.row, b.row), left: Math.min(a.col, b.col), bottom: Math.max(a.row, b.row), right: Math.max(a.col, b.col) };
}

function usedBox(ws: ExcelJS.Worksheet): Box | null {
  let box: Box | null = null;
  ws.eachRow({ includeEmpty: false }, (row, r) => {
    row.eachCell({ includeEmpty: false }, (cell, c) => {
      if (readCell(cell) === null) return;
      if (!box) box = { top: r, left: c, bottom: r, right: c };
      else {
        box.top = Math.min(box.top, r);
        box.bottom = Math.max(box.bottom, r);
        box.left = Math.min(box.left, c);
        box.right = Math.max(box.right, c);
      }
    });
  });
  return box;
}

interface ReadBudget {
  maxRows?: number;
  cellsLeft: number;
}

/** The cell at (r, c) if the sheet has one; never creates it (exceljs' getCell would). */
function cellAt(ws: ExcelJS.Worksheet, r: number, c: number): TypedCell {
  const cell = ws.findRow(r)?.findCell(c);
  return cell ? readCell(cell) : null;
}

function rowEmpty(ws: ExcelJS.Worksheet, r: number, box: Box): boolean {
  const row = ws.findRow(r);
  if (!row) return true;
  let empty = true;
  row.eachCell({ includeEmpty: false }, (cell, c) => {
    if (empty && c >= box.left && c <= box.right && readCell(cell) !== null) empty = false;
  });
  return empty;
}

function readTable(ws: ExcelJS.Worksheet, name: string, box: Box, excludeLastRow: boolean, budget: ReadBudget): Table {
  const width = box.right - box.left + 1;
  if (width > MAX_COLUMNS) throw tableTooWide(ws.name, MAX_COLUMNS);
  const header: (string | null)[] = [];
  for (let c = box.left; c <= box.right; c++) {
    const cell = cellAt(ws, box.top, c);
    header.push(cell === null ? null : cell.kind === 'number' ? String(cell.value) : cell.kind === 'boolean' ? (cell.value ? 'TRUE' : 'FALSE') : cell.value);
  }
  // Trailing rows with no value at all are not data (formatting often extends a sheet's used range). Only rows the
  // sheet really has are visited, so a huge declared range costs nothing.
  let bottom = Math.min(excludeLastRow ? box.bottom - 1 : box.bottom, ws.rowCount);
  while (bottom > box.top && rowEmpty(ws, bottom, box)) bottom--;
  let dataRows = Math.max(0, bottom - box.top);
  let truncated = false;
  if (budget.maxRows !== undefined && dataRows > budget.maxRows) {
    dataRows = budget.maxRows;
    truncated = true;
  }
  if (dataRows * width > budget.cellsLeft) throw sheetTooManyCells(ws.name, width, budget.cellsLeft);
  budget.cellsLeft -= dataRows * width;
  const typed: TypedCell[][] = [];
  for (let r = box.top + 1; r <= box.top + dataRows; r++) {
    const row: TypedCell[] = [];
    for (let c = box.left; c <= box.right; c++) row.push(cellAt(ws, r, c));
    typed.push(row);
  }
  const names = columnNames(header);
  const columns: Column[] = names.map((n, i) => ({ name: n, type: typedColumnType(typed.map((row) => row[i])) }));
  const rows: Cell[][] = typed.map((row) => row.map((cell, i) => typedCellValue(columns[i].type, cell)));
  const table: Table = { name, columns, rows };
  if (truncated) table.truncated = true;
  return table;
}

function readSheet(ws: ExcelJS.Worksheet, name: string, budget: ReadBudget): Sheet {
  const listObjects = ws
    .getTables()
    .map((t) => (t as unknown as { table: { name: string; tableRef: string; totalsRow?: boolean } }).table)
    .map((t) => ({ name: t.name, box: parseRef(t.tableRef), totals: !!t.totalsRow }))
    .filter((t): t is { name: string; box: Box; totals: boolean } => t.box !== null)
    .sort((a, b) => a.box.top - b.box.top || a.box.left - b.box.left);
  if (listObjects.length) {
    return { name, tables: listObjects.map((t) => readTable(ws, t.name, t.box, t.totals, budget)) };
  }
  const box = usedBox(ws);
  return { name, tables: box ? [readTable(ws, name, box, false, budget)] : [] };
}

export interface XlsxReadOptions {
  sheet?: string;
  maxRows?: number;
  maxCells: number;
  /** Checked once the lock is held and between steps: a cancelled read stops (see HandlerContext.signal). */
  signal?: AbortSignal;
}

export async function readXlsx(bytes: Buffer, options: XlsxReadOptions): Promise<Workbook> {
  guardXlsxZip(bytes);
  return exclusive(() => parseXlsx(bytes, options));
}

async function parseXlsx(bytes: Buffer, options: XlsxReadOptions): Promise<Workbook> {
  options.signal?.throwIfAborted();
  const wb = new (await loadExcel()).Workbook();
  try {
    await wb.xlsx.load(bytes as unknown as ArrayBuffer);
  } catch (err) {
    const why = String((err as Error).message ?? err).slice(0, 200);
    throw notReadableXlsx(why);
  }
  options.signal?.throwIfAborted();
  let sheets = wb.worksheets;
  if (options.sheet !== undefined) {
    const wanted = options.sheet;
    const match = sheets.find((s) => s.name === wanted) ?? sheets.find((s) => s.name.toLowerCase() === wanted.toLowerCase());
    if (!match) {
      const names = sheets.map((s) => JSON.stringify(s.name)).join(', ');
      throw noSuchSheet(wanted, names);
    }
    sheets = [match];
  }
  if (!sheets.length) throw noWorksheets();
  const budget: ReadBudget = { maxRows: options.maxRows, cellsLeft: options.maxCells };
  const used = new Set<string>();
  return { version: WORKBOOK_VERSION, sheets: sheets.map((ws, i) => readSheet(ws, sheetNameFromXlsx(ws.name, i + 1, used), budget)) };
}

// ---- writing ----

const DATE_FORMAT = 'yyyy-mm-dd';
const DATETIME_FORMAT = 'yyyy-mm-dd hh:mm:ss';

function toExcel(cell: Cell, type: Column['type']): ExcelJS.CellValue {
  if (cell === null) return null;
  if (type === 'date') return new Date(`${cell as string}T00:00:00Z`);
  if (type === 'datetime') return new Date(`${cell as string}Z`);
  return cell;
}

function formatColumns(ws: ExcelJS.Worksheet, table: Table, top: number, left: number): void {
  table.columns.forEach((column, i) => {
    const col = left + i;
    if (column.type === 'date' || column.type === 'datetime') {
      const hasMs = column.type === 'datetime' && table.rows.some((r) => typeof r[i] === 'string' && (r[i] as string).includes('.'));
      const fmt = column.type === 'date' ? DATE_FORMAT : hasMs ? `${DATETIME_FORMAT}.000` : DATETIME_FORMAT;
      for (let r = 0; r < table.rows.length; r++) if (table.rows[r][i] !== null) ws.getCell(top + 1 + r, col).numFmt = fmt;
    }
    const wc = ws.getColumn(col);
    const width = Math.min(60, Math.max(wc.width ?? 8, column.name.length + 2, column.type === 'datetime' ? 20 : column.type === 'date' ? 12 : 8));
    wc.width = width;
  });
}

function writePlain(ws: ExcelJS.Worksheet, table: Table): void {
  const header = ws.getRow(1);
  table.columns.forEach((c, i) => {
    header.getCell(i + 1).value = c.name;
  });
  header.font = { bold: true };
  table.rows.forEach((row, r) => {
    const line = ws.getRow(r + 2);
    row.forEach((cell, i) => {
      if (cell !== null) line.getCell(i + 1).value = toExcel(cell, table.columns[i].type);
    });
  });
  ws.views = [{ state: 'frozen', ySplit: 1 }];
  formatColumns(ws, table, 1, 1);
}

function writeListObject(ws: ExcelJS.Worksheet, table: Table, top: number, used: Set<string>): number {
  const rows = table.rows.length ? table.rows.map((row) => row.map((cell, i) => toExcel(cell, table.columns[i].type))) : [table.columns.map(() => null)];
  ws.addTable({
    name: excelTableName(table.name, used),
    ref: `A${top}`,
    headerRow: true,
    totalsRow: false,
    style: { theme: 'TableStyleLight9', showRowStripes: true },
    columns: table.columns.map((c) => ({ name: c.name, filterButton: true })),
    rows,
  });
  formatColumns(ws, table, top, 1);
  return top + 1 + rows.length;
}

export async function writeXlsx(workbook: Workbook): Promise<Buffer> {
  return exclusive(() => buildXlsx(workbook));
}

async function buildXlsx(workbook: Workbook): Promise<Buffer> {
  const wb = new (await loadExcel()).Workbook();
  wb.creator = 'siglata';
  const tableNames = new Set<string>();
  for (const sheet of workbook.sheets) {
    const ws = wb.addWorksheet(sheet.name);
    const [only] = sheet.tables;
    if (sheet.tables.length === 1 && only.name === sheet.name) {
      writePlain(ws, only);
      continue;
    }
    let top = 1;
    for (const table of sheet.tables) top = writeListObject(ws, table, top, tableNames) + 1; // one empty row between tables
  }
  return Buffer.from(await wb.xlsx.writeBuffer());
}
