// GET /schema/spreadsheet/1: a public JSON Schema 2020-12 document that an independent validator (Ajv2020) accepts,
// that accepts real workbooks and rejects malformed ones, and that /openapi.json describes. Then the bindings end to
// end from a script (POST /app/v1/execute), the way agents use them.
import t from 'tap';
import { readFile } from 'node:fs/promises';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { startTestApp } from '../helpers/app.ts';
import { http } from '../helpers/http.ts';
import { contract } from '../helpers/openapi-contract.ts';
import { readCsv } from '../../runtime-api/services/spreadsheets/csv.ts';
import { readXlsx } from '../../runtime-api/services/spreadsheets/xlsx.ts';
import { callerFor } from '../helpers/callers.ts';
import { uploadBytes } from './helpers.ts';

const FIXTURES = new URL('../../fixtures/spreadsheets/', import.meta.url);
const fixture = (name: string) => readFile(new URL(name, FIXTURES));

t.test('/schema/spreadsheet/1', async (t) => {
  const app = await startTestApp(t, { env: { RATE_LIMIT_MAX: '100000' } });
  const res = await http(`${app.url}/schema/spreadsheet/1`);
  const schema = JSON.parse(res.text);

  t.test('served publicly as application/schema+json', async (t) => {
    t.equal(res.status, 200);
    t.match(res.headers['content-type'], /^application\/schema\+json\b/);
    t.equal(res.headers['access-control-allow-origin'], '*');
    t.ok(res.headers['ratelimit-limit'], 'rate-limit headers as on every response');
    t.equal(schema.$schema, 'https://json-schema.org/draft/2020-12/schema');
    t.equal(schema.$id, `${app.url}/schema/spreadsheet/1`, '$id is its own URL under the public base URL');
    t.equal(schema.title, 'Spreadsheet workbook, version 1');
    t.same(schema.required, ['version', 'sheets']);
    t.same(schema.properties.version, { const: 1, description: schema.properties.version.description });
    const column = schema.properties.sheets.items.properties.tables.items.properties.columns.items;
    t.same(column.properties.type.enum, ['string', 'number', 'integer', 'boolean', 'date', 'datetime']);
    t.match(column.properties.type.description, /ISO 8601/, 'the types are documented in the schema itself');
    const withToken = await http(`${app.url}/schema/spreadsheet/1`, { token: await app.token({ email: 'schema@example.com' }) });
    t.equal(withToken.text, res.text, 'the same document with or without credentials');
    t.equal((await http(`${app.url}/schema/spreadsheet/2`)).status, 404, 'no other version exists');
  });

  t.test('Ajv2020 accepts it and validates real workbooks with it', async (t) => {
    const ajv = new Ajv2020({ strict: true, allErrors: true });
    t.ok(ajv.validateSchema(schema), `valid against the 2020-12 meta-schema ${JSON.stringify(ajv.errors)}`);
    const validate = ajv.compile(schema);
    const workbooks = [
      { version: 1, sheets: [readCsv(await fixture('sales.csv'), { sheetName: 'sales', maxCells: 100_000 })] },
      await readXlsx(await fixture('excel-style.xlsx'), { maxCells: 100_000 }),
      await readXlsx(await fixture('exceljs-orders.xlsx'), { maxCells: 100_000 }),
      { version: 1, sheets: [{ name: 'S', tables: [{ name: 'S', columns: [{ name: 'a', type: 'integer' }], rows: [[1]], truncated: true }] }] },
    ];
    for (const wb of workbooks) t.ok(validate(wb), `a real workbook is valid ${ajv.errorsText(validate.errors)}`);

    const good = () =>
      ({ version: 1, sheets: [{ name: 'S', tables: [{ name: 'T', columns: [{ name: 'a', type: 'string' }], rows: [['x'], [null]] }] }] }) as any;
    const malformed: [string, (wb: any) => unknown][] = [
      [
        'no version',
        (wb) => {
          delete wb.version;
        },
      ],
      [
        'version 2',
        (wb) => {
          wb.version = 2;
        },
      ],
      [
        'no sheets',
        (wb) => {
          wb.sheets = [];
        },
      ],
      [
        'a sheet name with /',
        (wb) => {
          wb.sheets[0].name = 'a/b';
        },
      ],
      [
        'a sheet name over 31 characters',
        (wb) => {
          wb.sheets[0].name = 'x'.repeat(32);
        },
      ],
      [
        'an unknown column type',
        (wb) => {
          wb.sheets[0].tables[0].columns[0].type = 'money';
        },
      ],
      [
        'a table without columns',
        (wb) => {
          wb.sheets[0].tables[0].columns = [];
        },
      ],
      [
        'an object as a cell',
        (wb) => {
          wb.sheets[0].tables[0].rows[0][0] = { v: 1 };
        },
      ],
      [
        'a row that is not an array',
        (wb) => {
          wb.sheets[0].tables[0].rows[0] = 'x';
        },
      ],
      [
        'an extra member',
        (wb) => {
          wb.sheets[0].tables[0].extra = true;
        },
      ],
      [
        'a cell over 32,767 characters',
        (wb) => {
          wb.sheets[0].tables[0].rows[0][0] = 'x'.repeat(32_768);
        },
      ],
    ];
    t.ok(validate(good()), 'the baseline is valid');
    for (const [what, spoil] of malformed) {
      const wb = good();
      spoil(wb);
      t.notOk(validate(wb), `rejects ${what}`);
    }
  });

  t.test('described by /openapi.json, and the live response matches it', async (t) => {
    const doc = (await http(`${app.url}/openapi.json`)).body;
    const op = doc.paths['/schema/spreadsheet/1'].get;
    t.same(op.security, [], 'public');
    t.ok(op.responses['200'].content['application/schema+json'].schema, 'documents the media type and a schema');
    t.ok(op.responses['429'], 'documents rate limiting');
    const c = contract(doc);
    c.check(t, 'get', '/schema/spreadsheet/1', res);
    const ajv = new Ajv2020({ strict: false });
    t.ok(ajv.validate(op.responses['200'].content['application/schema+json'].schema, schema), 'the document matches the schema OpenAPI gives for it');
  });

  t.test('scripts read and write spreadsheets through execute', async (t) => {
    const owner = await callerFor(app, { email: 'script@example.com', org: 'org-script' });
    const source = await uploadBytes(
      app,
      owner,
      'in/vendas.xlsx',
      await fixture('excel-style.xlsx'),
      'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    );
    const script = `
      const wb = await spreadsheet_read({ fileId: ${JSON.stringify(source.fileId)}, sheet: "Vendas" });
      const t = wb.sheets[0].tables[0];
      const total = t.columns.findIndex((c) => c.name === "Total");
      const sum = t.rows.reduce((s, r) => s + (r[total] ?? 0), 0);
      const out = { version: 1, sheets: [{ name: "Resumo", tables: [{ name: "Resumo",
        columns: [{ name: "linhas", type: "integer" }, { name: "soma", type: "number" }], rows: [[t.rows.length, sum]] }] }] };
      const file = await spreadsheet_write({ name: "out/resumo.xlsx", format: "xlsx", workbook: out });
      const back = await spreadsheet_read({ fileId: file.fileId });
      return { name: file.name, rows: back.sheets[0].tables[0].rows };`;
    const run = await http(`${app.url}/app/v1/execute`, { json: { script }, token: owner.token });
    t.equal(run.status, 200);
    t.equal(run.body.ok, true, JSON.stringify(run.body.error));
    t.same(run.body.result, { name: 'out/resumo.xlsx', rows: [[3, 139.25]] });
    const failing = await http(`${app.url}/app/v1/execute`, {
      json: { script: `return await spreadsheet_read({ fileId: ${JSON.stringify(source.fileId)}, sheet: "Nope" });` },
      token: owner.token,
    });
    t.equal(failing.body.ok, false);
    t.match(failing.body.error, { code: 'invalid_input' });
  });
});
