// Names read from files made valid for the workbook schema: column names from header cells, sheet names from file
// names, and Excel table (ListObject) names from table names.
import { MAX_NAME_CHARS, MAX_SHEET_NAME_CHARS } from '../../bindings/spreadsheets/workbook.ts';

function clip(s: string, max: number): string {
  const chars = [...s];
  return chars.length > max ? chars.slice(0, max).join('') : s;
}

/** Header cells → unique (ignoring case) column names: empty → `column_N`, repeated → `name_2`, `name_3`… */
export function columnNames(header: readonly (string | null)[]): string[] {
  const used = new Set<string>();
  return header.map((raw, i) => {
    const base =
      clip(
        (raw ?? '')
          .toWellFormed()
          .replace(/[\u0000-\u001f\u007f]+/g, ' ')
          .trim(),
        MAX_NAME_CHARS - 6,
      ) || `column_${i + 1}`;
    let name = base;
    for (let n = 2; used.has(name.toLowerCase()); n++) name = `${base}_${n}`;
    used.add(name.toLowerCase());
    return name;
  });
}

function cleanSheetName(raw: string): string {
  if (raw.trim().toLowerCase() === 'history') return `${raw.trim()}_`; // reserved by Excel
  return clip(
    raw
      .toWellFormed()
      .replace(/[\\/?*[\]:\u0000-\u001f\u007f]/g, '_')
      .trim(),
    MAX_SHEET_NAME_CHARS,
  )
    .replace(/^'+|'+$/g, '')
    .trim();
}

/** A file name (`reports/2026/sales.csv`) → a sheet name XLSX accepts (`sales`). */
export function sheetNameFromFile(fileName: string): string {
  const last = fileName.split('/').pop() ?? '';
  const stem = last.includes('.') && !last.startsWith('.') ? last.slice(0, last.lastIndexOf('.')) : last;
  return cleanSheetName(stem) || 'Sheet1';
}

/** An XLSX sheet name as read (Excel keeps them valid; other writers may not) → valid and unique ignoring case. */
export function sheetNameFromXlsx(raw: string, position: number, used: Set<string>): string {
  const base = cleanSheetName(raw) || `Sheet${position}`;
  let name = base;
  for (let n = 2; used.has(name.toLowerCase()); n++) name = `${clip(base, MAX_SHEET_NAME_CHARS - String(n).length - 1)}_${n}`;
  used.add(name.toLowerCase());
  return name;
}

/** Excel table names: a letter, `_` or `\` first, then letters, digits, `_` or `.`; never a cell reference like `A1` or `R1C1`. */
export function excelTableName(name: string, used: Set<string>): string {
  let base = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^A-Za-z0-9_.]/g, '_');
  if (!/^[A-Za-z_]/.test(base)) base = `_${base}`;
  if (/^([A-Za-z]{1,3}\d+|[RrCc]|[Rr]\d*[Cc]\d*)$/.test(base)) base = `_${base}`;
  base = base.slice(0, 250);
  let out = base;
  for (let n = 2; used.has(out.toLowerCase()); n++) out = `${base}_${n}`;
  used.add(out.toLowerCase());
  return out;
}
