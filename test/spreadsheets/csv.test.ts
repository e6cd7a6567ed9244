// The CSV codec on its own: RFC 4180 parsing, what spreadsheet programs add (BOM, `sep=`, `;`, Windows-1252),
// type inference, and CSV → workbook → CSV round trips on the fixtures.
import t from 'tap';
import { readFile } from 'node:fs/promises';
import * as v from 'valibot';
import { decodeText, detectDelimiter, readCsv, records, writeCsv } from '../../runtime-api/services/spreadsheets/csv.ts';
import { SheetSchema, type Table } from '../../runtime-api/bindings/spreadsheets/workbook.ts';
import { ServiceError } from '../../runtime-api/errors.ts';

const FIXTURES = new URL('../../fixtures/spreadsheets/', import.meta.url);
const fixture = (name: string) => readFile(new URL(name, FIXTURES));
const read = (text: string | Buffer, maxRows?: number) =>
  readCsv(typeof text === 'string' ? Buffer.from(text) : text, { sheetName: 'data', maxCells: 100_000, maxRows });
const table = (text: string | Buffer) => read(text).tables[0];

t.test('RFC 4180 records', async (t) => {
  const all = (text: string, d = ',') => [...records(text, d)];
  t.same(
    all('a,b\r\nc,d\r\n'),
    [
      ['a', 'b'],
      ['c', 'd'],
    ],
    'CRLF, final line break ends the last record',
  );
  t.same(
    all('a,b\nc,d'),
    [
      ['a', 'b'],
      ['c', 'd'],
    ],
    'LF and no final line break',
  );
  t.same(all('a\rb\r'), [['a'], ['b']], 'lone CR');
  t.same(all('"x, y","say ""hi""","line1\r\nline2"\n'), [['x, y', 'say "hi"', 'line1\r\nline2']], 'quotes, escaped quotes, embedded CRLF');
  t.same(all('a,,""\n'), [['a', null, '']], 'empty unquoted field is null, quoted empty is ""');
  t.same(all('a,b,\n'), [['a', 'b', null]], 'trailing delimiter');
  t.same(all('"ab"c,d\n'), [['abc', 'd']], 'text after a closing quote is kept (lenient)');
  t.same(all('a"b,c\n'), [['a"b', 'c']], 'a quote inside an unquoted field is literal');
  t.same(all('a;b\n', ';'), [['a', 'b']]);
  const err = (() => {
    try {
      all('a,"open\nnever closed');
    } catch (e) {
      return e;
    }
  })() as ServiceError;
  t.equal(err.code, 'invalid_input');
  t.match(err.resolution, /never closed \(opened on line 1\)/);
});

t.test('decoding: BOM, UTF-16, Windows-1252, binary', async (t) => {
  t.equal(decodeText(Buffer.from('\uFEFFcafé', 'utf8')), 'café', 'UTF-8 BOM dropped');
  t.equal(decodeText(Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('çà', 'utf16le')])), 'çà', 'UTF-16LE with BOM');
  t.equal(decodeText(Buffer.from('São', 'latin1')), 'São', 'invalid UTF-8 falls back to Windows-1252');
  t.equal(decodeText(Buffer.from([0x80])), '€', 'Windows-1252, not Latin-1');
  t.throws(() => decodeText(Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0, 0])), { code: 'invalid_input' }, 'binary (e.g. legacy .xls) refused');
});

t.test('delimiter detection', async (t) => {
  t.same(detectDelimiter('a,b,c\n1,2,3\n'), { delimiter: ',', start: 0 });
  t.same(detectDelimiter('a;b;c\n1,5;2;3\n'), { delimiter: ';', start: 0 }, 'decimal commas do not fool it');
  t.same(detectDelimiter('a\tb\n1\t2\n'), { delimiter: '\t', start: 0 });
  t.same(detectDelimiter('sep=;\na,b;c\n'), { delimiter: ';', start: 6 }, 'Excel sep= line');
  t.same(detectDelimiter('"x;y",z\n"1;2",3\n'), { delimiter: ',', start: 0 }, 'delimiters inside quotes do not count');
  t.same(detectDelimiter('single\ncolumn\n'), { delimiter: ',', start: 0 });
});

t.test('type inference', async (t) => {
  const tb = table(
    [
      'int,num,bool,day,moment,zip,big,mixed,empty,spaced',
      '1,1.5,true,2024-02-29,2024-01-01 10:00,007,12345678901234567890,1,,  3',
      '-20,2e3,FALSE,2024-03-01,2024-01-01T10:00:05.120,010,1,x,, 4',
      ',,,,2024-01-02,,,,,',
    ].join('\n'),
  );
  t.same(
    tb.columns.map((c) => c.type),
    ['integer', 'number', 'boolean', 'date', 'datetime', 'string', 'string', 'string', 'string', 'string'],
  );
  t.same(tb.rows[0], [1, 1.5, true, '2024-02-29', '2024-01-01T10:00:00', '007', '12345678901234567890', '1', null, '  3']);
  t.same(tb.rows[1], [-20, 2000, false, '2024-03-01', '2024-01-01T10:00:05.12', '010', '1', 'x', null, ' 4']);
  t.same(tb.rows[2][4], '2024-01-02T00:00:00', 'a bare date in a datetime column is midnight');
  t.equal(table('d\n2024-02-30\n').columns[0].type, 'string', 'an impossible date is text');
  t.equal(table('n;m\n1,5;2\n').columns[0].type, 'string', 'decimal commas are text');
  t.equal(table('n\n1.10\n2\n').columns[0].type, 'number');
  t.equal(table('n\n9007199254740993\n').columns[0].type, 'string', 'integers past 2^53 stay text (no rounding)');
});

