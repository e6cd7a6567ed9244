// Input keys as agents guess them. Every object input (a binding's, a REST route's) accepts, besides its own keys, the
// other spellings a caller is likely to write, derived from the schema rather than listed per binding:
// - `id` for the one record id an input takes (`fileId`, `keyId`, `invitationId`, ...; `organizationId` only when alone);
// - the snake_case and `ID` spellings of every key (`file_id`, `fileID`, `media_type`);
// - the names a field's schema declares with `alsoAccepted` (`path` for a file name, `byteLength` for a size).
// Any other key is refused with invalid_input naming it and, when it is close to a real key, the key meant. A strict
// input that silently dropped `path` would leave a script wondering why its file has no name.
import * as v from 'valibot';
import { ServiceError, type Locale } from './errors.ts';
import { describeIssue, keyWords } from './validation-messages.ts';

/** The naming in one sentence, for the execute tool's text and the typings' preamble. */
export const NAMING_CONVENTION =
  'Every record has `id` and its typed id with the same value (`fileId`, `memberId`, `invitationId`, `keyId`, ...); a file has its full path as `name` and `path`, its size in bytes as `size`. A binding taking one record id also accepts `id`; an argument it does not know is refused, naming the key meant.';

/** Metadata key under which a field's schema names its other accepted spellings (also shown in typings and OpenAPI). */
export const ALIASES_KEY = 'x-aliases';

/** A pipe action declaring other names a caller may use for this field, e.g. `alsoAccepted('path')` on a file name. */
export function alsoAccepted<TInput>(...names: string[]): v.MetadataAction<TInput, { readonly [ALIASES_KEY]: readonly string[] }> {
  return v.metadata<TInput, { readonly [ALIASES_KEY]: readonly string[] }>({ [ALIASES_KEY]: names });
}

type AnyObjectSchema = v.ObjectSchema<v.ObjectEntries, any> | v.StrictObjectSchema<v.ObjectEntries, any>;

interface KeyTable {
  keys: readonly string[];
  /** alias → key */
  aliases: ReadonlyMap<string, string>;
  strict: boolean;
}

const tables = new WeakMap<object, KeyTable | null>();

function objectSchemaOf(schema: v.GenericSchema): AnyObjectSchema | null {
  const s = schema as { type?: string; entries?: unknown };
  return (s.type === 'strict_object' || s.type === 'object' || s.type === 'loose_object') && s.entries ? (s as AnyObjectSchema) : null;
}

/** The names a field's schema declares (through pipes and optional/nullable wrappers). */
export function declaredAliases(schema: unknown, seen = new Set<unknown>()): string[] {
  if (!schema || typeof schema !== 'object' || seen.has(schema)) return [];
  seen.add(schema);
  const s = schema as { pipe?: { kind: string; type: string; metadata?: Record<string, unknown> }[]; wrapped?: unknown };
  const out: string[] = [];
  for (const item of s.pipe ?? []) {
    if (item.kind === 'metadata' && item.type === 'metadata' && Array.isArray(item.metadata?.[ALIASES_KEY]))
      out.push(...(item.metadata[ALIASES_KEY] as string[]));
    else if (item.kind === 'schema') out.push(...declaredAliases(item, seen));
  }
  out.push(...declaredAliases(s.wrapped, seen));
  return out;
}

const snake = (key: string) => key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

/** The record id an input takes, if exactly one (`organizationId` yields to another id: it selects, it is not the subject). */
export function recordIdKey(keys: readonly string[]): string | null {
  let ids = keys.filter((k) => /^[a-z][A-Za-z]*Id$/.test(k));
  if (ids.length > 1) ids = ids.filter((k) => k !== 'organizationId');
  return ids.length === 1 ? ids[0] : null;
}

function tableOf(schema: v.GenericSchema): KeyTable | null {
  if (tables.has(schema)) return tables.get(schema)!;
  const object = objectSchemaOf(schema);
  let table: KeyTable | null = null;
  if (object) {
    const keys = Object.keys(object.entries);
    const aliases = new Map<string, string>();
    const add = (alias: string, key: string) => {
      if (alias !== key && !keys.includes(alias) && !aliases.has(alias)) aliases.set(alias, key);
    };
    for (const key of keys) for (const alias of declaredAliases(object.entries[key])) add(alias, key);
    const idKey = recordIdKey(keys);
    if (idKey) add('id', idKey);
    for (const key of keys) {
      add(snake(key), key);
      if (key.endsWith('Id')) add(`${key.slice(0, -2)}ID`, key);
    }
    table = { keys, aliases, strict: object.type === 'strict_object' };
  }
  tables.set(schema, table);
  return table;
}

