// The XLSX codec on its own: what Excel-made and exceljs-made files read as, XLSX → workbook → XLSX round trips,
// what the written file holds for another reader (exceljs directly), and the caps that keep a hostile zip out.
import t from 'tap';
import { readFile } from 'node:fs/promises';
import * as v from 'valibot';
import ExcelJS from 'exceljs';
import { readXlsx, writeXlsx } from '../../runtime-api/services/spreadsheets/xlsx.ts';
import { guardXlsxZip } from '../../runtime-api/services/spreadsheets/zip-guard.ts';
import { SPREADSHEET_LIMITS, concurrencyLimit } from '../../runtime-api/services/spreadsheets/limits.ts';
import { WorkbookSchema, type Workbook } from '../../runtime-api/bindings/spreadsheets/workbook.ts';
import type { ServiceError } from '../../runtime-api/errors.ts';
import { zip } from './zip-writer.ts';
import { sheetNameFromFile, sheetNameFromXlsx } from '../../runtime-api/services/spreadsheets/names.ts';

const FIXTURES = new URL('../../fixtures/spreadsheets/', import.meta.url);
const fixture = (name: string) => readFile(new URL(name, FIXTURES));
const read = (bytes: Buffer, options: { sheet?: string; maxRows?: number } = {}) => readXlsx(bytes, { maxCells: 100_000, ...options });
const failure = async (p: Promise<unknown>) =>
  (await p.then(
    () => null,
    (e) => e,
  )) as ServiceError;

t.test('a workbook written the way Excel writes it', async (t) => {
  const wb = await read(await fixture('excel-style.xlsx'));
  t.ok(v.safeParse(WorkbookSchema, wb).success, 'valid against the workbook schema');
  t.same(
    wb.sheets.map((s) => s.name),
    ['Vendas', 'Parâmetros', 'Vazia'],
    'sheets in workbook order, accents kept',
  );
  const [sales] = wb.sheets[0].tables;
  t.equal(sales.name, 'Vendas', 'no Excel table on the sheet: one table named like it');
  t.same(sales.columns, [
    { name: 'Região', type: 'string' },
    { name: 'Produto', type: 'string' },
    { name: 'Quantidade', type: 'integer' },
    { name: 'Preço', type: 'number' },
    { name: 'Total', type: 'number' },
    { name: 'Data', type: 'date' },
    { name: 'Registrado em', type: 'datetime' },
    { name: 'Hora', type: 'string' },
    { name: 'Ativo', type: 'boolean' },
    { name: 'Código', type: 'string' },
  ]);
  t.same(
    sales.rows,
    [
      ['Norte', 'Café', 10, 12.5, 125, '2024-01-01', '2024-01-01T12:00:00', '18:00:00', true, 'Norte-Café'],
      ['Sul', 'Pão de queijo', 3, 4.75, 14.25, '2024-02-29', '2024-02-29T18:30:00', null, false, 'Sul-Pão de queijo'],
      ['Nordeste', 'Açaí', null, 20, 0, '2024-03-15', '2024-03-15T00:00:00', null, true, 'Nordeste-Açaí'],
    ],
    'cached formula results (0 included), custom and built-in date formats, a time alone as text, #DIV/0! as null, ' +
      'inline strings, sparse cells as null, the styled empty row 5 dropped',
  );
  t.same(
    wb.sheets[1].tables,
    [
      {
        name: 'tblParametros',
        columns: [
          { name: 'Chave', type: 'string' },
          { name: 'Valor', type: 'string' },
        ],
        rows: [
          ['moeda', 'BRL'],
          ['limite', '1500'],
        ],
      },
    ],
    'an Excel table (no headerRowCount, as Excel writes it) is read by its range; cells outside it are ignored; mixed kinds are text',
  );
  t.same(wb.sheets[2].tables, [], 'an empty sheet has no tables');
  t.same(await read(await fixture('excel-style-1904.xlsx')), wb, 'the 1904 date system gives the same dates');
});