t.test('header, blank and ragged rows', async (t) => {
  const tb = table('\n\nA,,a,\n1,2,3,4,5\n\n6\n\n\n');
  t.same(
    tb.columns.map((c) => c.name),
    ['A', 'column_2', 'a_2', 'column_4', 'column_5'],
    'blank lines before the header skipped; names made unique',
  );
  t.same(
    tb.rows,
    [
      [1, 2, 3, 4, 5],
      [null, null, null, null, null],
      [6, null, null, null, null],
    ],
    'inner blank rows kept, trailing ones dropped, short rows padded',
  );
  t.same(read('').tables, [], 'an empty file is a sheet without tables');
  t.same(table('only,header\n').rows, []);
});

t.test('maxRows and the cell cap', async (t) => {
  const lines = ['a,b', ...Array.from({ length: 50 }, (_, i) => `${i},x`)].join('\n');
  const first = read(lines, 10).tables[0];
  t.equal(first.rows.length, 10);
  t.equal(first.truncated, true);
  t.notOk('truncated' in read(lines, 50).tables[0], 'not truncated when everything fits');
  t.same(read(lines, 0).tables[0].rows, []);
  const wide = Buffer.from(['a,b,c,d', ...Array.from({ length: 30_000 }, () => '1,2,3,4')].join('\n'));
  const err = (() => {
    try {
      read(wide);
    } catch (e) {
      return e;
    }
  })() as ServiceError;
  t.equal(err.code, 'invalid_input');
  t.match(err.resolution, /^`fileId`: the CSV file has more than 100,000 data cells.*`maxRows` \(at most 25,000 here\)/);
  t.equal(read(wide, 25_000).tables[0].rows.length, 25_000);
  t.throws(() => read(`a\n"${'x'.repeat(40_000)}"\n`), { code: 'invalid_input' }, 'a field longer than an XLSX cell is refused');
  t.throws(() => read(`${','.repeat(20_000)}\n`), { code: 'invalid_input' }, 'more fields than Excel has columns');
  const gap = '\n'.repeat(3_000_000);
  t.same(read(`a\n1\n${gap}`).tables[0].rows, [[1]], 'millions of trailing blank lines cost nothing');
  t.throws(() => read(`a\n1\n${gap}2\n`), { code: 'invalid_input' }, 'blank rows inside the table count as cells');
});

t.test('writing: RFC 4180, quoting only where needed, options', async (t) => {
  const tb: Table = {
    name: 't',
    columns: [
      { name: 'name, full', type: 'string' },
      { name: 'n', type: 'number' },
      { name: 'ok', type: 'boolean' },
      { name: 'd', type: 'date' },
      { name: 's', type: 'string' },
    ],
    rows: [
      ['say "hi"', 1.5, true, '2024-01-01', ''],
      ['multi\nline', null, false, null, null],
      ['plain', 1e21, null, '2024-12-31', 'a;b'],
    ],
  };
  t.equal(
    writeCsv(tb, { delimiter: ',', bom: false }).toString(),
    '"name, full",n,ok,d,s\r\n"say ""hi""",1.5,true,2024-01-01,""\r\n"multi\nline",,false,,\r\nplain,1e+21,,2024-12-31,a;b\r\n',
  );
  const semi = writeCsv(tb, { delimiter: ';', bom: true });
  t.same([...semi.subarray(0, 3)], [0xef, 0xbb, 0xbf], 'BOM');
  t.match(semi.toString(), /\r\nplain;1e\+21;;2024-12-31;"a;b"\r\n$/);
  t.same(read(semi).tables[0].rows, read(writeCsv(tb, { delimiter: ',', bom: false })).tables[0].rows, 'both delimiters read back the same');
  t.equal(writeCsv(null, { delimiter: ',', bom: false }).length, 0);
});

t.test('CSV → workbook → CSV round trips on the fixtures', async (t) => {
  for (const name of ['sales.csv', 'excel-pt-br.csv', 'windows-1252.csv', 'edge-cases.csv']) {
    const sheet = read(await fixture(name));
    t.ok(v.safeParse(SheetSchema, sheet).success, `${name}: a valid sheet`);
    const tb = sheet.tables[0];
    const again = read(writeCsv(tb, { delimiter: ',', bom: false })).tables[0];
    t.same(again, tb, `${name}: same columns, types and values after a round trip`);
    const twice = writeCsv(again, { delimiter: ',', bom: false });
    t.equal(twice.toString(), writeCsv(tb, { delimiter: ',', bom: false }).toString(), `${name}: the written form is stable`);
  }
  const sales = read(await fixture('sales.csv')).tables[0];
  t.same(
    sales.columns.map((c) => `${c.name}:${c.type}`),
    [
      'id:integer',
      'region:string',
      'product:string',
      'quantity:integer',
      'unit_price:number',
      'in_stock:boolean',
      'sold_on:date',
      'recorded_at:datetime',
      'sku:string',
      'notes:string',
    ],
  );
  t.same(sales.rows[2], [3, 'Northeast', 'Açaí', null, 20, true, null, '2024-03-10T09:15:00', '120', 'two\r\nlines']);
  t.same(sales.rows[3].slice(4), [-350, false, '2024-12-31', '2024-12-31T23:59:59.25', 'A-99', '']);
  const ptBr = read(await fixture('excel-pt-br.csv')).tables[0];
  t.same(
    ptBr.columns.map((c) => c.name),
    ['Região', 'Descrição', 'Quantidade', 'Preço', 'Data'],
    'BOM and accents in the header',
  );
  t.same(ptBr.rows[1], ['Sul', 'Feijão; preto', 7, '10,00', '2024-05-02']);
  t.same(read(await fixture('windows-1252.csv')).tables[0].rows[1], ['Zoë', 'Zürich', 250.75]);
});
