// Writes fixtures/spreadsheets/: CSV files as spreadsheet programs export them (BOM, `;`, CRLF, Windows-1252),
// an XLSX made by exceljs, and XLSX files whose XML follows what Excel itself writes (shared strings, built-in and
// custom date formats, formulas with cached values, a table part without headerRowCount, sparse rows, 1904 dates).
// Run: node --no-node-snapshot scripts/make-spreadsheet-fixtures.ts  (outputs are committed; tests read them).
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ExcelJS from 'exceljs';
import { zip } from '../test/spreadsheets/zip-writer.ts';

const OUT = fileURLToPath(new URL('../fixtures/spreadsheets/', import.meta.url));

// ---- CSV ----

const SALES_CSV = [
  'id,region,product,quantity,unit_price,in_stock,sold_on,recorded_at,sku,notes',
  '1,North,Café,10,12.5,true,2024-01-01,2024-01-01 12:00:00,007,',
  '2,South,"Pão de queijo, large",3,4.75,false,2024-02-29,2024-02-29T18:30:00,010,"Delivered ""early"""',
  '3,Northeast,Açaí,,20,TRUE,,2024-03-10 09:15,120,"two',
  'lines"',
  '4,West,Mate,7,-3.5e2,FALSE,2024-12-31,2024-12-31 23:59:59.250,A-99,""',
  '',
].join('\r\n');

/** Excel "CSV UTF-8" where the list separator is `;` (pt-BR, de-DE…): BOM, `;`, CRLF, decimal commas stay text. */
const EXCEL_PT_BR_CSV =
  '\uFEFF' +
  ['Região;Descrição;Quantidade;Preço;Data', 'Norte;Maçã;12;3,50;2024-05-01', 'Sul;"Feijão; preto";7;10,00;2024-05-02', 'Centro-Oeste;Pequi;;;', ''].join(
    '\r\n',
  );

/** Excel's "CSV (Comma delimited)" on Western Windows: Windows-1252, no BOM. */
const WINDOWS_1252_CSV = Buffer.from(['name,city,amount', 'José,São Paulo,100', 'Zoë,Zürich,250.75', 'François,Besançon,-12', ''].join('\r\n'), 'latin1');

/** What hand-made CSVs do: `sep=` hint, blank header cells, repeated headers, ragged rows, LF line ends, blank lines. */
const EDGE_CASES_CSV = ['sep=,', 'code,,code,flag', '00123,x,1,yes', '', '99,y,2,no,extra', '1e3,z,3', '', ''].join('\n');

// ---- XLSX made by exceljs ----

async function exceljsWorkbook(): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  wb.creator = 'fixtures';
  wb.created = wb.modified = new Date(Date.UTC(2024, 0, 1));
  const orders = wb.addWorksheet('Orders');
  orders.addRow(['order', 'customer', 'amount', 'paid', 'ordered_on', 'shipped_at', 'total_with_tax']);
  const data: [number, string, number, boolean, Date, Date | null][] = [
    [1001, 'Ana Conceição', 199.9, true, new Date(Date.UTC(2024, 5, 1)), new Date(Date.UTC(2024, 5, 2, 14, 5, 0))],
    [1002, 'Bjørn Ødegård', 45, false, new Date(Date.UTC(2024, 5, 3)), null],
    [1003, 'Chloé', 1200.5, true, new Date(Date.UTC(2024, 5, 4)), new Date(Date.UTC(2024, 5, 5, 9, 0, 30))],
  ];
  data.forEach((d, i) => {
    const row = orders.addRow([...d, { formula: `C${i + 2}*1.1`, result: Math.round(d[2] * 1.1 * 100) / 100 }]);
    row.getCell(5).numFmt = 'dd/mm/yyyy';
    row.getCell(6).numFmt = 'yyyy-mm-dd hh:mm:ss';
  });
  orders.getCell('B5').value = { richText: [{ text: 'Rich ', font: { bold: true } }, { text: 'text' }] };
  orders.getCell('A5').value = 1004;
  orders.getCell('C5').value = { text: 'n/a', hyperlink: 'https://example.com' };
  const lookup = wb.addWorksheet('Lookups');
  lookup.addTable({
    name: 'Currencies',
    ref: 'A1',
    headerRow: true,
    style: { theme: 'TableStyleMedium2', showRowStripes: true },
    columns: [{ name: 'code' }, { name: 'rate' }],
    rows: [
      ['EUR', 1],
      ['BRL', 5.42],
      ['JPY', 151.3],
    ],
  });
  lookup.addTable({
    name: 'Flags',
    ref: 'D1',
    headerRow: true,
    style: { theme: 'TableStyleLight1', showRowStripes: true },
    columns: [{ name: 'flag' }, { name: 'on' }],
    rows: [
      ['beta', true],
      ['legacy', false],
    ],
  });
  const merged = wb.addWorksheet('Merged');
  merged.getCell('A1').value = 'label';
  merged.getCell('B1').value = 'value';
  merged.getCell('A2').value = 'span';
  merged.mergeCells('A2:B2');
  merged.getCell('A3').value = 'err';
  merged.getCell('B3').value = { error: '#N/A' } as ExcelJS.CellErrorValue;
  wb.addWorksheet('Empty');
  return Buffer.from(await wb.xlsx.writeBuffer());
}

