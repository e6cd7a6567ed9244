// The single chokepoint every way in goes through (REST, /app/v1, MCP, the sandbox bridge):
// authorize the caller, validate the input, run the handler, validate the output.
import * as v from 'valibot';
import { PERSONAL_TOKEN_SCOPE, type Binding, type HandlerContext } from './define.ts';
import { credentialOf, isApiKeyCaller, type Caller } from './identity/caller.ts';
import { ServiceError, type Locale } from './errors.ts';
import { describeAllIssues } from './validation-messages.ts';
import { validateInput } from './input-keys.ts';
import { fromDatabaseError } from './store/errors.ts';
import { isAdminRole } from './identity/scopes.ts';
import { adminRoleRequired, organizationRequired, personalNotForApiKey, personalScopeRequired, scopeRequired, sessionOnly } from './invoke-messages.ts';

export type InvokeDeps = Omit<HandlerContext, 'caller'>;

/** Every valibot issue with its path, in plain words, in `locale` (one source: validation-messages.ts). */
export function describeIssues(issues: readonly v.BaseIssue<unknown>[], locale: Locale = 'en-US'): string {
  return describeAllIssues(issues, locale);
}

/**
 * Why `caller` may not call `binding`, the first reason that holds: only a signed-in session may (`session`), it acts
 * for a person and this is an organization's API key (`api_key`), a person's token lacks the personal scope
 * (`personal_scope`), no organization is selected (`organization`), the caller's role is too low (`role`), a scope is
 * missing (`scope`). `search` and the tool listing say the same reason a call would be refused with.
 */
export type RefusalReason = 'session' | 'api_key' | 'personal_scope' | 'organization' | 'role' | 'scope';

export function refusalOf(binding: Binding, caller: Caller): { reason: RefusalReason; error: ServiceError } | null {
  if (binding.sessionOnly && caller.kind === 'token') return { reason: 'session', error: sessionOnly(binding.name) };
  if (binding.personal && caller.kind === 'token') {
    // A key belongs to its organization, not to a person, so it may never act as one (create organizations, join).
    if (isApiKeyCaller(caller)) return { reason: 'api_key', error: personalNotForApiKey(binding.name) };
    if (!caller.scopes.includes(PERSONAL_TOKEN_SCOPE)) return { reason: 'personal_scope', error: personalScopeRequired(binding.name, caller.scopes) };
  }
  if (binding.needsOrganization && !caller.membership) return { reason: 'organization', error: organizationRequired(binding.name) };
  // A member asking for an admin operation lacks the role, not just a scope: say so, as the HTTP routes do.
  if (binding.scope === 'org:admin' && caller.membership && !isAdminRole(caller.membership.role)) {
    return { reason: 'role', error: adminRoleRequired(binding.name) };
  }
  if (binding.scope && !caller.scopes.includes(binding.scope))
    return { reason: 'scope', error: scopeRequired(binding.name, binding.scope, caller.scopes, credentialOf(caller)) };
  return null;
}

export function authorize(binding: Binding, caller: Caller): void {
  const refusal = refusalOf(binding, caller);
  if (refusal) throw refusal.error;
}

/** The binding's input from what the caller sent: aliases accepted (`id`, `path`, ...), unknown keys refused with a hint. */
export function parseInput<B extends Binding>(binding: B, rawInput: unknown, locale: Locale = 'en-US'): v.InferOutput<B['input']> {
  return validateInput(binding.input, rawInput ?? {}, locale);
}

/** Handler results already checked against their binding's output schema (e.g. on a parser thread): not checked twice. */
const validated = new WeakSet<object>();

/** Marks `value` as already validated against its binding's output schema; returns it. */
export function alreadyValidated<T extends object>(value: T): T {
  validated.add(value);
  return value;
}

export async function invoke<B extends Binding>(binding: B, rawInput: unknown, caller: Caller, deps: InvokeDeps): Promise<v.InferOutput<B['output']>> {
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
