// Every tool's schemas as schema checkers read them: each subschema says what it admits (a bare `{}` is the
// spelling of "anything" that the MCP Inspector flags as untyped), none uses a `type` array (less portable), and the
// execute tool's output schema admits every JSON value a script may return, checked on live answers with ajv.
import t from 'tap';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { startTestApp } from '../helpers/app.ts';
import { http } from '../helpers/http.ts';

type Schema = Record<string, unknown>;

/** Keywords that constrain an instance (JSON Schema 2020-12 validation and applicator vocabularies). */
const CONSTRAINING = new Set([
  'type',
  'enum',
  'const',
  'anyOf',
  'allOf',
  'oneOf',
  'not',
  'properties',
  'additionalProperties',
  'items',
  'prefixItems',
  'required',
  'pattern',
  'minLength',
  'maxLength',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'multipleOf',
  'minItems',
  'maxItems',
  'uniqueItems',
  'contains',
  'format',
  '$ref',
]);
const MAPS = ['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas'];
const ARRAYS = ['anyOf', 'allOf', 'oneOf', 'prefixItems'];
const SINGLE = ['items', 'additionalProperties', 'not', 'contains', 'propertyNames', 'if', 'then', 'else'];

/** Every subschema of `schema` with its path. */
function* subschemas(schema: unknown, path: string): Generator<[string, unknown]> {
  yield [path, schema];
  if (typeof schema !== 'object' || schema === null) return;
  const node = schema as Schema;
  for (const key of MAPS) for (const [name, sub] of Object.entries((node[key] as Schema | undefined) ?? {})) yield* subschemas(sub, `${path}.${key}.${name}`);
  for (const key of ARRAYS) for (const [i, sub] of ((node[key] as unknown[] | undefined) ?? []).entries()) yield* subschemas(sub, `${path}.${key}[${i}]`);
  for (const key of SINGLE) if (key in node && typeof node[key] === 'object') yield* subschemas(node[key], `${path}.${key}`);
}

t.test("every listed tool's schemas", async (t) => {
  const app = await startTestApp(t, { env: { RATE_LIMIT_MAX: '100000' } });
  const token = await app.token({ email: 'schemas@example.com' });
  const rpc = (method: string, params?: unknown) => http(`${app.url}/v1/mcp`, { json: { jsonrpc: '2.0', id: 1, method, params }, token });
  const { tools } = (await rpc('tools/list', {})).body.result as { tools: { name: string; inputSchema: Schema; outputSchema?: Schema }[] };
  t.ok(
    tools.some((tool) => tool.outputSchema),
    'at least one tool declares an output schema',
  );

  for (const tool of tools) {
    for (const kind of ['inputSchema', 'outputSchema'] as const) {
      const schema = tool[kind];
      if (!schema) continue;
      for (const [path, sub] of subschemas(schema, `${tool.name}.${kind}`)) {
        t.equal(typeof sub, 'object', `${path}: a schema object, not a bare boolean`);
        const keys = Object.keys(sub as Schema);
        t.ok(
          keys.some((k) => CONSTRAINING.has(k)),
          `${path}: says what it admits (${JSON.stringify(sub).slice(0, 80)})`,
        );
        t.notOk(Array.isArray((sub as Schema).type), `${path}: a single type per schema`);
      }
    }
  }

  t.test("execute's output schema admits every JSON value a script returns", async (t) => {
    const execute = tools.find((tool) => tool.name === 'execute')!;
    const validate = new Ajv2020({ strict: false }).compile(execute.outputSchema!);
    for (const value of ['"text"', '42', '4.5', 'true', 'null', '[1, "two", null]', '({ nested: { list: [{}] } })']) {
      const res = await rpc('tools/call', { name: 'execute', arguments: { script: `return ${value};` } });
      const content = res.body.result.structuredContent;
      t.equal(content.ok, true, value);
      t.ok(validate(content), `${value}: ${JSON.stringify(validate.errors)}`);
    }
    const plan = await rpc('tools/call', { name: 'execute', arguments: { script: 'await files_write_text({ name: "a.txt", text: "x" });', mode: 'plan' } });
    t.ok(validate(plan.body.result.structuredContent), `a plan's operations: ${JSON.stringify(validate.errors)}`);
    t.notOk(validate({ result: 1 }), 'the schema still checks what it requires (ok)');
  });
});