// ---- XLSX as Excel writes it ----

const NS =
  'xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships" ' +
  'xmlns:mc="http://schemas.openxmlformats.org/markup-compatibility/2006" mc:Ignorable="x14ac" xmlns:x14ac="http://schemas.microsoft.com/office/spreadsheetml/2009/9/ac"';
const DECL = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\r\n';
const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

function excelStyleWorkbook(options: { date1904: boolean }): Buffer {
  const strings: string[] = [];
  const s = (text: string) => {
    let i = strings.indexOf(text);
    if (i < 0) {
      i = strings.length;
      strings.push(text);
    }
    return `t="s"><v>${i}</v>`;
  };
  // Styles: 0 General, 1 date (built-in 14), 2 date-time (built-in 22), 3 custom dd/mm/yyyy (164), 4 time (built-in 20), 5 #,##0.00 (4)
  const cell = (ref: string, body: string, style = 0) => `<c r="${ref}"${style ? ` s="${style}"` : ''} ${body}</c>`;
  const num = (n: number) => `><v>${n}</v>`;
  const f = (formula: string, cached: string, type = '') => `${type ? `t="${type}"` : ''}><f>${esc(formula)}</f><v>${esc(cached)}</v>`;
  const base = options.date1904 ? 1462 : 0; // serials shift by 1462 days in the 1904 system
  const sales = [
    `<row r="1" spans="1:10">${['Região', 'Produto', 'Quantidade', 'Preço', 'Total', 'Data', 'Registrado em', 'Hora', 'Ativo', 'Código'].map((h, i) => cell(`${'ABCDEFGHIJ'[i]}1`, s(h))).join('')}</row>`,
    `<row r="2" spans="1:10">${cell('A2', s('Norte'))}${cell('B2', s('Café'))}${cell('C2', num(10))}${cell('D2', num(12.5), 5)}${cell('E2', f('C2*D2', '125'))}` +
      `${cell('F2', num(45292 - base), 3)}${cell('G2', num(45292.5 - base), 2)}${cell('H2', num(0.75), 4)}${cell('I2', 't="b"><v>1</v>')}${cell('J2', f('A2&"-"&B2', 'Norte-Café', 'str'))}</row>`,
    `<row r="3" spans="1:10">${cell('A3', s('Sul'))}${cell('B3', s('Pão de queijo'))}${cell('C3', num(3))}${cell('D3', num(4.75), 5)}${cell('E3', f('C3*D3', '14.25'))}` +
      `${cell('F3', num(45351 - base), 3)}${cell('G3', num(45351.770833333336 - base), 2)}${cell('I3', 't="b"><v>0</v>')}${cell('J3', f('A3&"-"&B3', 'Sul-Pão de queijo', 'str'))}</row>`,
    // Row 4: no quantity (sparse row: Excel omits empty cells), an inline string, a #DIV/0! error.
    `<row r="4" spans="1:10">${cell('A4', s('Nordeste'))}${cell('B4', 't="inlineStr"><is><t>Açaí</t></is>')}${cell('D4', num(20), 5)}${cell('E4', f('C4*D4', '0'))}` +
      `${cell('F4', num(45366 - base), 3)}${cell('G4', num(45366 - base), 2)}${cell('H4', f('1/0', '#DIV/0!', 'e'), 4)}${cell('I4', 't="b"><v>1</v>')}${cell('J4', f('A4&"-"&B4', 'Nordeste-Açaí', 'str'))}</row>`,
    // Row 5 only styled (Excel keeps formatted empty cells): not data.
    `<row r="5" spans="1:10">${cell('A5', '>', 5).replace(' ></c>', '/>')}</row>`,
  ];
  const sheet1 =
    `${DECL}<worksheet ${NS}><dimension ref="A1:J5"/><sheetViews><sheetView tabSelected="1" workbookViewId="0"><pane ySplit="1" topLeftCell="A2" activePane="bottomLeft" state="frozen"/></sheetView></sheetViews>` +
    `<sheetFormatPr defaultRowHeight="15" x14ac:dyDescent="0.25"/><cols><col min="1" max="2" width="16" customWidth="1"/></cols><sheetData>${sales.join('')}</sheetData>` +
    '<pageMargins left="0.7" right="0.7" top="0.75" bottom="0.75" header="0.3" footer="0.3"/></worksheet>';
  const params = [
    `<row r="2" spans="2:3">${cell('B2', s('Chave'))}${cell('C2', s('Valor'))}</row>`,
    `<row r="3" spans="2:3">${cell('B3', s('moeda'))}${cell('C3', s('BRL'))}</row>`,
    `<row r="4" spans="2:3">${cell('B4', s('limite'))}${cell('C4', num(1500))}</row>`,
    `<row r="10" spans="5:5">${cell('E10', s('nota fora da tabela'))}</row>`,
  ];
  const sheet2 =
    `${DECL}<worksheet ${NS}><dimension ref="B2:E10"/><sheetViews><sheetView workbookViewId="0"/></sheetViews><sheetFormatPr defaultRowHeight="15"/>` +
    `<sheetData>${params.join('')}</sheetData><pageMargins left="0.7" right="0.7" top="0.75" bottom="0.75" header="0.3" footer="0.3"/>` +
    '<tableParts count="1"><tablePart r:id="rId1"/></tableParts></worksheet>';
  const sheet3 =
    `${DECL}<worksheet ${NS}><dimension ref="A1"/><sheetViews><sheetView workbookViewId="0"/></sheetViews><sheetFormatPr defaultRowHeight="15"/><sheetData/>` +
    '<pageMargins left="0.7" right="0.7" top="0.75" bottom="0.75" header="0.3" footer="0.3"/></worksheet>';
  // Excel omits headerRowCount (default 1) and writes totalsRowShown="0".
  const table1 =
    `${DECL}<table xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" id="1" name="tblParametros" displayName="tblParametros" ref="B2:C4" totalsRowShown="0">` +
    '<autoFilter ref="B2:C4"/><tableColumns count="2"><tableColumn id="1" name="Chave"/><tableColumn id="2" name="Valor"/></tableColumns>' +
    '<tableStyleInfo name="TableStyleMedium2" showFirstColumn="0" showLastColumn="0" showRowStripes="1" showColumnStripes="0"/></table>';
  const sst =
    `${DECL}<sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" count="${strings.length}" uniqueCount="${strings.length}">` +
    `${strings.map((t) => `<si><t>${esc(t)}</t></si>`).join('')}</sst>`;
  const styles =
    `${DECL}<styleSheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><numFmts count="1"><numFmt numFmtId="164" formatCode="dd/mm/yyyy"/></numFmts>` +
    '<fonts count="1"><font><sz val="11"/><color theme="1"/><name val="Calibri"/><family val="2"/><scheme val="minor"/></font></fonts>' +
    '<fills count="2"><fill><patternFill patternType="none"/></fill><fill><patternFill patternType="gray125"/></fill></fills>' +
    '<borders count="1"><border><left/><right/><top/><bottom/><diagonal/></border></borders>' +
    '<cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs>' +
    '<cellXfs count="6"><xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/>' +
    '<xf numFmtId="14" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/>' +
    '<xf numFmtId="22" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/>' +
    '<xf numFmtId="164" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/>' +
    '<xf numFmtId="20" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/>' +
    '<xf numFmtId="4" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/></cellXfs>' +
    '<cellStyles count="1"><cellStyle name="Normal" xfId="0" builtinId="0"/></cellStyles><dxfs count="0"/><tableStyles count="0" defaultTableStyle="TableStyleMedium2" defaultPivotStyle="PivotStyleLight16"/></styleSheet>';
  const workbook =
    `${DECL}<workbook ${NS}><fileVersion appName="xl" lastEdited="7" lowestEdited="7" rupBuild="27425"/>` +
    `<workbookPr ${options.date1904 ? 'date1904="1" ' : ''}defaultThemeVersion="202300"/><bookViews><workbookView xWindow="-110" yWindow="-110" windowWidth="25820" windowHeight="15500"/></bookViews>` +
    '<sheets><sheet name="Vendas" sheetId="1" r:id="rId1"/><sheet name="Parâmetros" sheetId="2" r:id="rId2"/><sheet name="Vazia" sheetId="3" r:id="rId3"/></sheets>' +
    '<calcPr calcId="191029"/></workbook>';
  const rel = (id: string, type: string, target: string) =>
    `<Relationship Id="${id}" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/${type}" Target="${target}"/>`;
  const rels = (...items: string[]) =>
    `${DECL}<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">${items.join('')}</Relationships>`;
  const ct =
    `${DECL}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/>` +
    '<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>' +
    [1, 2, 3]
      .map((n) => `<Override PartName="/xl/worksheets/sheet${n}.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>`)
      .join('') +
    '<Override PartName="/xl/tables/table1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.table+xml"/>' +
    '<Override PartName="/xl/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"/>' +
    '<Override PartName="/xl/sharedStrings.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sharedStrings+xml"/></Types>';
  return zip([
    ['[Content_Types].xml', ct],
    ['_rels/.rels', rels(rel('rId1', 'officeDocument', 'xl/workbook.xml'))],
    ['xl/workbook.xml', workbook],
    [
      'xl/_rels/workbook.xml.rels',
      rels(
        rel('rId1', 'worksheet', 'worksheets/sheet1.xml'),
        rel('rId2', 'worksheet', 'worksheets/sheet2.xml'),
        rel('rId3', 'worksheet', 'worksheets/sheet3.xml'),
        rel('rId4', 'styles', 'styles.xml'),
        rel('rId5', 'sharedStrings', 'sharedStrings.xml'),
      ),
    ],
    ['xl/worksheets/sheet1.xml', sheet1],
    ['xl/worksheets/sheet2.xml', sheet2],
    ['xl/worksheets/sheet3.xml', sheet3],
    ['xl/worksheets/_rels/sheet2.xml.rels', rels(rel('rId1', 'table', '../tables/table1.xml'))],
    ['xl/tables/table1.xml', table1],
    ['xl/styles.xml', styles],
    ['xl/sharedStrings.xml', sst],
  ]);
}

await mkdir(OUT, { recursive: true });
await writeFile(join(OUT, 'sales.csv'), SALES_CSV);
await writeFile(join(OUT, 'excel-pt-br.csv'), EXCEL_PT_BR_CSV);
await writeFile(join(OUT, 'windows-1252.csv'), WINDOWS_1252_CSV);
await writeFile(join(OUT, 'edge-cases.csv'), EDGE_CASES_CSV);
await writeFile(join(OUT, 'exceljs-orders.xlsx'), await exceljsWorkbook());
await writeFile(join(OUT, 'excel-style.xlsx'), excelStyleWorkbook({ date1904: false }));
await writeFile(join(OUT, 'excel-style-1904.xlsx'), excelStyleWorkbook({ date1904: true }));
console.log(`fixtures written to ${OUT}`);
