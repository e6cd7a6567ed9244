import t from 'tap';
import * as v from 'valibot';
import { startTestApp } from '../helpers/app.ts';
import { http } from '../helpers/http.ts';
import { defineRoute } from '../../server/http/route.ts';

t.test('a deprecated route answers with Deprecation, Sunset and Link rel="sunset"', async (t) => {
  const app = await startTestApp(t, {
    extraRoutes: () => [
      defineRoute({
        method: 'GET',
        path: '/app/v0/ping',
        operationId: 'pingV0',
        summary: 'old ping',
        tags: ['test'],
        auth: 'none',
        errors: [],
        responses: { 200: { description: 'pong', schema: v.object({ pong: v.boolean() }) } },
        deprecated: { since: '2026-06-01', sunset: '2026-12-31', link: 'https://siglata.com/docs/versioning' },
        handle: (ctx) => {
          ctx.body = { pong: true };
        },
      }),
    ],
  });
  const res = await http(`${app.url}/app/v0/ping`);
  t.equal(res.status, 200);
  t.same(res.body, { pong: true }, 'it keeps working');
  t.equal(res.headers.deprecation, `@${Date.UTC(2026, 5, 1) / 1000}`);
  t.equal(res.headers.sunset, 'Thu, 31 Dec 2026 00:00:00 GMT');
  t.equal(res.headers.link, '<https://siglata.com/docs/versioning>; rel="sunset"; type="text/html"');
  const current = await http(`${app.url}/api`);
  t.notOk(current.headers.deprecation, 'routes not deprecated say nothing');
  t.notOk(current.headers.sunset);
});