/** The aliases an input accepts, alias → key (for documentation and tests). */
export function inputAliases(schema: v.GenericSchema): ReadonlyMap<string, string> {
  return tableOf(schema)?.aliases ?? new Map();
}

/** Optimal string alignment distance (a swap of two neighbours counts one), compared ignoring case. */
function distance(a: string, b: string): number {
  a = a.toLowerCase();
  b = b.toLowerCase();
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) d[0][j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
    }
  }
  return d[a.length][b.length];
}

/** The key `unknown` most likely meant: a key or alias within edit distance 2 (1 for short keys), else null. */
export function closestKey(unknown: string, table: { keys: readonly string[]; aliases: ReadonlyMap<string, string> }): string | null {
  const reach = unknown.length <= 3 ? 1 : 2;
  let best: { key: string; d: number } | null = null;
  for (const [name, key] of [...table.keys.map((k) => [k, k] as const), ...table.aliases]) {
    const d = distance(unknown, name);
    if (d <= reach && (!best || d < best.d)) best = { key, d };
  }
  return best?.key ?? null;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

function sameValue(a: unknown, b: unknown): boolean {
  return a === b || JSON.stringify(a) === JSON.stringify(b);
}

/**
 * `raw` with its aliases renamed to the keys they stand for, and what was wrong with its keys (each already in
 * words, in `locale`): a key that is neither a field nor an alias, or a field given twice under two names.
 */
export function normalizeKeys(schema: v.GenericSchema, raw: unknown, locale: Locale): { value: unknown; problems: string[]; meant: Set<string> } {
  const table = tableOf(schema);
  const meantKeys = new Set<string>();
  if (!table || !isPlainObject(raw)) return { value: raw, problems: [], meant: meantKeys };
  const words = keyWords(locale);
  const out: Record<string, unknown> = {};
  const problems: string[] = [];
  const givenAs = new Map<string, string>();
  const entries = Object.entries(raw);
  // Own keys first, so that an alias meeting its key is compared with the key's value, not the other way round.
  entries.sort(([a], [b]) => Number(!table.keys.includes(a)) - Number(!table.keys.includes(b)));
  for (const [name, value] of entries) {
    const key = table.keys.includes(name) ? name : table.aliases.get(name);
    if (key === undefined) {
      const meant = closestKey(name, table);
      // A lax input lets other keys pass (and drops them), but never a misspelling of a field it was not given.
      if (!table.strict && (!meant || Object.hasOwn(raw, meant))) out[name] = value;
      else {
        if (meant) meantKeys.add(meant);
        problems.push(meant ? words.didYouMean(name, meant) : words.notAField(name, table.keys));
      }
      continue;
    }
    if (value === undefined) continue;
    const earlier = givenAs.get(key);
    if (earlier !== undefined) {
      if (!sameValue(out[key], value)) problems.push(words.givenTwice(key, earlier, name));
      continue;
    }
    givenAs.set(key, name);
    out[key] = value;
  }
  return { value: out, problems, meant: meantKeys };
}

/** A required key reported missing although a misspelling of it was just pointed out: said once is enough. */
function missingButMeant(issue: v.BaseIssue<unknown>, meant: Set<string>): boolean {
  const path = issue.path ?? [];
  return path.length === 1 && issue.received === 'undefined' && meant.has(String((path[0] as { key?: unknown }).key));
}

/**
 * Validate `raw` against `schema` the way every face does: aliases accepted, unknown keys refused with a hint, every
 * problem at once in one 400 invalid_input (in `locale`).
 */
export function validateInput<S extends v.GenericSchema>(
  schema: S,
  raw: unknown,
  locale: Locale = 'en-US',
  config?: v.Config<v.BaseIssue<unknown>>,
): v.InferOutput<S> {
  const { value, problems, meant } = normalizeKeys(schema, raw, locale);
  const parsed = v.safeParse(schema, value, config);
  if (parsed.success && !problems.length) return parsed.output;
  const described = parsed.success ? [] : parsed.issues.filter((i) => !missingButMeant(i, meant)).map((i) => describeIssue(i, locale));
  throw new ServiceError('invalid_input', { resolution: keyWords(locale).all([...problems, ...described]) });
}
