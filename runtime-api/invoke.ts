// The single chokepoint every way in goes through (REST, /app/v1, MCP, the sandbox bridge):
// authorize the caller, validate the input, run the handler, validate the output.
import * as v from 'valibot';
import type { Binding, HandlerContext } from './define.ts';
import type { Caller } from './caller.ts';
import { ServiceError, l10n } from './errors.ts';
import { fromDatabaseError } from './store/errors.ts';
import { isAdminRole } from './scopes.ts';

export type InvokeDeps = Omit<HandlerContext, 'caller'>;

/** Describe the first valibot issue as `path: message`, the way a caller can fix it. */
export function describeIssues(issues: readonly v.BaseIssue<unknown>[]): string {
  const first = issues[0];
  if (!first) return 'Invalid input.';
  const path = v.getDotPath(first);
  return `${path ? `\`${path}\`` : 'input'}: ${first.message}`;
}

export function authorize(binding: Binding, caller: Caller): void {
  if (binding.sessionOnly && caller.kind === 'token') {
    throw new ServiceError('INSUFFICIENT_SCOPE', {
      resolution: l10n(`${binding.name} can only be called from a signed-in session, never with an access token.`,
        `${binding.name} só pode ser chamado a partir de uma sessão autenticada, nunca com um token de acesso.`),
    });
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

export function parseInput<B extends Binding>(binding: B, rawInput: unknown): v.InferOutput<B['input']> {
  const parsed = v.safeParse(binding.input, rawInput ?? {});
  if (!parsed.success) {
    throw new ServiceError('invalid_input', { resolution: describeIssues(parsed.issues) });
  }
  return parsed.output;
}

export async function invoke<B extends Binding>(
  binding: B,
  rawInput: unknown,
  caller: Caller,
  deps: InvokeDeps,
): Promise<v.InferOutput<B['output']>> {
  authorize(binding, caller);
  const input = parseInput(binding, rawInput);
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
  const out = v.safeParse(binding.output, raw);
  if (!out.success) {
    throw new ServiceError('internal_error', {
      cause: new Error(`${binding.name} returned an invalid result: ${describeIssues(out.issues)}`),
    });
  }
  return out.output;
}