t.test('a workbook made by exceljs: tables, rich text, hyperlinks, merged cells, errors', async (t) => {
  const wb = await read(await fixture('exceljs-orders.xlsx'));
  t.ok(v.safeParse(WorkbookSchema, wb).success);
  const [orders] = wb.sheets[0].tables;
  t.same(
    orders.columns.map((c) => c.type),
    ['integer', 'string', 'string', 'boolean', 'date', 'datetime', 'number'],
  );
  t.same(orders.rows[0], [1001, 'Ana Conceição', '199.9', true, '2024-06-01', '2024-06-02T14:05:00', 219.89]);
  t.same(
    orders.rows[3],
    [1004, 'Rich text', 'n/a', null, null, null, null],
    "rich text joined, a hyperlink's text; the column mixing numbers and text is string",
  );
  t.same(
    wb.sheets[1].tables.map((x) => x.name),
    ['Currencies', 'Flags'],
    'two Excel tables side by side',
  );
  t.same(wb.sheets[1].tables[1], {
    name: 'Flags',
    columns: [
      { name: 'flag', type: 'string' },
      { name: 'on', type: 'boolean' },
    ],
    rows: [
      ['beta', true],
      ['legacy', false],
    ],
  });
  t.same(
    wb.sheets[2].tables[0].rows,
    [
      ['span', null],
      ['err', null],
    ],
    'a merged cell has its value in the top-left cell only; #N/A is null',
  );
  t.same(wb.sheets[3], { name: 'Empty', tables: [] });
});

t.test('XLSX → workbook → XLSX → workbook keeps values and types', async (t) => {
  for (const name of ['excel-style.xlsx', 'excel-style-1904.xlsx', 'exceljs-orders.xlsx']) {
    const first = await read(await fixture(name));
    const second = await read(await writeXlsx(first));
    t.same(second, first, `${name}: same sheets, tables, columns, types and values`);
  }
});

t.test('workbook → XLSX → workbook, with what the file holds for another reader', async (t) => {
  const wb: Workbook = {
    version: 1,
    sheets: [
      {
        name: 'Data',
        tables: [
          {
            name: 'Data',
            columns: [
              { name: 'text', type: 'string' },
              { name: 'int', type: 'integer' },
              { name: 'real', type: 'number' },
              { name: 'flag', type: 'boolean' },
              { name: 'day', type: 'date' },
              { name: 'at', type: 'datetime' },
            ],
            rows: [
              ['=1+1', 1, 0.1, true, '1900-01-01', '2024-02-29T23:59:59.5'],
              ['', -5, -1e-7, false, '2099-12-31', '1970-01-01T00:00:00'],
              [null, null, null, null, null, null],
              ['çãõ 😀', 9007199254740991, 1e300, null, '2024-02-29', '2024-02-29T00:00:00'],
            ],
          },
        ],
      },
      {
        name: 'Two tables',
        tables: [
          { name: 'People list', columns: [{ name: 'name', type: 'string' }], rows: [['Ana'], ['Bo']] },
          {
            name: 'Empty table',
            columns: [
              { name: 'x', type: 'number' },
              { name: 'y', type: 'string' },
            ],
            rows: [],
          },
        ],
      },
      { name: 'Nothing', tables: [] },
    ],
  };
  const bytes = await writeXlsx(wb);
  const back = await read(bytes);
  t.same(back.sheets[0], wb.sheets[0], 'types and values preserved, the null row inside the table kept');
  t.same(
    back.sheets[1].tables.map((x) => [x.name, x.rows]),
    [
      ['People_list', [['Ana'], ['Bo']]],
      ['Empty_table', []],
    ],
    'several tables on a sheet become Excel tables (names made Excel-valid)',
  );
  t.same(
    back.sheets[1].tables[1].columns.map((c) => c.name),
    ['x', 'y'],
  );
  t.same(back.sheets[2], { name: 'Nothing', tables: [] });

  const direct = new ExcelJS.Workbook();
  await direct.xlsx.load(bytes as unknown as ArrayBuffer);
  const ws = direct.getWorksheet('Data')!;
  t.equal(ws.getCell('A2').type, ExcelJS.ValueType.String, 'a string starting with = is text, never a formula');
  t.equal(ws.getCell('A2').value, '=1+1');
  t.same(ws.getCell('E2').value, new Date(Date.UTC(1900, 0, 1)), 'dates are real Excel dates');
  t.equal(ws.getCell('E2').numFmt, 'yyyy-mm-dd');
  t.equal(ws.getCell('F2').numFmt, 'yyyy-mm-dd hh:mm:ss.000', 'milliseconds shown when a value has them');
  t.equal(ws.getCell('D2').value, true);
  t.equal(ws.getCell('A1').font?.bold, true, 'bold header');
  t.same(
    direct
      .getWorksheet('Two tables')!
      .getTables()
      .map((x) => (x as unknown as { table: { name: string; tableRef: string } }).table.tableRef),
    ['A1:A3', 'A5:B6'],
    'tables stacked with one empty row between',
  );

  const numbers: Workbook = { version: 1, sheets: [{ name: 'N', tables: [{ name: 'N', columns: [{ name: 'n', type: 'number' }], rows: [[1], [2]] }] }] };
  t.equal(
    (await read(await writeXlsx(numbers))).sheets[0].tables[0].columns[0].type,
    'integer',
    'XLSX has one number type: all-integral numbers read as integer',
  );
});

