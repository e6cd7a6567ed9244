// Column type inference, shared by the CSV codec (cells are text) and the XLSX codec (cells carry a kind).
// A column's type is the narrowest one every non-null cell fits; when none fits, the column is `string`.
import { isIsoDate, isIsoDateTime, type Cell, type ColumnType } from '../../bindings/spreadsheets/workbook.ts';

// ---- text cells (CSV) ----

const INTEGER = 1,
  NUMBER = 2,
  BOOLEAN = 4,
  DATE = 8,
  DATETIME = 16,
  ALL = 31;

const INTEGER_TEXT = /^-?(0|[1-9]\d*)$/;
/** JSON number grammar: no leading zeros (`007` stays text: codes, zip codes), no `+`, no thousands separators. */
const NUMBER_TEXT = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?$/;
const DATETIME_TEXT = /^(\d{4}-\d{2}-\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(\.\d{1,3})?)?$/;

function significantDigits(text: string): number {
  const mantissa = text
    .replace(/^-/, '')
    .replace(/[eE].*$/, '')
    .replace('.', '');
  return mantissa.replace(/^0+/, '').length;
}

/** The types a text cell could be. Integers beyond 2^53 and decimals beyond 17 significant digits stay text (no silent rounding). */
function textKinds(text: string): number {
  if (INTEGER_TEXT.test(text)) return Number.isSafeInteger(Number(text)) ? INTEGER | NUMBER : 0;
  if (NUMBER_TEXT.test(text)) {
    const n = Number(text);
    return Number.isFinite(n) && (n !== 0 || !/[1-9]/.test(text.replace(/[eE].*$/, ''))) && significantDigits(text) <= 17 ? NUMBER : 0;
  }
  const lower = text.toLowerCase();
  if (lower === 'true' || lower === 'false') return BOOLEAN;
  if (isIsoDate(text)) return DATE | DATETIME;
  if (normalizeDateTime(text) !== null) return DATETIME;
  return 0;
}

/** `YYYY-MM-DD[T ]HH:MM[:SS[.sss]]` → `YYYY-MM-DDTHH:MM:SS[.sss]`, or null. A bare date becomes midnight. */
function normalizeDateTime(text: string): string | null {
  if (isIsoDate(text)) return `${text}T00:00:00`;
  const m = DATETIME_TEXT.exec(text);
  if (!m) return null;
  const out = canonicalTime(`${m[1]}T${m[2]}:${m[3]}:${m[4] ?? '00'}${m[5] ?? ''}`);
  return isIsoDateTime(out) ? out : null;
}

/** Fractions of a second without trailing zeros (`.250` → `.25`, `.000` → none), so CSV and XLSX agree. */
export function canonicalTime(dateTime: string): string {
  return dateTime.replace(/\.(\d*?)0+$/, (_, digits: string) => (digits ? `.${digits}` : ''));
}

function typeOfMask(mask: number): ColumnType {
  if (mask & INTEGER) return 'integer';
  if (mask & NUMBER) return 'number';
  if (mask & BOOLEAN) return 'boolean';
  if (mask & DATE) return 'date';
  if (mask & DATETIME) return 'datetime';
  return 'string';
}

/** Infer the type of each column of text cells (null = empty) and convert the cells in place. */
export function typeTextColumns(width: number, rows: Cell[][]): ColumnType[] {
  const masks = new Array<number>(width).fill(ALL);
  const seen = new Array<boolean>(width).fill(false);
  for (const row of rows) {
    for (let c = 0; c < width; c++) {
      const cell = row[c];
      if (cell === null || masks[c] === 0) continue;
      seen[c] = true;
      masks[c] &= textKinds(cell as string);
    }
  }
  const types = masks.map((mask, c) => (seen[c] ? typeOfMask(mask) : 'string'));
  for (const row of rows) {
    for (let c = 0; c < width; c++) {
      const cell = row[c];
      if (cell === null) continue;
      const text = cell as string;
      switch (types[c]) {
        case 'integer':
        case 'number':
          row[c] = Number(text);
          break;
        case 'boolean':
          row[c] = text.toLowerCase() === 'true';
          break;
        case 'datetime':
          row[c] = normalizeDateTime(text);
          break;
        default:
          break;
      }
    }
  }
  return types;
}

// ---- typed cells (XLSX) ----

/** A cell as the XLSX reader sees it: its native kind, before the column's type is known. */
export type TypedCell =
  | null
  | { kind: 'string'; value: string }
  | { kind: 'number'; value: number }
  | { kind: 'boolean'; value: boolean }
  | { kind: 'date'; value: string }
  | { kind: 'datetime'; value: string };

/** Text form of a cell in a column of mixed kinds. */
export function cellText(cell: Exclude<TypedCell, null>): string {
  switch (cell.kind) {
    case 'boolean':
      return cell.value ? 'TRUE' : 'FALSE';
    case 'number':
      return String(cell.value);
    default:
      return cell.value;
  }
}

export function typedColumnType(cells: Iterable<TypedCell>): ColumnType {
  const kinds = new Set<string>();
  let integral = true;
  for (const cell of cells) {
    if (!cell) continue;
    kinds.add(cell.kind);
    if (cell.kind === 'number' && !Number.isSafeInteger(cell.value)) integral = false;
  }
  if (kinds.size === 0) return 'string';
  if (kinds.size === 1) {
    const [kind] = kinds;
    return kind === 'number' ? (integral ? 'integer' : 'number') : (kind as ColumnType);
  }
  if (kinds.size === 2 && kinds.has('date') && kinds.has('datetime')) return 'datetime';
  return 'string';
}

export function typedCellValue(type: ColumnType, cell: TypedCell): Cell {
  if (!cell) return null;
  if (type === 'string') return cellText(cell);
  if (type === 'datetime' && cell.kind === 'date') return `${cell.value}T00:00:00`;
  return cell.value;
}
