// GET /console/assets/<file>: the console's stylesheet and script (no inline style or script: the CSP allows none).
import { defineRoute, type RouteDef } from '../../http/route.ts';

export const consoleAsset = (file: string, type: string, text: string): RouteDef =>
  defineRoute({
    method: 'GET',
    path: `/console/assets/${file}`,
    operationId: `consoleAsset${file.endsWith('.css') ? 'Css' : 'Js'}`,
    summary: `The console's ${file.endsWith('.css') ? 'stylesheet' : 'script'}`,
    tags: ['console'],
    auth: 'none',
    responses: { 200: { description: file, contentType: type } },
    errors: [],
    async handle(ctx) {
      ctx.type = `${type}; charset=utf-8`;
      ctx.set('Cache-Control', 'public, max-age=300');
      ctx.set('X-Content-Type-Options', 'nosniff');
      ctx.body = text;
    },
  });