t.test('sheet selection, maxRows and the cell cap', async (t) => {
  const bytes = await fixture('excel-style.xlsx');
  const one = await read(bytes, { sheet: 'parâmetros' });
  t.same(
    one.sheets.map((s) => s.name),
    ['Parâmetros'],
    'sheet names match ignoring case',
  );
  const missing = await failure(read(bytes, { sheet: 'Nope' }));
  t.equal(missing.code, 'invalid_input');
  t.match(missing.resolution, /^`sheet`: no sheet named "Nope"; the workbook has "Vendas", "Parâmetros", "Vazia"/);
  const firstRows = await read(bytes, { maxRows: 1 });
  t.same(firstRows.sheets[0].tables[0].rows.length, 1);
  t.equal(firstRows.sheets[0].tables[0].truncated, true);
  t.equal(firstRows.sheets[0].tables[0].columns[2].type, 'integer', 'types come from the rows returned');

  const wide: Workbook = {
    version: 1,
    sheets: [
      {
        name: 'Big',
        tables: [
          {
            name: 'Big',
            columns: Array.from({ length: 20 }, (_, i) => ({ name: `c${i}`, type: 'integer' as const })),
            rows: Array.from({ length: 6_000 }, (_, r) => Array.from({ length: 20 }, (_, c) => r * c)),
          },
        ],
      },
    ],
  };
  const big = await writeXlsx(wide);
  const err = await failure(read(big));
  t.equal(err.code, 'invalid_input');
  t.match(err.resolution, /sheet "Big" has more than 100,000 data cells.*`maxRows` \(at most 5,000 here\)/);
  t.equal((await read(big, { maxRows: 5_000 })).sheets[0].tables[0].rows.length, 5_000);
  const small = await failure(readXlsx(big, { maxCells: 10 }));
  t.match(small.resolution, /more than 10 data cells/);
});

t.test('hostile and broken files are refused before exceljs parses them', async (t) => {
  const skeleton = (sheetXml: string | Buffer): [string, string | Buffer][] => [
    ['[Content_Types].xml', '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"/>'],
    ['xl/workbook.xml', '<workbook/>'],
    ['xl/worksheets/sheet1.xml', sheetXml],
  ];
  const bomb = zip(skeleton(Buffer.alloc(80 * 1024 * 1024, 0x20)));
  t.ok(bomb.length < 200 * 1024, `a zip bomb: ${bomb.length} bytes that inflate to 80 MiB`);
  const bombErr = await failure(read(bomb));
  t.equal(bombErr.code, 'invalid_input');
  t.match(bombErr.resolution, /inflates to more than 32 MiB/);

  const cells = `<worksheet><sheetData><row r="1">${'<c r="A1"/>'.repeat(200_001)}</row></sheetData></worksheet>`;
  const manyErr = await failure(read(zip(skeleton(cells))));
  t.match(manyErr.resolution, /more than 200,000 cells and rows/);

  t.throws(() => guardXlsxZip(Buffer.from('PK\u0003\u0004 not really a zip')), { code: 'invalid_input' });
  const damaged = await failure(read(zip([['hello.txt', 'not a workbook']])));
  t.equal(damaged.code, 'invalid_input');
  t.match(damaged.resolution, /a zip but not an XLSX workbook/);
  const broken = await failure(
    read(
      zip([
        ['xl/workbook.xml', '<workbook><sheets><sheet name="A" sheetId="1" r:id="rId9"/></sheets></workbook>'],
        ['xl/worksheets/sheet1.xml', '<worksheet><sheetData><row r="1"><c r="A1" t="s"><v>7</v></c></row></sheetData>'],
      ]),
    ),
  );
  t.equal(broken.code, 'invalid_input', `a damaged workbook answers invalid_input, not a 500 (${broken.resolution})`);
  const census = guardXlsxZip(await fixture('excel-style.xlsx'));
  t.equal(census.entries, 11);
  t.ok(census.cellElements > 30 && census.cellElements < 80);
});

