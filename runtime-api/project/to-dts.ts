// JSON Schema → TypeScript declarations: the sandbox typings file and the declarations the MCP `search` tool
// returns. Both come from the same valibot schemas the bridge enforces, so what we promise is what we run.
import type { Binding } from '../define.ts';
import { jsonSchemaOf, type JsonSchema } from './json-schema.ts';
import { LIST_CONVENTION } from '../list-page.ts';
import { ALIASES_KEY, NAMING_CONVENTION } from '../input-keys.ts';

const IDENT = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

function docComment(text: string | undefined, indent: string): string {
  if (!text) return '';
  const lines = text.split('\n');
  if (lines.length === 1) return `${indent}/** ${text.replace(/\*\//g, '*\\/')} */\n`;
  return `${indent}/**\n${lines.map((l) => `${indent} * ${l.replace(/\*\//g, '*\\/')}`).join('\n')}\n${indent} */\n`;
}

function constraints(s: JsonSchema): string[] {
  const out: string[] = [];
  if (s.minLength !== undefined) out.push(`minLength ${s.minLength}`);
  if (s.maxLength !== undefined) out.push(`maxLength ${s.maxLength}`);
  if (s.minimum !== undefined) out.push(`minimum ${s.minimum}`);
  if (s.maximum !== undefined) out.push(`maximum ${s.maximum}`);
  if (s.pattern !== undefined) out.push(`pattern ${s.pattern}`);
  if (s.format !== undefined) out.push(`format ${s.format}`);
  if (s.minItems !== undefined) out.push(`minItems ${s.minItems}`);
  if (s.maxItems !== undefined) out.push(`maxItems ${s.maxItems}`);
  if (s.default !== undefined) out.push(`default ${JSON.stringify(s.default)}`);
  if (Array.isArray(s[ALIASES_KEY])) out.push(`also accepted as ${s[ALIASES_KEY].map((a: string) => `\`${a}\``).join(', ')}`);
  return out;
}

/** `compact`: one line, no comments (the record sheet); otherwise indented with each field's notes (the typings). */
export interface TypeStyle {
  compact?: boolean;
}

export function typeOf(s: JsonSchema | boolean | undefined, indent = '', style: TypeStyle = {}): string {
  if (s === undefined || s === true) return 'unknown';
  if (s === false) return 'never';
  if (s.const !== undefined) return JSON.stringify(s.const);
  if (s.enum) return s.enum.map((e: unknown) => JSON.stringify(e)).join(' | ');
  if (s.anyOf || s.oneOf) return (s.anyOf ?? s.oneOf).map((x: JsonSchema) => typeOf(x, indent, style)).join(' | ');
  if (s.allOf) return s.allOf.map((x: JsonSchema) => typeOf(x, indent, style)).join(' & ');
  const types: string[] = Array.isArray(s.type) ? s.type : s.type ? [s.type] : [];
  if (types.length > 1) return types.map((t) => typeOf({ ...s, type: t }, indent, style)).join(' | ');
  switch (types[0]) {
    case 'string':
      return 'string';
    case 'number':
    case 'integer':
      return 'number';
    case 'boolean':
      return 'boolean';
    case 'null':
      return 'null';
    case 'array': {
      if (Array.isArray(s.prefixItems)) return `[${s.prefixItems.map((x: JsonSchema) => typeOf(x, indent, style)).join(', ')}]`;
      const item = typeOf(s.items, indent, style);
      return /[|&]/.test(item) ? `Array<${item}>` : `${item}[]`;
    }
    case 'object':
      return objectType(s, indent, style);
    default:
      return 'unknown';
  }
}

function objectType(s: JsonSchema, indent: string, style: TypeStyle): string {
  const props: Record<string, JsonSchema> = s.properties ?? {};
  const required = new Set<string>(s.required ?? []);
  const inner = style.compact ? '' : `${indent}  `;
  const lines: string[] = [];
  for (const [name, prop] of Object.entries(props)) {
    const notes = style.compact ? '' : [prop.description, constraints(prop).join(', ')].filter(Boolean).join(' — ');
    lines.push(
      `${docComment(notes || undefined, inner)}${inner}${IDENT.test(name) ? name : JSON.stringify(name)}${required.has(name) ? '' : '?'}: ${typeOf(prop, inner, style)};`,
    );
  }
  if (s.additionalProperties && typeof s.additionalProperties === 'object') {
    lines.push(`${inner}[key: string]: ${typeOf(s.additionalProperties, inner, style)};`);
  }
  if (!lines.length) return s.additionalProperties === false ? 'Record<string, never>' : 'Record<string, unknown>';
  if (style.compact) return `{ ${lines.join(' ')} }`;
  return `{\n${lines.join('\n')}\n${indent}}`;
}

function pascal(name: string): string {
  return name
    .split('_')
    .map((w) => w[0].toUpperCase() + w.slice(1))
    .join('');
}

function inputIsOptional(s: JsonSchema): boolean {
  return s.type === 'object' && !s.required?.length;
}

/** The declarations of one binding: its input and output types and its global function. */
export function bindingDeclaration(b: Binding): string {
  const input = jsonSchemaOf(b.input, 'input');
  const output = jsonSchemaOf(b.output, 'output');
  const base = pascal(b.name);
  const notes = [
    b.summary,
    b.description,
    `Scope: ${b.scope ?? 'any authenticated caller'}.${b.writes ? ' Writes (recorded, not performed, in plan mode).' : ''}`,
    ...(b.examples ?? []).map((e) => `@example\n${e}`),
  ]
    .filter(Boolean)
    .join('\n');
  return [
    `type ${base}Input = ${typeOf(input)};`,
    `type ${base}Output = ${typeOf(output)};`,
    `${docComment(notes, '')}declare function ${b.name}(input${inputIsOptional(input) ? '?' : ''}: ${base}Input): Promise<${base}Output>;`,
  ].join('\n');
}

const PRELUDE = `// Generated by \`npm run gen:typings\` from runtime-api/registry.ts. Do not edit.
// The globals an \`execute\` script sees. A script is the body of an async function: \`return\` gives the result.
// A binding that fails rejects with an Error carrying \`code\` and \`resolution\`; catch it or let the script fail.
// ${LIST_CONVENTION}
// ${NAMING_CONVENTION}

interface BindingError extends Error {
  /** The service error code, e.g. "not_found", "quota_exceeded", "INSUFFICIENT_SCOPE". */
  code: string;
  /** How to fix the call. */
  resolution?: string;
}

declare const console: {
  log(...values: unknown[]): void;
  info(...values: unknown[]): void;
  warn(...values: unknown[]): void;
  error(...values: unknown[]): void;
};
`;

export function sandboxTypings(bindings: readonly Binding[]): string {
  return `${PRELUDE}\n${bindings.map(bindingDeclaration).join('\n\n')}\n`;
}
