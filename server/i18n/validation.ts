// Localized validation: the identity routes validate with the request's locale, so an `invalid_input` resolution
// reads in pt-BR too. Valibot picks messages per `lang`; the pt-BR ones are registered here once (en-US keeps
// valibot's own English defaults, which the rest of the service uses).
import * as v from 'valibot';
import { type Locale, validateInput } from '../../runtime-api/index.ts';

const PT: Record<string, string> = {
  email: 'E-mail inválido',
  min_length: 'Comprimento inválido',
  max_length: 'Comprimento inválido',
  regex: 'Formato inválido',
  picklist: 'Valor não permitido',
  object: 'Tipo inválido',
  strict_object: 'Tipo inválido',
  string: 'Tipo inválido',
  boolean: 'Tipo inválido',
  record: 'Tipo inválido',
};

function ptMessage(issue: v.BaseIssue<unknown>): string {
  const head = PT[issue.type] ?? (issue.kind === 'schema' ? 'Tipo inválido' : 'Valor inválido');
  const expected = issue.expected ? `esperado ${issue.expected}, ` : '';
  return `${head}: ${expected}recebido ${issue.received}`;
}

let registered = false;
function register(): void {
  if (registered) return;
  v.setGlobalMessage(ptMessage, 'pt-BR');
  registered = true;
}

/** Validate `value`; failures are 400 invalid_input with a resolution in `locale`. */
export function validateIn<S extends v.GenericSchema>(locale: Locale, schema: S, value: unknown): v.InferOutput<S> {
  register();
  return validateInput(schema, value, locale, { lang: locale });
}
