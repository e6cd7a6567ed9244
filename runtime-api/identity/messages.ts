// What identity says, in both languages side by side: its refusals of a caller (the credential, the session, the
// membership, the role, the organization's MCP access, API keys) and the sign-in e-mail. The HTTP face adds only its
// headers.
import { ServiceError, l10n, tr, type Locale, type Localized } from '../errors.ts';
import type { Credential } from './caller.ts';

export function organizationNotFound(locale: Locale): ServiceError {
  return new ServiceError('not_found', {
    resolution: tr(
      locale,
      'No organization has this id; list yours with GET /auth/organization/list.',
      'Nenhuma organização tem este id; liste as suas com GET /auth/organization/list.',
    ),
  });
}

export function membershipRequired(locale: Locale): ServiceError {
  return new ServiceError('ORGANIZATION_MEMBERSHIP_REQUIRED', {
    resolution: tr(
      locale,
      'You are not an active member of this organization; use one you belong to, or ask an admin for an invitation.',
      'Você não é membro ativo desta organização; use uma da qual faz parte, ou peça um convite a um administrador.',
    ),
  });
}

export function adminRequired(locale: Locale): ServiceError {
  return new ServiceError('ORGANIZATION_ADMIN_REQUIRED', {
    resolution: tr(
      locale,
      'Only an owner or admin of the organization can do this; ask one of them.',
      'Só um proprietário ou administrador da organização pode fazer isto; peça a um deles.',
    ),
  });
}

/** A Bearer credential: an OAuth access token or an organization API key. */
export type BearerCredential = Extract<Credential, 'access-token' | 'api-key'>;

export function tokenMembershipLost(credential: BearerCredential): ServiceError {
  return new ServiceError('ORGANIZATION_MEMBERSHIP_REQUIRED', {
    resolution:
      credential === 'api-key'
        ? l10n(
            'The person who created this API key is no longer a member of its organization, so the key no longer works; an owner or admin of the organization can create a new one (api_keys_create, or siglata keys create).',
            'A pessoa que criou esta chave de API não é mais membro da organização dela, então a chave não funciona mais; um proprietário ou administrador da organização pode criar outra (api_keys_create, ou siglata keys create).',
          )
        : l10n(
            "The token's user is no longer a member of its organization; sign in again and pick an organization you belong to.",
            'O usuário do token não é mais membro da organização dele; entre de novo e escolha uma organização da qual você faz parte.',
          ),
  });
}

export function mcpAccessRevoked(credential: BearerCredential): ServiceError {
  const what =
    credential === 'api-key'
      ? ['API keys and access tokens', 'chaves de API e tokens de acesso']
      : ['access tokens and API keys', 'tokens de acesso e chaves de API'];
  return new ServiceError('MCP_ACCESS_REVOKED', {
    resolution: l10n(
      `The organization's owners revoked access by ${what[0]}; a new one would be refused too. An owner or admin can restore access with mcp_access_set (POST /auth/organization/set-mcp-access) from a signed-in session.`,
      `Os proprietários da organização revogaram o acesso por ${what[1]}; um novo também seria recusado. Um proprietário ou administrador pode restaurar o acesso com mcp_access_set (POST /auth/organization/set-mcp-access) a partir de uma sessão autenticada.`,
    ),
  });
}

/** How a caller with `credential` comes to hold `scope`: the fix to append to a scope refusal. */
export function scopeFix(credential: Credential, scope: string): Localized {
  switch (credential) {
    case 'access-token':
      return l10n(
        `Request a new access token with the scope ${scope} (within the organization's maxScopes).`,
        `Peça um novo token de acesso com o escopo ${scope} (dentro do maxScopes da organização).`,
      );
    case 'api-key':
      return l10n(
        `This API key does not hold it: create a key that does (api_keys_create, or siglata keys create; within your scopes and the organization's maxScopes) and use it instead.`,
        `Esta chave de API não o tem: crie uma chave que o tenha (api_keys_create, ou siglata keys create; dentro dos seus escopos e do maxScopes da organização) e use-a no lugar.`,
      );
    case 'session':
      return l10n(
        `Your role in this organization does not grant it; ask an owner or admin for a role that does.`,
        `O seu papel nesta organização não o concede; peça a um proprietário ou administrador um papel que o conceda.`,
      );
    case 'system':
      return l10n(`Call with a credential that holds ${scope}.`, `Chame com uma credencial que tenha ${scope}.`);
  }
}

export function adminScopeRequired(credential: Credential): ServiceError {
  const fix = scopeFix(credential, 'org:admin');
  return new ServiceError('INSUFFICIENT_SCOPE', {
    resolution: l10n(`This operation needs the org:admin scope. ${fix['en-US']}`, `Esta operação exige o escopo org:admin. ${fix['pt-BR']}`),
    details: { requiredScope: 'org:admin' },
  });
}

export function sessionUnauthorized(locale: Locale, reason: 'missing' | 'unknown' = 'missing'): ServiceError {
  return new ServiceError('unauthorized', {
    resolution:
      reason === 'unknown'
        ? tr(
            locale,
            'The session is unknown or signed out; sign in again with a magic link (POST /auth/sign-in/magic-link).',
            'A sessão é desconhecida ou foi encerrada; entre de novo com um link mágico (POST /auth/sign-in/magic-link).',
          )
        : tr(
            locale,
            'This route needs a signed-in session; sign in with a magic link (POST /auth/sign-in/magic-link).',
            'Esta rota exige uma sessão; entre com um link mágico (POST /auth/sign-in/magic-link).',
          ),
  });
}

