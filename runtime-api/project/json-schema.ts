// valibot → JSON Schema (2020-12), the one conversion every projection (typings, MCP search, OpenAPI) uses.
import { toJsonSchema } from '@valibot/to-json-schema';
import type { AnySchema } from '../define.ts';

export type JsonSchema = Record<string, any>;

/** `mode: 'input'` describes what a caller sends (before transforms/defaults); `'output'` what it gets back. */
export function jsonSchemaOf(schema: AnySchema, mode: 'input' | 'output'): JsonSchema {
  const out = toJsonSchema(schema, { target: 'draft-2020-12', typeMode: mode, errorMode: 'ignore' }) as JsonSchema;
  delete out.$schema;
  return out;
}
