// CSV ⇄ one sheet holding one table. Reading follows RFC 4180 (quoted fields with "" escapes and embedded line
// breaks; CRLF, LF or CR line ends) with what spreadsheet programs add: a byte order mark, Excel's `sep=;` first line,
// `;` or tab delimiters (detected), Windows-1252 text. Writing is RFC 4180 with CRLF line ends.
import type { Cell, ColumnType, Sheet, Table } from '../../bindings/spreadsheets/workbook.ts';
import { MAX_CELL_CHARS, MAX_COLUMNS } from '../../bindings/spreadsheets/workbook.ts';
import { typeTextColumns } from './types.ts';
import { columnNames } from './names.ts';
import { badByteOrderMark, csvFieldTooLong, csvTooManyCells, notCsvText, tooManyFields, unclosedQuote } from './messages.ts';

export type CsvDelimiter = ',' | ';' | '\t';
const DELIMITERS: readonly CsvDelimiter[] = [',', ';', '\t'];

/** UTF-8 (with or without BOM), UTF-16 with a BOM, else Windows-1252 (Excel's "CSV" on Western Windows). */
export function decodeText(bytes: Buffer): string {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return decode('utf-8', bytes.subarray(3));
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return decode('utf-16le', bytes.subarray(2));
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return decode('utf-16be', bytes.subarray(2));
  if (bytes.includes(0)) throw notCsvText();
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return new TextDecoder('windows-1252').decode(bytes);
  }
}

function decode(encoding: string, bytes: Buffer): string {
  try {
    return new TextDecoder(encoding, { fatal: true }).decode(bytes);
  } catch {
    throw badByteOrderMark(encoding);
  }
}

type Field = string | null;

/** RFC 4180 records. An empty unquoted field is null; a quoted empty field (`""`) is the empty string. */
export function* records(text: string, delimiter: string, start = 0, maxFields = Infinity): Generator<Field[]> {
  const n = text.length;
  let i = start;
  while (i < n) {
    const row: Field[] = [];
    for (;;) {
      let k: number;
      if (text.charCodeAt(i) === 34 /* " */) {
        let value = '';
        let j = i + 1;
        for (;;) {
          const q = text.indexOf('"', j);
          if (q === -1) throw unclosedQuote(lineOf(text, i));
          value += text.slice(j, q);
          if (text.charCodeAt(q + 1) === 34) {
            value += '"';
            j = q + 2;
            continue;
          }
          i = q + 1;
          break;
        }
        // Lenient like spreadsheet programs: text between the closing quote and the delimiter is kept.
        k = fieldEnd(text, i, delimiter);
        row.push(value + text.slice(i, k));
      } else {
        k = fieldEnd(text, i, delimiter);
        row.push(k === i ? null : text.slice(i, k));
      }
      i = k;
      if (row.length > maxFields) throw tooManyFields(maxFields);
      if (i >= n) {
        yield row;
        return;
      }
      if (text[i] === delimiter) {
        i++;
        continue;
      }
      i += text.charCodeAt(i) === 13 && text.charCodeAt(i + 1) === 10 ? 2 : 1;
      yield row;
      break;
    }
  }
}

function fieldEnd(text: string, from: number, delimiter: string): number {
  let k = from;
  for (; k < text.length; k++) {
    const c = text[k];
    if (c === delimiter || c === '\n' || c === '\r') break;
  }
  return k;
}

function lineOf(text: string, index: number): number {
  let line = 1;
  for (let i = 0; i < index; i++) if (text.charCodeAt(i) === 10) line++;
  return line;
}

