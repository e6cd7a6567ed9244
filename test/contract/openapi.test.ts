// /openapi.json is a valid OpenAPI 3.1 document (checked by an independent validator), it lists exactly the
// routes the server serves, and live responses match it.
import t from 'tap';
import { Validator } from '@seriousme/openapi-schema-validator';
import { startTestApp } from '../helpers/app.ts';
import { http } from '../helpers/http.ts';
import { contract } from '../helpers/openapi-contract.ts';
import { ROUTERS } from '../../server/app.ts';

t.test('/openapi.json', async (t) => {
  const app = await startTestApp(t);
  const res = await http(`${app.url}/openapi.json`);
  t.equal(res.status, 200);
  const doc = res.body;

  t.test('an independent OpenAPI 3.1 validator accepts it', async (t) => {
    const validator = new Validator();
    const result = await validator.validate(structuredClone(doc));
    t.equal(validator.version, '3.1');
    t.ok(result.valid, JSON.stringify(result.errors, null, 2)?.slice(0, 4000));
  });

  t.test('it describes exactly the routes the server serves', async (t) => {
    const router = ROUTERS.get(app.koa)!;
    const served = new Set<string>();
    for (const layer of router.stack) {
      for (const method of layer.methods) {
        if (method === 'HEAD') continue;
        served.add(`${method} ${String(layer.path).replace(/:([A-Za-z0-9_]+)/g, '{$1}')}`);
      }
    }
    const documented = new Set<string>();
    for (const [path, ops] of Object.entries<Record<string, unknown>>(doc.paths)) {
      for (const method of Object.keys(ops)) documented.add(`${method.toUpperCase()} ${path}`);
    }
    t.same([...served].sort(), [...documented].sort());
    t.ok(documented.size >= 2);
  });

  t.test('every operation documents its security, errors and rate-limit headers', async (t) => {
    for (const [path, ops] of Object.entries<Record<string, any>>(doc.paths)) {
      for (const [method, op] of Object.entries<any>(ops)) {
        t.ok(op.operationId && op.summary, `${method} ${path} has an id and a summary`);
        t.ok(Array.isArray(op.security), `${method} ${path} states its security`);
        t.ok(op.responses['429'], `${method} ${path} documents 429`);
      }
    }
    t.match(doc.components.securitySchemes.oauth2.flows.authorizationCode.tokenUrl, /\/oauth\/token$/);
  });

  t.test('live responses match it', async (t) => {
    const c = contract(doc);
    c.check(t, 'get', '/openapi.json', res);
    c.check(t, 'get', '/api', await http(`${app.url}/api`));
    c.check(t, 'get', '/api', await http(`${app.url}/api`, { token: await app.token({ email: 'oa@example.com' }) }));
    c.check(t, 'get', '/api', await http(`${app.url}/api`, { token: 'bad' }));
  });
});
