// Validation failures in plain words, every problem with its path, in the caller's language. Valibot's own messages
// ("Expected never but received \"path\"") describe the schema, not the fix; these say what to change.
import type * as v from 'valibot';
import type { Locale } from './errors.ts';

/** More problems than this are summarized: the caller fixes these first. */
const MAX_LISTED = 10;

type Words = (i: v.BaseIssue<unknown>) => string;

const TYPE_NAMES: Record<string, [string, string]> = {
  string: ['a string', 'um texto'],
  number: ['a number', 'um número'],
  boolean: ['true or false', 'true ou false'],
  array: ['a list', 'uma lista'],
  object: ['an object', 'um objeto'],
  strict_object: ['an object', 'um objeto'],
  loose_object: ['an object', 'um objeto'],
  record: ['an object', 'um objeto'],
  date: ['a date', 'uma data'],
};

function requirement(i: v.BaseIssue<unknown>): string {
  const r = (i as { requirement?: unknown }).requirement;
  return typeof r === 'number' || typeof r === 'string' ? String(r) : String(i.expected ?? '').replace(/^[<>]=?/, '');
}

const WORDS: Record<Locale, { fallback: Words; missing: string; unknown: string; byType: Record<string, Words> }> = {
  'en-US': {
    missing: 'required',
    unknown: 'not a field of this input; remove it (search shows the signature)',
    fallback: (i) => `invalid (expected ${i.expected ?? 'another value'}, got ${i.received})`,
    byType: {
      min_length: (i) => `too short: at least ${requirement(i)} characters or items`,
      max_length: (i) => `too long: at most ${requirement(i)} characters or items`,
      min_value: (i) => `must be at least ${requirement(i)} (got ${i.received})`,
      max_value: (i) => `must be at most ${requirement(i)} (got ${i.received})`,
      integer: (i) => `must be a whole number (got ${i.received})`,
      regex: () => 'wrong format',
      email: () => 'must be an e-mail address',
      picklist: (i) => `must be one of ${i.expected} (got ${i.received})`,
      literal: (i) => `must be ${i.expected} (got ${i.received})`,
      union: (i) => `matches no accepted form (got ${i.received})`,
      variant: (i) => `matches no accepted form (got ${i.received})`,
      check: (i) => i.message,
    },
  },
  'pt-BR': {
    missing: 'obrigatório',
    unknown: 'não é um campo desta entrada; remova-o (search mostra a assinatura)',
    fallback: (i) => `inválido (esperado ${i.expected ?? 'outro valor'}, recebido ${i.received})`,
    byType: {
      min_length: (i) => `curto demais: no mínimo ${requirement(i)} caracteres ou itens`,
      max_length: (i) => `longo demais: no máximo ${requirement(i)} caracteres ou itens`,
      min_value: (i) => `precisa ser no mínimo ${requirement(i)} (recebido ${i.received})`,
      max_value: (i) => `precisa ser no máximo ${requirement(i)} (recebido ${i.received})`,
      integer: (i) => `precisa ser um número inteiro (recebido ${i.received})`,
      regex: () => 'formato errado',
      email: () => 'precisa ser um endereço de e-mail',
      picklist: (i) => `precisa ser um de ${i.expected} (recebido ${i.received})`,
      literal: (i) => `precisa ser ${i.expected} (recebido ${i.received})`,
      union: (i) => `não corresponde a nenhuma forma aceita (recebido ${i.received})`,
      variant: (i) => `não corresponde a nenhuma forma aceita (recebido ${i.received})`,
      check: (i) => i.message,
    },
  },
};

/** The pt-BR defaults registered for valibot in server/i18n/validation.ts ("Tipo inválido: …"). */
const PT_DEFAULT = /^(Tipo|Valor|Comprimento|Formato|E-mail) inválido|^Valor não permitido/;

function dotPath(i: v.BaseIssue<unknown>): string {
  return (i.path ?? []).map((p) => String((p as { key?: unknown }).key)).join('.');
}

export function describeIssue(i: v.BaseIssue<unknown>, locale: Locale): string {
  const w = WORDS[locale];
  const path = dotPath(i);
  const where = path ? `\`${path}\`` : locale === 'pt-BR' ? 'a entrada' : 'the input';
  let what: string;
  // A message the schema's author wrote (valibot's defaults all start "Invalid ") already says what to fix.
  if (!/^Invalid /.test(i.message) && !PT_DEFAULT.test(i.message)) what = i.message;
  else if (i.kind === 'schema' && i.expected === 'never') what = w.unknown;
  else if (i.kind === 'schema' && i.received === 'undefined') what = w.missing;
  else if (i.kind === 'schema' && TYPE_NAMES[i.type]) {
    const [en, pt] = TYPE_NAMES[i.type];
    what = locale === 'pt-BR' ? `precisa ser ${pt} (recebido ${i.received})` : `must be ${en} (got ${i.received})`;
  } else what = (w.byType[i.type] ?? w.fallback)(i);
  return `${where}: ${what}`;
}

/** Problems already in words, joined into one text, the first MAX_LISTED of them. */
export function joinProblems(problems: readonly string[], locale: Locale = 'en-US'): string {
  if (!problems.length) return locale === 'pt-BR' ? 'Entrada inválida.' : 'Invalid input.';
  const listed = problems.slice(0, MAX_LISTED);
  const more = problems.length - listed.length;
  const tail = more > 0 ? (locale === 'pt-BR' ? `; e mais ${more} problema(s)` : `; and ${more} more problem(s)`) : '';
  const text = `${listed.join('; ')}${tail}`;
  return /[.?]$/.test(text) ? text : `${text}.`;
}

/** Every problem, its path first, joined into one text: "`name`: required; `limit`: must be at most 200 (got 500)." */
export function describeAllIssues(issues: readonly v.BaseIssue<unknown>[], locale: Locale = 'en-US'): string {
  return joinProblems(
    issues.map((i) => describeIssue(i, locale)),
    locale,
  );
}

const quoted = (keys: readonly string[]) => keys.map((k) => `\`${k}\``).join(', ');

/** What input-keys.ts says about the keys of an input: an unknown key (and the one probably meant), a field given twice. */
const KEY_WORDS: Record<
  Locale,
  {
    didYouMean(key: string, meant: string): string;
    notAField(key: string, keys: readonly string[]): string;
    givenTwice(key: string, a: string, b: string): string;
  }
> = {
  'en-US': {
    didYouMean: (key, meant) => `\`${key}\`: not a field of this input; did you mean \`${meant}\`?`,
    notAField: (key, keys) =>
      keys.length ? `\`${key}\`: not a field of this input (its fields: ${quoted(keys)}); remove it` : `\`${key}\`: this input takes no fields; remove it`,
    givenTwice: (key, a, b) => `\`${key}\`: given twice with different values (as \`${a}\` and \`${b}\`); give it once`,
  },
  'pt-BR': {
    didYouMean: (key, meant) => `\`${key}\`: não é um campo desta entrada; você quis dizer \`${meant}\`?`,
    notAField: (key, keys) =>
      keys.length
        ? `\`${key}\`: não é um campo desta entrada (os campos dela: ${quoted(keys)}); remova-o`
        : `\`${key}\`: esta entrada não tem campos; remova-o`,
    givenTwice: (key, a, b) => `\`${key}\`: informado duas vezes com valores diferentes (como \`${a}\` e \`${b}\`); informe-o uma vez só`,
  },
};

export function keyWords(locale: Locale) {
  return { ...KEY_WORDS[locale], all: (problems: readonly string[]) => joinProblems(problems, locale) };
}
