// Contract checks: a live response must match what /openapi.json promises for that operation and status.
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import type { Test } from 'tap';
import type { JsonResponse } from './http.ts';

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => void;

function pointer(...parts: string[]): string {
  return '#/' + parts.map((p) => p.replace(/~/g, '~0').replace(/\//g, '~1')).join('/');
}

export function contract(doc: any) {
  const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: true });
  addFormats(ajv);
  ajv.addSchema(doc, 'openapi');
  const cache = new Map<string, ReturnType<typeof ajv.compile>>();
  return {
    /** Assert that `res` matches the documented response of `method pathTemplate` (e.g. `get`, `/v1/mcp/files/{fileId}/download`). */
    check(t: Test, method: string, pathTemplate: string, res: JsonResponse) {
      const op = doc.paths?.[pathTemplate]?.[method.toLowerCase()];
      if (!op) return t.fail(`${method} ${pathTemplate} is not in the OpenAPI document`);
      const status = String(res.status);
      const response = op.responses[status] ?? op.responses.default;
      if (!response) return t.fail(`${method} ${pathTemplate} does not document status ${status}`);
      for (const header of Object.keys(response.headers ?? {})) {
        if (header.startsWith('RateLimit-')) t.ok(res.headers[header.toLowerCase()] !== undefined, `${header} is sent`);
      }
      const type = String(res.headers['content-type'] ?? '').split(';')[0];
      if (!response.content) return t.pass(`${method} ${pathTemplate} ${status} has no documented body`);
      const media = response.content[type] ?? response.content['*/*'];
      if (!media) return t.fail(`${method} ${pathTemplate} ${status}: content type ${type} is not documented (${Object.keys(response.content).join(', ')})`);
      if (!media.schema || type !== 'application/json') return t.pass(`${method} ${pathTemplate} ${status} ${type}`);
      const key = pointer(
        'paths',
        pathTemplate,
        method.toLowerCase(),
        'responses',
        response === op.responses[status] ? status : 'default',
        'content',
        type,
        'schema',
      );
      let validate = cache.get(key);
      if (!validate) {
        validate = ajv.compile({ $ref: `openapi${key}` });
        cache.set(key, validate);
      }
      const ok = validate(res.body);
      t.ok(ok, `${method} ${pathTemplate} ${status} matches the OpenAPI schema${ok ? '' : `: ${ajv.errorsText(validate.errors)}`}`);
    },
  };
}
