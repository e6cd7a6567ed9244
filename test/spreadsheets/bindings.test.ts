// spreadsheet_read and spreadsheet_write through invoke, with real callers, real uploads and real downloads:
// round trips on the fixtures, scope and organization checks, the size caps, the quota.
import t from 'tap';
import { readFile } from 'node:fs/promises';
import ExcelJS from 'exceljs';
import { startTestApp } from '../helpers/app.ts';
import { callerFor, caller as callAs } from '../helpers/callers.ts';
import { uploadBytes, downloadBytes } from './helpers.ts';
import { spreadsheet_read } from '../../runtime-api/bindings/spreadsheets/spreadsheet_read.ts';
import { spreadsheet_write } from '../../runtime-api/bindings/spreadsheets/spreadsheet_write.ts';
import { files_write_text } from '../../runtime-api/bindings/files/files_write_text.ts';
import { files_trash } from '../../runtime-api/bindings/files/files_trash.ts';
import { files_list } from '../../runtime-api/bindings/files/files_list.ts';
import { writeCsv } from '../../runtime-api/services/spreadsheets/csv.ts';
import type { Workbook } from '../../runtime-api/bindings/spreadsheets/workbook.ts';
import type { ServiceError } from '../../runtime-api/errors.ts';

const FIXTURES = new URL('../../fixtures/spreadsheets/', import.meta.url);
const fixture = (name: string) => readFile(new URL(name, FIXTURES));
const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
const failure = async (p: Promise<unknown>) =>
  (await p.then(
    () => null,
    (e) => e,
  )) as ServiceError;

