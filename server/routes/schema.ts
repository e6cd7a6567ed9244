// GET /schema/spreadsheet/1: the JSON Schema (2020-12) of the workbook representation that spreadsheet_read returns
// and spreadsheet_write takes, generated from the same valibot schema the bindings validate with (spec 4.4, 9.1).
import * as v from 'valibot';
import { defineRoute } from '../http/route.ts';
import { jsonSchemaOf, type JsonSchema, WorkbookSchema, WORKBOOK_VERSION } from '../../runtime-api/index.ts';
import type { AppDeps } from '../deps.ts';

export const JSON_SCHEMA_DIALECT = 'https://json-schema.org/draft/2020-12/schema';

/** The published document: `$schema` 2020-12 and `$id` = its own URL under the public base URL. */
export function spreadsheetSchemaDocument(publicBaseUrl: string): JsonSchema {
  return {
    $schema: JSON_SCHEMA_DIALECT,
    $id: `${publicBaseUrl}/schema/spreadsheet/${WORKBOOK_VERSION}`,
    ...jsonSchemaOf(WorkbookSchema, 'output'),
  };
}

const SchemaDocument = v.pipe(
  v.looseObject({
    $schema: v.pipe(v.literal(JSON_SCHEMA_DIALECT), v.description('JSON Schema 2020-12.')),
    $id: v.pipe(v.string(), v.description("This document's URL: {publicBaseUrl}/schema/spreadsheet/1.")),
    title: v.string(),
    type: v.literal('object'),
  }),
  v.description('A JSON Schema (2020-12) document.'),
);

export function schemaRoutes(deps: AppDeps) {
  let document: string | null = null;
  return [
    defineRoute({
      method: 'GET',
      path: `/schema/spreadsheet/${WORKBOOK_VERSION}`,
      operationId: 'getSpreadsheetSchema',
      summary: 'JSON Schema (2020-12) of the spreadsheet workbook representation, version 1',
      description:
        'The shape spreadsheet_read returns and spreadsheet_write takes: `{version: 1, sheets: [{name, tables: [{name, columns: [{name, type}], rows}]}]}`. ' +
        "Rules JSON Schema cannot state (one cell per column, each cell null or of its column's type, unique names) are in the descriptions and enforced by the service. " +
        'A breaking change gets a new version under a new path.',
      tags: ['discovery'],
      auth: 'none',
      responses: { 200: { description: 'The JSON Schema document.', contentType: 'application/schema+json', schema: SchemaDocument } },
      errors: [],
      handle(ctx) {
        document ??= JSON.stringify(spreadsheetSchemaDocument(deps.config.publicBaseUrl), null, 2);
        ctx.set('Access-Control-Allow-Origin', '*');
        ctx.set('Cache-Control', 'public, max-age=3600');
        ctx.type = 'application/schema+json';
        ctx.body = document;
      },
    }),
  ];
}
