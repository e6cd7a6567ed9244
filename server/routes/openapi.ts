// GET /openapi.json: the OpenAPI 3.1.0 description of every route, built once from the route table.
import * as v from 'valibot';
import { defineRoute, type RouteDef } from '../http/route.ts';
import { buildOpenApi } from '../openapi/build.ts';
import type { AppDeps } from '../deps.ts';

export const SERVICE_VERSION = '1.0.0';

/** `all` is resolved lazily: the document describes the whole table, this route included. */
export function openApiRoutes(deps: AppDeps, all: () => readonly RouteDef[]): RouteDef[] {
  let document: string | null = null;
  return [
    defineRoute({
      method: 'GET',
      path: '/openapi.json',
      operationId: 'getOpenApi',
      summary: 'This OpenAPI 3.1.0 document',
      tags: ['discovery'],
      auth: 'none',
      responses: { 200: { description: 'The OpenAPI document.', schema: v.looseObject({ openapi: v.literal('3.1.0') }) } },
      errors: [],
      handle(ctx) {
        document ??= JSON.stringify(buildOpenApi(all(), { publicBaseUrl: deps.config.publicBaseUrl, version: SERVICE_VERSION }));
        ctx.set('Access-Control-Allow-Origin', '*');
        ctx.set('Cache-Control', 'public, max-age=300');
        ctx.type = 'application/json';
        ctx.body = document;
      },
    }),
  ];
}