t.test('XLSX work runs at most xlsxConcurrency at a time, first come first served', async (t) => {
  const run = concurrencyLimit(2);
  let active = 0,
    peak = 0;
  const order: number[] = [];
  const task = (n: number) =>
    run(async () => {
      active++;
      peak = Math.max(peak, active);
      await new Promise((resolve) => setTimeout(resolve, 5));
      order.push(n);
      active--;
      if (n === 3) throw new Error('boom');
      return n;
    });
  const results = await Promise.allSettled([1, 2, 3, 4, 5, 6].map(task));
  t.equal(peak, 2);
  t.same(order, [1, 2, 3, 4, 5, 6]);
  t.same(
    results.map((r) => r.status),
    ['fulfilled', 'fulfilled', 'rejected', 'fulfilled', 'fulfilled', 'fulfilled'],
    'a failure frees its slot',
  );
  t.equal(SPREADSHEET_LIMITS.xlsxConcurrency, 2);
});

t.test('names and values other writers get wrong still make a valid workbook', async (t) => {
  const rel = (id: string, type: string, target: string) =>
    `<Relationship Id="${id}" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/${type}" Target="${target}"/>`;
  const rels = (...items: string[]) => `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">${items.join('')}</Relationships>`;
  const names = ['Data'];
  const sheet =
    '<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>' +
    '<row r="1"><c r="A1" t="inlineStr"><is><t>when</t></is></c><c r="B1" t="inlineStr"><is><t>tab\there</t></is></c></row>' +
    '<row r="2"><c r="A2" s="1"><v>3000000</v></c><c r="B2"><v>1</v></c></row></sheetData></worksheet>';
  const bytes = zip([
    [
      '[Content_Types].xml',
      '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="xml" ContentType="application/xml"/></Types>',
    ],
    ['_rels/.rels', rels(rel('rId1', 'officeDocument', 'xl/workbook.xml'))],
    [
      'xl/workbook.xml',
      '<workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets>' +
        names.map((n, i) => `<sheet name="${n.replace(/"/g, '&quot;')}" sheetId="${i + 1}" r:id="rId${i + 1}"/>`).join('') +
        '</sheets></workbook>',
    ],
    [
      'xl/_rels/workbook.xml.rels',
      rels(...names.map((_, i) => rel(`rId${i + 1}`, 'worksheet', `worksheets/sheet${i + 1}.xml`)), rel('rId9', 'styles', 'styles.xml')),
    ],
    [
      'xl/styles.xml',
      '<styleSheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><cellXfs count="2"><xf numFmtId="0"/><xf numFmtId="14" applyNumberFormat="1"/></cellXfs></styleSheet>',
    ],
    ...names.map((_, i): [string, string] => [`xl/worksheets/sheet${i + 1}.xml`, sheet]),
  ]);
  const wb = await read(bytes);
  const parsed = v.safeParse(WorkbookSchema, wb);
  t.ok(parsed.success, `valid: ${parsed.success ? '' : JSON.stringify(parsed.issues[0].message)}`);
  t.same(sheetNameFromXlsx('History', 1, new Set()), 'History_', 'Excel reserves History');
  t.same(sheetNameFromXlsx('data', 2, new Set(['data'])), 'data_2', 'unique ignoring case (exceljs itself refuses forbidden characters and repeated names)');
  t.same(sheetNameFromFile('reports/2026/history.csv'), 'history_');
  t.same(sheetNameFromFile('reports/Q1: [draft]?.tar.csv'), 'Q1_ _draft__.tar');
  t.same(sheetNameFromFile('.csv'), '.csv', 'a dot-file keeps its name');
  t.same(sheetNameFromFile(`${'x'.repeat(40)}.csv`).length, 31);
  t.notOk(v.safeParse(WorkbookSchema, { version: 1, sheets: [{ name: 'HISTORY', tables: [] }] }).success, 'History cannot be written');
  t.same(
    wb.sheets[0].tables[0].columns.map((c) => c.name),
    ['when', 'tab here'],
    'control characters in a header become spaces',
  );
  t.same(wb.sheets[0].tables[0].rows, [['+010113-09-19T00:00:00.000Z', 1]], 'a date past year 9999 is kept as text');
  t.ok(await writeXlsx(wb), 'and it can be written back');
});
