// What spreadsheet_read and spreadsheet_write say when a file or workbook cannot be used, in both languages side by
// side. Each is a 400 invalid_input naming the argument to fix; the spreadsheet threads throw them too.
import type * as v from 'valibot';
import { ServiceError, l10n, type Localized } from '../../errors.ts';
import { describeAllIssues } from '../../validation-messages.ts';
import { SPREADSHEET_LIMITS } from './limits.ts';

function mib(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(bytes % (1024 * 1024) === 0 ? 0 : 1)} MiB`;
}

const fmt = (n: number) => n.toLocaleString('en-US');

/** A limit or content problem the caller can fix: 400 invalid_input naming the field. */
function invalid(field: string, problem: Localized): ServiceError {
  return new ServiceError('invalid_input', { resolution: l10n(`\`${field}\`: ${problem['en-US']}`, `\`${field}\`: ${problem['pt-BR']}`) });
}

/** More data cells than the call may return; `budget` is what is left of maxCells for this table. */
function tooManyCells(what: Localized, width: number, budget: number): ServiceError {
  const max = SPREADSHEET_LIMITS.maxCells;
  const rows = fmt(Math.floor(budget / Math.max(1, width)));
  return invalid(
    'fileId',
    l10n(
      `${what['en-US']} has more than ${fmt(budget)} data cells (rows × columns, header excluded)${budget < max ? ' left for it' : ''}; ` +
        `spreadsheet_read returns at most ${fmt(max)} per call. Pass \`maxRows\` (at most ${rows} here) or \`sheet\` to read part of it.`,
      `${what['pt-BR']} tem mais de ${fmt(budget)} células de dados (linhas × colunas, sem o cabeçalho)${budget < max ? ' disponíveis para ela' : ''}; ` +
        `spreadsheet_read devolve no máximo ${fmt(max)} por chamada. Passe \`maxRows\` (no máximo ${rows} aqui) ou \`sheet\` para ler parte dela.`,
    ),
  );
}

// ---- reading: the file ----

export function fileTooLarge(byteLength: number, maxBytes: number): ServiceError {
  return invalid(
    'fileId',
    l10n(
      `the file has ${byteLength} bytes; spreadsheet_read reads files of at most ${mib(maxBytes)}. Split it, or export only the sheet you need.`,
      `o arquivo tem ${byteLength} bytes; spreadsheet_read lê arquivos de no máximo ${mib(maxBytes)}. Divida-o, ou exporte só a planilha de que precisa.`,
    ),
  );
}

/** `sheet` names another sheet than the one a CSV file has. */
export function csvHasOneSheet(sheetName: string): ServiceError {
  return invalid(
    'sheet',
    l10n(
      `a CSV file has one sheet, named ${JSON.stringify(sheetName)} after the file; omit \`sheet\`.`,
      `um arquivo CSV tem uma só planilha, chamada ${JSON.stringify(sheetName)} como o arquivo; omita \`sheet\`.`,
    ),
  );
}

// ---- reading: CSV ----

export function notCsvText(): ServiceError {
  return invalid(
    'fileId',
    l10n(
      'the file is neither CSV text nor XLSX (it contains NUL bytes). Legacy .xls and .ods files are not supported: save as .xlsx or .csv.',
      'o arquivo não é texto CSV nem XLSX (contém bytes NUL). Arquivos .xls antigos e .ods não são aceitos: salve como .xlsx ou .csv.',
    ),
  );
}

export function badByteOrderMark(encoding: string): ServiceError {
  return invalid(
    'fileId',
    l10n(
      `the file starts with a ${encoding} byte order mark but is not valid ${encoding}.`,
      `o arquivo começa com uma marca de ordem de bytes ${encoding}, mas não é ${encoding} válido.`,
    ),
  );
}

export function unclosedQuote(line: number): ServiceError {
  return invalid(
    'fileId',
    l10n(
      `the CSV has a quoted field that is never closed (opened on line ${line}).`,
      `o CSV tem um campo entre aspas que nunca é fechado (aberto na linha ${line}).`,
    ),
  );
}

export function tooManyFields(maxFields: number): ServiceError {
  return invalid(
    'fileId',
    l10n(
      `the CSV has a line with more than ${maxFields} fields (Excel's column limit).`,
      `o CSV tem uma linha com mais de ${maxFields} campos (o limite de colunas do Excel).`,
    ),
  );
}

export function csvFieldTooLong(dataRow: number, length: number, maxChars: number): ServiceError {
  return invalid(
    'fileId',
    l10n(
      `a CSV field on data row ${dataRow} has ${length} characters; a cell holds at most ${maxChars}.`,
      `um campo CSV na linha de dados ${dataRow} tem ${length} caracteres; uma célula comporta no máximo ${maxChars}.`,
    ),
  );
}

export function csvTooManyCells(width: number, budget: number): ServiceError {
  return tooManyCells(l10n('the CSV file', 'o arquivo CSV'), width, budget);
}

// ---- reading: XLSX ----

export function notReadableXlsx(why: string): ServiceError {
  return invalid('fileId', l10n(`the file is not a readable XLSX workbook (${why}).`, `o arquivo não é uma pasta de trabalho XLSX legível (${why}).`));
}

