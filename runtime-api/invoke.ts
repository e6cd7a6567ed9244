// The single chokepoint every way in goes through (REST, /app/v1, MCP, the sandbox bridge):
// authorize the caller, validate the input, run the handler, validate the output.
import * as v from 'valibot';
import { PERSONAL_TOKEN_SCOPE, type Binding, type HandlerContext } from './define.ts';
import { isApiKeyCaller, type Caller } from './identity/caller.ts';
import { ServiceError, l10n, type Locale } from './errors.ts';
import { describeAllIssues } from './validation-messages.ts';
import { fromDatabaseError } from './store/errors.ts';
import { isAdminRole } from './identity/scopes.ts';

export type InvokeDeps = Omit<HandlerContext, 'caller'>;

/** Every valibot issue with its path, in plain words, in `locale` (one source: validation-messages.ts). */
export function describeIssues(issues: readonly v.BaseIssue<unknown>[], locale: Locale = 'en-US'): string {
  return describeAllIssues(issues, locale);
}

export function authorize(binding: Binding, caller: Caller): void {
  if (binding.sessionOnly && caller.kind === 'token') {
    throw new ServiceError('INSUFFICIENT_SCOPE', {
      resolution: l10n(`${binding.name} can only be called from a signed-in session, never with an access token.`,
        `${binding.name} só pode ser chamado a partir de uma sessão autenticada, nunca com um token de acesso.`),
    });
  }
  if (binding.personal && caller.kind === 'token') {
    // A key belongs to its organization, not to a person, so it may never act as one (create organizations, join).
    if (isApiKeyCaller(caller)) {
      throw new ServiceError('INSUFFICIENT_SCOPE', {
        resolution: l10n(`${binding.name} acts for a person, and an organization API key belongs to its organization only; sign in as yourself (siglata login, or a session) to call it.`,
          `${binding.name} age por uma pessoa, e uma chave de API pertence só à organização dela; entre como você mesmo (siglata login, ou uma sessão) para chamá-lo.`),
      });
    }
    if (!caller.scopes.includes(PERSONAL_TOKEN_SCOPE)) {
      throw new ServiceError('INSUFFICIENT_SCOPE', {
        resolution: l10n(`${binding.name} needs the scope ${PERSONAL_TOKEN_SCOPE} on an access token; this caller holds ${caller.scopes.join(' ') || 'none'}.`,
          `${binding.name} exige o escopo ${PERSONAL_TOKEN_SCOPE} num token de acesso; este chamador tem ${caller.scopes.join(' ') || 'nenhum'}.`),
        details: { requiredScope: PERSONAL_TOKEN_SCOPE },
      });
    }
  }
  if (binding.needsOrganization && !caller.membership) {
    throw new ServiceError('ORGANIZATION_MEMBERSHIP_REQUIRED', {
      resolution: l10n(`${binding.name} acts on an organization: select one you are an active member of.`,
        `${binding.name} atua sobre uma organização: selecione uma da qual você é membro ativo.`),
    });
  }
  // A member asking for an admin operation lacks the role, not just a scope: say so, as the HTTP routes do.
  if (binding.scope === 'org:admin' && caller.membership && !isAdminRole(caller.membership.role)) {
    throw new ServiceError('ORGANIZATION_ADMIN_REQUIRED', {
      resolution: l10n(`${binding.name} needs the owner or admin role in this organization.`, `${binding.name} exige o papel de proprietário ou administrador nesta organização.`),
    });
  }
  if (binding.scope && !caller.scopes.includes(binding.scope)) {
    throw new ServiceError('INSUFFICIENT_SCOPE', {
      resolution: l10n(`${binding.name} needs the scope ${binding.scope}; this caller holds ${caller.scopes.join(' ') || 'none'}.`,
        `${binding.name} exige o escopo ${binding.scope}; este chamador tem ${caller.scopes.join(' ') || 'nenhum'}.`),
      details: { requiredScope: binding.scope },
    });
  }
}

export function parseInput<B extends Binding>(binding: B, rawInput: unknown, locale: Locale = 'en-US'): v.InferOutput<B['input']> {
  const parsed = v.safeParse(binding.input, rawInput ?? {});
  if (!parsed.success) {
    throw new ServiceError('invalid_input', { resolution: describeIssues(parsed.issues, locale) });
  }
  return parsed.output;
}

/** Handler results already checked against their binding's output schema (e.g. on a parser thread): not checked twice. */
const validated = new WeakSet<object>();

/** Marks `value` as already validated against its binding's output schema; returns it. */
export function alreadyValidated<T extends object>(value: T): T {
  validated.add(value);
  return value;
}

export async function invoke<B extends Binding>(
  binding: B,
  rawInput: unknown,
  caller: Caller,
  deps: InvokeDeps,
): Promise<v.InferOutput<B['output']>> {
  authorize(binding, caller);
  const input = parseInput(binding, rawInput, caller.locale);
  deps.signal?.throwIfAborted();
  let raw: unknown;
  try {
    raw = await binding.handler(input, { ...deps, caller });
  } catch (err) {
    const mapped = fromDatabaseError(err);
    if (mapped) throw mapped;
    throw err;
  }
  // Validating a large output (100,000 cells) is work too: skip it for an answer nobody will read.
  deps.signal?.throwIfAborted();
  if (raw !== null && typeof raw === 'object' && validated.has(raw)) return raw as v.InferOutput<B['output']>;
  const out = v.safeParse(binding.output, raw);
  if (!out.success) {
    throw new ServiceError('internal_error', {
      cause: new Error(`${binding.name} returned an invalid result: ${describeIssues(out.issues)}`),
    });
  }
  return out.output;
}
