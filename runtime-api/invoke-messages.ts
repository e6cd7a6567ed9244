// What the chokepoint says when a caller may not call a binding, in both languages side by side: a session-only
// binding over a token, a personal one over an API key or without its scope, no organization, no admin role, a
// missing scope. Each names the binding, so a script's author reads which call was refused.
import { PERSONAL_TOKEN_SCOPE } from './define.ts';
import { ServiceError, l10n } from './errors.ts';
import type { Scope } from './identity/scopes.ts';
import type { Credential } from './identity/caller.ts';
import { scopeFix } from './identity/messages.ts';

export function sessionOnly(binding: string): ServiceError {
  return new ServiceError('INSUFFICIENT_SCOPE', {
    resolution: l10n(
      `${binding} can only be called from a signed-in session (the console, or a browser signed in by magic link), never with an access token or an API key.`,
      `${binding} só pode ser chamado a partir de uma sessão autenticada (o console, ou um navegador que entrou por link mágico), nunca com um token de acesso ou uma chave de API.`,
    ),
  });
}

/** A binding that acts for a person, called with an organization's API key. */
export function personalNotForApiKey(binding: string): ServiceError {
  return new ServiceError('INSUFFICIENT_SCOPE', {
    resolution: l10n(
      `${binding} acts for a person, and an organization API key belongs to its organization only; sign in as yourself (siglata login, or a session) to call it.`,
      `${binding} age por uma pessoa, e uma chave de API pertence só à organização dela; entre como você mesmo (siglata login, ou uma sessão) para chamá-lo.`,
    ),
  });
}

/** `held`: the caller's scopes. */
export function personalScopeRequired(binding: string, held: readonly string[]): ServiceError {
  return new ServiceError('INSUFFICIENT_SCOPE', {
    resolution: l10n(
      `${binding} needs the scope ${PERSONAL_TOKEN_SCOPE} on an access token; this caller holds ${held.join(' ') || 'none'}.`,
      `${binding} exige o escopo ${PERSONAL_TOKEN_SCOPE} num token de acesso; este chamador tem ${held.join(' ') || 'nenhum'}.`,
    ),
    details: { requiredScope: PERSONAL_TOKEN_SCOPE },
  });
}

export function organizationRequired(binding: string): ServiceError {
  return new ServiceError('ORGANIZATION_MEMBERSHIP_REQUIRED', {
    resolution: l10n(
      `${binding} acts on an organization: select one you are an active member of.`,
      `${binding} atua sobre uma organização: selecione uma da qual você é membro ativo.`,
    ),
  });
}

export function adminRoleRequired(binding: string): ServiceError {
  return new ServiceError('ORGANIZATION_ADMIN_REQUIRED', {
    resolution: l10n(
      `${binding} needs the owner or admin role in this organization.`,
      `${binding} exige o papel de proprietário ou administrador nesta organização.`,
    ),
  });
}

/** `held`: the caller's scopes; `credential`: what it presented, which decides how it gets the scope. */
export function scopeRequired(binding: string, scope: Scope, held: readonly string[], credential: Credential): ServiceError {
  const fix = scopeFix(credential, scope);
  return new ServiceError('INSUFFICIENT_SCOPE', {
    resolution: l10n(
      `${binding} needs the scope ${scope}; this caller holds ${held.join(' ') || 'none'}. ${fix['en-US']}`,
      `${binding} exige o escopo ${scope}; este chamador tem ${held.join(' ') || 'nenhum'}. ${fix['pt-BR']}`,
    ),
    details: { requiredScope: scope },
  });
}
