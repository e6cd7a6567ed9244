// GET /console/assets/<file>: the console's stylesheet and scripts (no inline style or script: the CSP allows none).
import * as v from 'valibot';
import { defineRoute, type RouteDef } from '../../http/route.ts';
import { CONSOLE_ASSETS, assetText, type ConsoleAsset } from '../../pages/console/assets.ts';

const AssetQuery = v.object({ v: v.optional(v.string()) });

export const consoleAsset = (file: ConsoleAsset): RouteDef => {
  const type = CONSOLE_ASSETS[file];
  const [base, ext] = file.split('.');
  return defineRoute({
    method: 'GET',
    path: `/console/assets/${file}`,
    operationId: `consoleAsset${base[0].toUpperCase()}${base.slice(1)}${ext === 'css' ? 'Css' : 'Js'}`,
    summary: `The console's ${ext === 'css' ? 'stylesheet' : `script ${file}`}`,
    description: 'Pages link it with `?v=` and a hash of its content: a versioned URL may be cached for a year.',
    tags: ['console'],
    auth: 'none',
    query: AssetQuery,
    responses: { 200: { description: file, contentType: type } },
    errors: [],
    async handle(ctx) {
      ctx.type = `${type}; charset=utf-8`;
      ctx.set('Cache-Control', ctx.query.v ? 'public, max-age=31536000, immutable' : 'public, max-age=300');
      ctx.set('X-Content-Type-Options', 'nosniff');
      ctx.body = assetText(file);
    },
  });
};