export function zipNotXlsx(): ServiceError {
  return invalid(
    'fileId',
    l10n(
      'the file is a zip but not an XLSX workbook (it has no xl/workbook.xml). OpenDocument (.ods), Numbers and other formats are not read: save as .xlsx or .csv.',
      'o arquivo é um zip, mas não uma pasta de trabalho XLSX (não tem xl/workbook.xml). OpenDocument (.ods), Numbers e outros formatos não são lidos: salve como .xlsx ou .csv.',
    ),
  );
}

export function xlsxInflatesTooLarge(max: number): ServiceError {
  return invalid(
    'fileId',
    l10n(
      `the XLSX inflates to more than ${mib(max)}, the most spreadsheet_read unpacks.`,
      `o XLSX descompactado passa de ${mib(max)}, o máximo que spreadsheet_read descompacta.`,
    ),
  );
}

export function tooManyZipEntries(entries: number, max: number): ServiceError {
  return invalid(
    'fileId',
    l10n(`the XLSX zip has ${entries} entries; at most ${max} are read.`, `o zip do XLSX tem ${entries} entradas; no máximo ${max} são lidas.`),
  );
}

export function tooManyCellElements(max: number): ServiceError {
  const most = fmt(max);
  return invalid(
    'fileId',
    l10n(
      `the XLSX holds more than ${most} cells and rows across its sheets, the most spreadsheet_read parses; split the workbook or export the needed sheet as CSV.`,
      `o XLSX tem mais de ${most} células e linhas somando as planilhas, o máximo que spreadsheet_read analisa; divida a pasta de trabalho ou exporte a planilha necessária como CSV.`,
    ),
  );
}

export function noWorksheets(): ServiceError {
  return invalid('fileId', l10n('the XLSX workbook has no worksheets.', 'a pasta de trabalho XLSX não tem planilhas.'));
}

/** `names`: the workbook's sheet names, quoted and listed. */
export function noSuchSheet(wanted: string, names: string): ServiceError {
  return invalid(
    'sheet',
    l10n(
      `no sheet named ${JSON.stringify(wanted)}; the workbook has ${names}.`,
      `não há planilha chamada ${JSON.stringify(wanted)}; a pasta de trabalho tem ${names}.`,
    ),
  );
}

export function xlsxCellTooLong(address: string, sheetName: string, maxChars: number): ServiceError {
  return invalid(
    'fileId',
    l10n(
      `cell ${address} of sheet ${JSON.stringify(sheetName)} has more than ${maxChars} characters.`,
      `a célula ${address} da planilha ${JSON.stringify(sheetName)} tem mais de ${maxChars} caracteres.`,
    ),
  );
}

export function tableTooWide(sheetName: string, maxColumns: number): ServiceError {
  return invalid(
    'fileId',
    l10n(
      `a table of sheet ${JSON.stringify(sheetName)} is wider than ${maxColumns} columns.`,
      `uma tabela da planilha ${JSON.stringify(sheetName)} tem mais de ${maxColumns} colunas.`,
    ),
  );
}

export function sheetTooManyCells(sheetName: string, width: number, budget: number): ServiceError {
  return tooManyCells(l10n(`sheet ${JSON.stringify(sheetName)}`, `a planilha ${JSON.stringify(sheetName)}`), width, budget);
}

// ---- writing ----

/** The workbook fails its schema: every issue, in each language's validation wording. */
export function workbookInvalid(issues: readonly v.BaseIssue<unknown>[]): ServiceError {
  return new ServiceError('invalid_input', { resolution: l10n(describeAllIssues(issues, 'en-US'), describeAllIssues(issues, 'pt-BR')) });
}

export function writeTooManyCells(cells: number): ServiceError {
  const n = fmt(cells),
    most = fmt(SPREADSHEET_LIMITS.maxCells);
  return invalid(
    'workbook',
    l10n(
      `${n} data cells; spreadsheet_write takes at most ${most} per call. Write several files.`,
      `${n} células de dados; spreadsheet_write aceita no máximo ${most} por chamada. Grave vários arquivos.`,
    ),
  );
}

export function csvHoldsOneTable(sheets: number, tablesOnFirst: number): ServiceError {
  return invalid(
    'workbook',
    l10n(
      `a CSV file holds one sheet with at most one table; this workbook has ${sheets} sheets and ${tablesOnFirst} tables on the first. Use format "xlsx", or write one CSV per table.`,
      `um arquivo CSV comporta uma planilha com no máximo uma tabela; esta pasta de trabalho tem ${sheets} planilhas e ${tablesOnFirst} tabelas na primeira. Use format "xlsx", ou grave um CSV por tabela.`,
    ),
  );
}

/** `format`: CSV or XLSX, as the caller reads it. */
export function writtenFileTooLarge(format: string, byteLength: number): ServiceError {
  const max = SPREADSHEET_LIMITS.maxFileBytes;
  return invalid(
    'workbook',
    l10n(
      `the ${format} file would have ${byteLength} bytes, more than ${mib(max)}, the most spreadsheet_read reads back. Write several files.`,
      `o arquivo ${format} teria ${byteLength} bytes, mais de ${mib(max)}, o máximo que spreadsheet_read lê de volta. Grave vários arquivos.`,
    ),
  );
}