t.test('spreadsheet bindings', async (t) => {
  const app = await startTestApp(t, { env: { RATE_LIMIT_MAX: '100000' } });
  const owner = await callerFor(app, { email: 'sheets@example.com', org: 'org-sheets' });
  const call = callAs(app, owner);

  t.test('CSV file → workbook → CSV file → the same workbook', async (t) => {
    const source = await uploadBytes(app, owner, 'imports/sales.csv', await fixture('sales.csv'), 'text/csv');
    const wb = await call(spreadsheet_read, { fileId: source.fileId });
    t.equal(wb.sheets[0].name, 'sales', 'the sheet is named after the file');
    t.equal(wb.sheets[0].tables[0].columns[6].type, 'date');
    const written = await call(spreadsheet_write, { name: 'exports/sales.csv', format: 'csv', workbook: wb });
    t.match(written, { name: 'exports/sales.csv', mediaType: 'text/csv; charset=utf-8', state: 'active' });
    const bytes = await downloadBytes(app, owner.token, written.fileId);
    t.equal(bytes.status, 200);
    t.equal(bytes.type, 'text/csv; charset=utf-8');
    t.equal(bytes.body.toString(), writeCsv(wb.sheets[0].tables[0], { delimiter: ',', bom: false }).toString());
    t.equal(written.size, bytes.body.length);
    t.same(await call(spreadsheet_read, { fileId: written.fileId }), wb, 'values and types survive');

    const semi = await call(spreadsheet_write, { name: 'exports/sales-excel.csv', format: 'csv', workbook: wb, csv: { delimiter: ';', bom: true } });
    const semiBytes = await downloadBytes(app, owner.token, semi.fileId);
    t.ok(semiBytes.body.subarray(0, 3).equals(Buffer.from([0xef, 0xbb, 0xbf])), 'BOM written');
    t.match(semiBytes.body.toString(), /^\uFEFFid;region;product;/);
    const semiBack = await call(spreadsheet_read, { fileId: semi.fileId });
    t.same(semiBack.sheets[0].tables[0].rows, wb.sheets[0].tables[0].rows, 'the ; variant reads back the same');

    const text = await call(files_write_text, { name: 'notes/tiny.csv', text: 'a,b\n1,x\n', mediaType: 'text/csv' });
    t.same((await call(spreadsheet_read, { fileId: text.fileId })).sheets, [
      {
        name: 'tiny',
        tables: [
          {
            name: 'tiny',
            columns: [
              { name: 'a', type: 'integer' },
              { name: 'b', type: 'string' },
            ],
            rows: [[1, 'x']],
          },
        ],
      },
    ]);
  });

  t.test('XLSX file → workbook → XLSX file → the same workbook', async (t) => {
    for (const name of ['excel-style.xlsx', 'exceljs-orders.xlsx']) {
      const source = await uploadBytes(app, owner, `imports/${name}`, await fixture(name), XLSX_TYPE);
      const wb = await call(spreadsheet_read, { fileId: source.fileId });
      const written = await call(spreadsheet_write, { name: `exports/${name}`, format: 'xlsx', workbook: wb });
      t.match(written, { mediaType: XLSX_TYPE, state: 'active' });
      t.same(await call(spreadsheet_read, { fileId: written.fileId }), wb, `${name}: values and types survive`);
      const bytes = await downloadBytes(app, owner.token, written.fileId);
      t.equal(bytes.type, XLSX_TYPE);
      const direct = new ExcelJS.Workbook();
      await direct.xlsx.load(bytes.body as unknown as ArrayBuffer);
      t.same(
        direct.worksheets.map((w) => w.name),
        wb.sheets.map((s) => s.name),
        `${name}: another reader sees the same sheets`,
      );
    }
    const wb = await call(spreadsheet_read, {
      fileId: (await uploadBytes(app, owner, 'imports/params.xlsx', await fixture('excel-style.xlsx'), XLSX_TYPE)).fileId,
      sheet: 'Parâmetros',
      maxRows: 1,
    });
    t.same(wb.sheets[0].tables[0], {
      name: 'tblParametros',
      columns: [
        { name: 'Chave', type: 'string' },
        { name: 'Valor', type: 'string' },
      ],
      rows: [['moeda', 'BRL']],
      truncated: true,
    });
  });

  t.test('a workbook built by a script, both formats', async (t) => {
    const wb: Workbook = {
      version: 1,
      sheets: [
        {
          name: 'Totals',
          tables: [
            {
              name: 'Totals',
              columns: [
                { name: 'region', type: 'string' },
                { name: 'total', type: 'number' },
                { name: 'closed', type: 'date' },
                { name: 'at', type: 'datetime' },
              ],
              rows: [
                ['North', 1250.5, '2026-03-31', '2026-03-31T17:45:00'],
                ['South', null, null, null],
              ],
            },
          ],
        },
      ],
    };
    const xlsx = await call(spreadsheet_write, { name: 'reports/totals.xlsx', format: 'xlsx', workbook: wb });
    t.same(await call(spreadsheet_read, { fileId: xlsx.fileId }), wb);
    const csv = await call(spreadsheet_write, { name: 'reports/Totals.csv', format: 'csv', workbook: wb });
    t.same(await call(spreadsheet_read, { fileId: csv.fileId }), wb);
    const empty = await call(spreadsheet_write, {
      name: 'reports/empty.csv',
      format: 'csv',
      workbook: { version: 1, sheets: [{ name: 'empty', tables: [] }] },
    });
    t.equal(empty.size, 0);
    t.same(await call(spreadsheet_read, { fileId: empty.fileId }), { version: 1, sheets: [{ name: 'empty', tables: [] }] });
  });

  t.test('scopes and organizations', async (t) => {
    const source = await call(files_write_text, { name: 'scoped.csv', text: 'a\n1\n' });
    const readOnly = await callerFor(app, { email: 'sheets@example.com', org: 'org-sheets', scopes: ['files:read'] });
    t.ok(await callAs(app, readOnly)(spreadsheet_read, { fileId: source.fileId }), 'files:read is enough to read');
    const denied = await failure(
      callAs(app, readOnly)(spreadsheet_write, { name: 'x.csv', format: 'csv', workbook: { version: 1, sheets: [{ name: 'x', tables: [] }] } }),
    );
    t.equal(denied.code, 'INSUFFICIENT_SCOPE');
    t.match(denied.resolution, /files:write/);
    const orgOnly = await callerFor(app, { email: 'sheets@example.com', org: 'org-sheets', scopes: ['org:read'] });
    t.equal((await failure(callAs(app, orgOnly)(spreadsheet_read, { fileId: source.fileId }))).code, 'INSUFFICIENT_SCOPE');

    const stranger = await callerFor(app, { email: 'other@example.com', org: 'org-other' });
    const notFound = await failure(callAs(app, stranger)(spreadsheet_read, { fileId: source.fileId }));
    t.equal(notFound.code, 'not_found', "another organization's file does not exist for the caller");
    t.equal(notFound.status, 404);
    const member = await callerFor(app, { email: 'member@example.com', org: 'org-sheets', role: 'member' });
    t.ok(await callAs(app, member)(spreadsheet_read, { fileId: source.fileId }), 'a member of the organization reads it');
    const mine = await callAs(app, stranger)(spreadsheet_write, {
      name: 'theirs.csv',
      format: 'csv',
      workbook: { version: 1, sheets: [{ name: 'x', tables: [] }] },
    });
    t.equal((await failure(call(spreadsheet_read, { fileId: mine.fileId }))).code, 'not_found', 'and the other way round');
    t.same(
      (await callAs(app, stranger)(files_list, {})).items.map((f) => f.name),
      ['theirs.csv'],
      "written into the caller's organization only",
    );

    await call(files_trash, { fileId: source.fileId });
    t.ok(await call(spreadsheet_read, { fileId: source.fileId }), 'a trashed file can still be read');
  });

  t.test('input validation and limits', async (t) => {
    const tooBig = await uploadBytes(app, owner, 'big.csv', Buffer.alloc(10 * 1024 * 1024 + 1, 'a'), 'text/csv');
    const big = await failure(call(spreadsheet_read, { fileId: tooBig.fileId }));
    t.equal(big.code, 'invalid_input');
    t.match(big.resolution, /^`fileId`: the file has 10485761 bytes; spreadsheet_read reads files of at most 10 MiB/);

    const many = await call(files_write_text, { name: 'many.csv', text: `a,b,c,d,e\n${'1,2,3,4,5\n'.repeat(20_001)}` });
    const cells = await failure(call(spreadsheet_read, { fileId: many.fileId }));
    t.equal(cells.code, 'invalid_input');
    t.match(cells.resolution, /more than 100,000 data cells.*`maxRows` \(at most 20,000 here\)/);
    const first = await call(spreadsheet_read, { fileId: many.fileId, maxRows: 20_000 });
    t.equal(first.sheets[0].tables[0].rows.length, 20_000);
    t.equal(first.sheets[0].tables[0].truncated, true);

    const wrongSheet = await failure(call(spreadsheet_read, { fileId: many.fileId, sheet: 'Sheet1' }));
    t.match(wrongSheet.resolution, /^`sheet`: a CSV file has one sheet, named "many"/);
    t.equal((await failure(call(spreadsheet_read, { fileId: many.fileId, maxRows: -1 }))).code, 'invalid_input');
    t.equal((await failure(call(spreadsheet_read, { fileId: 'fil_nope' }))).code, 'invalid_input');

    const table = (rows: unknown[][]) => ({
      version: 1,
      sheets: [
        {
          name: 'S',
          tables: [
            {
              name: 'S',
              columns: [
                { name: 'a', type: 'integer' },
                { name: 'b', type: 'date' },
              ],
              rows,
            },
          ],
        },
      ],
    });
    const short = await failure(call(spreadsheet_write, { name: 'bad.csv', format: 'csv', workbook: table([[1]]) }));
    t.equal(short.code, 'invalid_input');
    t.match(short.resolution, /^`workbook\.sheets\.0\.tables\.0\.rows\.0`: the row has 1 cells; the table has 2 columns/);
    const typed = await failure(call(spreadsheet_write, { name: 'bad.csv', format: 'csv', workbook: table([[1.5, null]]) }));
    t.match(typed.resolution, /^`workbook\.sheets\.0\.tables\.0\.rows\.0\.0`: cell of column "a" must be a safe integer/);
    const date = await failure(call(spreadsheet_write, { name: 'bad.csv', format: 'csv', workbook: table([[1, '2026-02-30']]) }));
    t.match(date.resolution, /rows\.0\.1`: cell of column "b" must be a date YYYY-MM-DD/);
    const dupSheets = await failure(
      call(spreadsheet_write, {
        name: 'bad.xlsx',
        format: 'xlsx',
        workbook: {
          version: 1,
          sheets: [
            { name: 'A', tables: [] },
            { name: 'a', tables: [] },
          ],
        },
      }),
    );
    t.match(dupSheets.resolution, /sheet names must be unique/);
    const badName = await failure(
      call(spreadsheet_write, { name: 'bad.xlsx', format: 'xlsx', workbook: { version: 1, sheets: [{ name: 'Q1/Q2', tables: [] }] } }),
    );
    t.match(badName.resolution, /^`workbook\.sheets\.0\.name`/);
    const v2 = await failure(call(spreadsheet_write, { name: 'bad.xlsx', format: 'xlsx', workbook: { version: 2, sheets: [{ name: 'A', tables: [] }] } }));
    t.match(v2.resolution, /^`workbook\.version`/);
    const twoSheets = await failure(
      call(spreadsheet_write, {
        name: 'two.csv',
        format: 'csv',
        workbook: {
          version: 1,
          sheets: [
            { name: 'A', tables: [] },
            { name: 'B', tables: [] },
          ],
        },
      }),
    );
    t.match(twoSheets.resolution, /^`workbook`: a CSV file holds one sheet with at most one table/);

    const wide = {
      version: 1,
      sheets: [
        {
          name: 'W',
          tables: [
            {
              name: 'W',
              columns: Array.from({ length: 101 }, (_, i) => ({ name: `c${i}`, type: 'integer' })),
              rows: Array.from({ length: 1000 }, () => new Array(101).fill(0)),
            },
          ],
        },
      ],
    };
    const over = await failure(call(spreadsheet_write, { name: 'wide.xlsx', format: 'xlsx', workbook: wide }));
    t.match(over.resolution, /^`workbook`: 101,000 data cells; spreadsheet_write takes at most 100,000/);
    const long = 'x'.repeat(120);
    const heavy = {
      version: 1,
      sheets: [
        {
          name: 'H',
          tables: [
            {
              name: 'H',
              columns: Array.from({ length: 100 }, (_, i) => ({ name: `c${i}`, type: 'string' })),
              rows: Array.from({ length: 900 }, () => new Array(100).fill(long)),
            },
          ],
        },
      ],
    };
    const huge = await failure(call(spreadsheet_write, { name: 'heavy.csv', format: 'csv', workbook: heavy }));
    t.match(huge.resolution, /^`workbook`: the CSV file would have \d+ bytes, more than 10 MiB/);
    t.notOk((await call(files_list, { prefix: 'bad' })).items.length, 'nothing was written by the failed calls');
  });

  t.test('the quota applies, and a refused write leaves no bytes behind', async (t) => {
    const small = await startTestApp(t, { env: { RATE_LIMIT_MAX: '100000', QUOTA_BYTES: '2000' } });
    const c = await callerFor(small, { email: 'quota@example.com', org: 'org-quota' });
    const wb = await callAs(small, c)(spreadsheet_write, {
      name: 'ok.csv',
      format: 'csv',
      workbook: { version: 1, sheets: [{ name: 'ok', tables: [{ name: 'ok', columns: [{ name: 'a', type: 'integer' }], rows: [[1]] }] }] },
    });
    t.equal(wb.size, 6, 'a\r\n1\r\n');
    const err = await failure(
      callAs(small, c)(spreadsheet_write, { name: 'big.xlsx', format: 'xlsx', workbook: { version: 1, sheets: [{ name: 'S', tables: [] }] } }),
    );
    t.equal(err.code, 'quota_exceeded');
    t.same(
      (await callAs(small, c)(files_list, {})).items.map((f) => f.name),
      ['ok.csv'],
    );
    const keys = await small.deps.blobs.listKeys(c.membership!.orgId);
    t.equal(keys.length, 1, "only the first file's bytes are stored");
  });
});
