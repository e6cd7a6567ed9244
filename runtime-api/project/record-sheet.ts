// The record sheet: the shapes the common bindings return, as compact TypeScript, for the `execute` tool's text. An
// agent writes its script from what the tool says before it ever calls `search`; without the shapes it guesses field
// names, and a wrong guess reads `undefined` without an error. Generated from the same schemas as the typings, with
// the bindings that return each record found by comparing their output schemas, so it cannot drift.
import type { Binding } from '../define.ts';
import { jsonSchemaOf, type JsonSchema } from './json-schema.ts';
import { typeOf } from './to-dts.ts';

/** Each record of the sheet: its name, and the binding whose output (or whose page's items) is that record. */
export const SHEET_RECORDS: readonly { name: string; from: string; items?: boolean }[] = [
  { name: 'File', from: 'files_get' },
  { name: 'Upload', from: 'upload_status' },
  { name: 'Member', from: 'members_list', items: true },
  { name: 'Invitation', from: 'invitations_list', items: true },
  { name: 'ApiKey', from: 'api_keys_list', items: true },
  { name: 'Execution', from: 'executions_list', items: true },
  { name: 'Organization', from: 'organizations_list', items: true },
  { name: 'Context', from: 'context' },
];

/** A schema without its texts: two schemas are the same record when their shapes are. */
function shape(s: unknown): unknown {
  if (Array.isArray(s)) return s.map(shape);
  if (!s || typeof s !== 'object') return s;
  const out: Record<string, unknown> = {};
  for (const [k, value] of Object.entries(s)) if (k !== 'description' && k !== 'title' && k !== 'examples') out[k] = shape(value);
  return out;
}

const same = (a: JsonSchema, b: JsonSchema) => JSON.stringify(shape(a)) === JSON.stringify(shape(b));

/** `s` is `record` plus other properties (e.g. `{ ...ApiKey, key }`): the names of the extra ones, else null. */
function extension(s: JsonSchema, record: JsonSchema): string[] | null {
  if (s.type !== 'object' || !s.properties) return null;
  const own = Object.keys(record.properties ?? {});
  if (!own.every((k) => s.properties[k] && same(s.properties[k], record.properties[k]))) return null;
  return Object.keys(s.properties).filter((k) => !own.includes(k));
}

/** Where `binding`'s output holds `record`: the whole output, its page's items, one of its fields; null if nowhere. */
function placeOf(output: JsonSchema, record: JsonSchema): string | null {
  if (same(output, record)) return '';
  const items = output.properties?.items;
  if (items?.type === 'array' && output.properties?.nextCursor && same(items.items, record)) return '.items[]';
  const extra = extension(output, record);
  if (extra?.length) return ` (+ ${extra.join(', ')})`;
  for (const [k, p] of Object.entries<JsonSchema>(output.properties ?? {})) {
    if (same(p, record)) return `.${k}`;
    if (p.type === 'array' && p.items && same(p.items, record)) return `.${k}[]`;
  }
  return null;
}

/** The sheet: one line per record (`type File = { ... };`) and the bindings returning it. */
export function recordSheet(bindings: readonly Binding[]): string {
  const byName = new Map(bindings.map((b) => [b.name, b]));
  const outputs = bindings.map((b) => ({ b, output: jsonSchemaOf(b.output, 'output') }));
  const lines: string[] = [];
  for (const r of SHEET_RECORDS) {
    const from = byName.get(r.from);
    if (!from) continue;
    const output = jsonSchemaOf(from.output, 'output');
    const record: JsonSchema = r.items ? output.properties.items.items : output;
    const returnedBy = outputs.flatMap(({ b, output: o }) => {
      const place = placeOf(o, record);
      return place === null ? [] : [`${b.name}${place}`];
    });
    lines.push(`type ${r.name} = ${typeOf(record, '', { compact: true })}; // ${returnedBy.join(', ')}`);
  }
  return lines.join('\n');
}
