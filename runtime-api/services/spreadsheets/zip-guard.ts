// Before exceljs loads an XLSX (it inflates the whole zip and builds every cell in memory), inflate each entry
// ourselves under hard caps: the real inflated size (not the size the zip claims), the entry count, and the number of
// `<c>` cell elements in the worksheets. A zip bomb or a sheet of millions of cells is refused before it costs memory.
import { inflateRawSync } from 'node:zlib';
import { SPREADSHEET_LIMITS } from './limits.ts';
import { notReadableXlsx, tooManyCellElements, tooManyZipEntries, xlsxInflatesTooLarge, zipNotXlsx } from './messages.ts';

const EOCD = 0x06054b50;
const CENTRAL = 0x02014b50;
const LOCAL = 0x04034b50;

export function isZip(bytes: Buffer): boolean {
  return bytes.length >= 4 && bytes.readUInt32LE(0) === LOCAL;
}

export interface ZipCensus {
  entries: number;
  /** Whether the zip has the workbook part exceljs reads (every XLSX does). */
  hasWorkbook: boolean;
  inflatedBytes: number;
  cellElements: number;
}

/** `<c …>` and `<row …>` elements: exceljs makes an object of each, empty or not. */
function countElements(xml: Buffer, tag: string): number {
  let count = 0;
  const open = `<${tag}`;
  for (let i = xml.indexOf(open); i !== -1; i = xml.indexOf(open, i + open.length)) {
    const next = xml[i + open.length];
    if (next === 0x20 || next === 0x3e || next === 0x2f || next === 0x0a || next === 0x0d || next === 0x09) count++;
  }
  return count;
}

export function guardXlsxZip(bytes: Buffer, limits = SPREADSHEET_LIMITS): ZipCensus {
  let eocd = -1;
  for (let i = bytes.length - 22; i >= Math.max(0, bytes.length - 22 - 0xffff); i--) {
    if (bytes.readUInt32LE(i) === EOCD) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) throw notReadableXlsx('no zip central directory');
  const total = bytes.readUInt16LE(eocd + 10);
  const cdOffset = bytes.readUInt32LE(eocd + 16);
  if (total === 0xffff || cdOffset === 0xffffffff) throw notReadableXlsx('zip64 archives are not supported');
  if (total > limits.maxXlsxEntries) throw tooManyZipEntries(total, limits.maxXlsxEntries);
  const census: ZipCensus = { entries: total, hasWorkbook: false, inflatedBytes: 0, cellElements: 0 };
  let p = cdOffset;
  for (let n = 0; n < total; n++) {
    if (p + 46 > bytes.length || bytes.readUInt32LE(p) !== CENTRAL) throw notReadableXlsx('damaged zip central directory');
    const method = bytes.readUInt16LE(p + 10);
    const compressed = bytes.readUInt32LE(p + 20);
    const nameLength = bytes.readUInt16LE(p + 28);
    const extraLength = bytes.readUInt16LE(p + 30);
    const commentLength = bytes.readUInt16LE(p + 32);
    const local = bytes.readUInt32LE(p + 42);
    const name = bytes.toString('utf8', p + 46, p + 46 + nameLength);
    p += 46 + nameLength + extraLength + commentLength;
    if (compressed === 0xffffffff || local === 0xffffffff) throw notReadableXlsx('zip64 archives are not supported');
    if (local + 30 > bytes.length || bytes.readUInt32LE(local) !== LOCAL) throw notReadableXlsx('damaged zip entry');
    const start = local + 30 + bytes.readUInt16LE(local + 26) + bytes.readUInt16LE(local + 28);
    if (start + compressed > bytes.length) throw notReadableXlsx('truncated zip entry');
    const raw = bytes.subarray(start, start + compressed);
    const budget = limits.maxXlsxInflatedBytes - census.inflatedBytes;
    let data: Buffer;
    if (method === 0) {
      data = raw;
    } else if (method === 8) {
      try {
        data = inflateRawSync(raw, { maxOutputLength: Math.max(1, budget + 1) });
      } catch (err) {
        if ((err as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE' || err instanceof RangeError) throw xlsxInflatesTooLarge(limits.maxXlsxInflatedBytes);
        throw notReadableXlsx(`zip entry ${name} does not inflate`);
      }
    } else {
      throw notReadableXlsx(`zip compression method ${method} is not supported`);
    }
    census.inflatedBytes += data.length;
    if (census.inflatedBytes > limits.maxXlsxInflatedBytes) throw xlsxInflatesTooLarge(limits.maxXlsxInflatedBytes);
    if (name === 'xl/workbook.xml') census.hasWorkbook = true;
    if (/^xl\/worksheets\/[^/]+\.xml$/i.test(name)) {
      census.cellElements += countElements(data, 'c') + countElements(data, 'row');
      if (census.cellElements > limits.maxXlsxCellElements) throw tooManyCellElements(limits.maxXlsxCellElements);
    }
  }
  if (!census.hasWorkbook) throw zipNotXlsx();
  return census;
}