export function sessionExpired(locale: Locale): ServiceError {
  return new ServiceError('SESSION_EXPIRED', {
    resolution: tr(
      locale,
      'Your session has expired; sign in again with a magic link (POST /auth/sign-in/magic-link).',
      'Sua sessão expirou; entre de novo com um link mágico (POST /auth/sign-in/magic-link).',
    ),
  });
}

/** Why a credential was refused, in English (it also goes into `WWW-Authenticate`), and its pt-BR wording. */
const REFUSALS: Record<string, string> = {
  'malformed token': 'o token está malformado',
  'missing claims': 'faltam claims no token',
  'token expired': 'o token expirou',
  'token verification failed': 'a verificação do token falhou',
  'unexpected token type': 'o tipo do token é inesperado',
  'unknown signing key': 'a chave de assinatura é desconhecida',
  'the grant behind this token was revoked': 'a autorização por trás deste token foi revogada',
  "the token's user no longer exists": 'o usuário do token não existe mais',
  'the Authorization header is not a Bearer token': 'o cabeçalho Authorization não traz um token Bearer',
  'this route needs a signed-in session': 'esta rota exige uma sessão autenticada',
  'a Bearer access token is required': 'é preciso um token de acesso Bearer',
  'this route needs a Bearer access token': 'esta rota exige um token de acesso Bearer',
  'unknown, expired or revoked API key': 'a chave de API é desconhecida, expirou ou foi revogada',
};

/** How to get a Bearer credential that works, for the one that was refused (`null`: none was sent). */
const NEW_CREDENTIAL: Record<BearerCredential | 'none', Localized> = {
  'access-token': l10n(
    'Get a new access token from the authorization server (with your refresh token, or by authorizing again) and send it as Authorization: Bearer <token>.',
    'Obtenha um novo token de acesso pelo servidor de autorização (com o seu refresh token, ou autorizando de novo) e envie-o como Authorization: Bearer <token>.',
  ),
  'api-key': l10n(
    'Create a new API key (api_keys_create, siglata keys create, or the console) and send it as Authorization: Bearer <key>.',
    'Crie uma nova chave de API (api_keys_create, siglata keys create, ou o console) e envie-a como Authorization: Bearer <chave>.',
  ),
  none: l10n(
    'Send an OAuth access token (from the authorization server the resource metadata names) or an organization API key as Authorization: Bearer <token>.',
    'Envie um token de acesso OAuth (do servidor de autorização que os metadados do recurso indicam) ou uma chave de API da organização como Authorization: Bearer <token>.',
  ),
};

/**
 * The resolution of a 401 for `reason`: what is wrong, then how to get a credential that works, for the kind that
 * was refused (`null`: no Bearer credential was sent, or one that is neither kind).
 */
export function refusalResolution(reason: string, refused: BearerCredential | null): Localized {
  const pt = REFUSALS[reason] ?? 'o token foi recusado';
  const fix = NEW_CREDENTIAL[refused ?? 'none'];
  return l10n(`${reason}. ${fix['en-US']}`, `${pt[0]!.toUpperCase()}${pt.slice(1)}. ${fix['pt-BR']}`);
}

export function apiKeyCannotCreateKeys(): ServiceError {
  return new ServiceError('INSUFFICIENT_SCOPE', {
    resolution: l10n(
      'An API key cannot create API keys; create it from a signed-in session or the CLI (siglata keys create).',
      'Uma chave de API não pode criar chaves de API; crie-a a partir de uma sessão autenticada ou da CLI (siglata keys create).',
    ),
  });
}

/** `beyond`: the scopes asked for that the key may not hold; `allowed`: those it may. */
export function apiKeyScopesBeyond(beyond: readonly string[], allowed: readonly string[]): ServiceError {
  return new ServiceError('INSUFFICIENT_SCOPE', {
    resolution: l10n(
      `Scopes ${beyond.join(' ')} are beyond what this key may hold (${allowed.join(' ') || 'none'}: your scopes within the organization's maxScopes).`,
      `Os escopos ${beyond.join(' ')} vão além do que esta chave pode ter (${allowed.join(' ') || 'nenhum'}: os seus escopos dentro do maxScopes da organização).`,
    ),
  });
}

export function apiKeyNotFound(keyId: string): ServiceError {
  return new ServiceError('not_found', {
    resolution: l10n(
      `No API key ${keyId} in this organization; list them with api_keys_list.`,
      `Não há chave de API ${keyId} nesta organização; liste-as com api_keys_list.`,
    ),
  });
}

/** The sign-in e-mail's texts; the link is shown as given. */
export const MAGIC_LINK_MAIL = {
  subject: l10n('Your Siglata sign-in link', 'Seu link de acesso à Siglata'),
  lead: l10n('Open this link to sign in to Siglata:', 'Abra este link para entrar na Siglata:'),
  button: l10n('Sign in', 'Entrar'),
  note: l10n(
    'The link works once and expires in 10 minutes. If you did not ask for it, ignore this e-mail.',
    'O link funciona uma única vez e expira em 10 minutos. Se você não o pediu, ignore este e-mail.',
  ),
};