/** Excel's `sep=;` first line names the delimiter; otherwise the candidate giving the most, and consistent, fields wins. */
export function detectDelimiter(text: string): { delimiter: CsvDelimiter; start: number } {
  const sep = /^sep=([,;\t|])\r?\n/.exec(text);
  if (sep && (DELIMITERS as readonly string[]).includes(sep[1])) return { delimiter: sep[1] as CsvDelimiter, start: sep[0].length };
  const sample = text.slice(0, 64 * 1024);
  let best: { delimiter: CsvDelimiter; score: number } = { delimiter: ',', score: 0 };
  for (const delimiter of DELIMITERS) {
    const counts: number[] = [];
    try {
      for (const row of records(sample, delimiter)) {
        counts.push(row.length);
        if (counts.length >= 20) break;
      }
    } catch {
      /* an unclosed quote in a cut sample: judge on what was read */
    }
    if (!counts.length || counts[0] < 2) continue;
    const consistent = counts.filter((c) => c === counts[0]).length / counts.length;
    const score = counts[0] * consistent;
    if (score > best.score) best = { delimiter, score };
  }
  return { delimiter: best.delimiter, start: 0 };
}

export interface CsvReadOptions {
  sheetName: string;
  maxRows?: number;
  /** Data cells allowed (the caller's remaining budget). */
  maxCells: number;
}

export function readCsv(bytes: Buffer, options: CsvReadOptions): Sheet {
  const text = decodeText(bytes);
  const { delimiter, start } = detectDelimiter(text);
  const it = records(text, delimiter, start, MAX_COLUMNS);
  let first = it.next();
  while (!first.done && first.value.every((f) => f === null)) first = it.next(); // blank lines before the header
  if (first.done) return { name: options.sheetName, tables: [] };
  const header = first.value;
  let width = header.length;
  const rows: Field[][] = [];
  let blank = 0; // blank lines seen since the last record: rows of nulls if a record follows, dropped at the end
  let truncated = false;
  for (const record of it) {
    if (record.every((f) => f === null)) {
      blank++;
      continue;
    }
    if (options.maxRows !== undefined && rows.length + blank >= options.maxRows) {
      truncated = true;
      break;
    }
    if (record.length > width) width = record.length;
    if ((rows.length + blank + 1) * width > options.maxCells) throw csvTooManyCells(width, options.maxCells);
    for (; blank > 0; blank--) rows.push([]);
    rows.push(record);
    for (const f of record) {
      if (f !== null && f.length > MAX_CELL_CHARS) throw csvFieldTooLong(rows.length, f.length, MAX_CELL_CHARS);
    }
  }
  const cells: Cell[][] = rows.map((r) => (r.length < width ? [...r, ...new Array<null>(width - r.length).fill(null)] : r));
  const names = columnNames([...header, ...new Array<null>(Math.max(0, width - header.length)).fill(null)]);
  const types = typeTextColumns(width, cells);
  const table: Table = { name: options.sheetName, columns: names.map((name, c) => ({ name, type: types[c] })), rows: cells };
  if (truncated) table.truncated = true;
  return { name: options.sheetName, tables: [table] };
}

// ---- writing ----

export interface CsvWriteOptions {
  delimiter: CsvDelimiter;
  /** Start with a UTF-8 byte order mark (Excel then reads accents right). */
  bom: boolean;
}

function field(value: string, delimiter: string): string {
  if (value === '' || value.includes(delimiter) || /["\r\n]/.test(value)) return `"${value.replace(/"/g, '""')}"`;
  return value;
}

function cellText(cell: Cell, type: ColumnType, delimiter: string): string {
  if (cell === null) return '';
  if (typeof cell === 'boolean') return cell ? 'true' : 'false';
  if (typeof cell === 'number') return String(cell);
  return type === 'string' ? field(cell, delimiter) : cell;
}

export function writeCsv(table: Table | null, options: CsvWriteOptions): Buffer {
  const { delimiter } = options;
  const lines: string[] = [];
  if (table) {
    lines.push(table.columns.map((c) => field(c.name, delimiter)).join(delimiter));
    for (const row of table.rows) lines.push(row.map((cell, c) => cellText(cell, table.columns[c].type, delimiter)).join(delimiter));
  }
  const body = lines.length ? `${lines.join('\r\n')}\r\n` : '';
  return Buffer.concat([options.bom ? Buffer.from([0xef, 0xbb, 0xbf]) : Buffer.alloc(0), Buffer.from(body, 'utf8')]);
}
