// What identity says, in both languages side by side: its refusals of a caller (the credential, the session, the
// membership, the role, the organization's MCP access, API keys) and the sign-in e-mail. The HTTP face adds only its
// headers.
import { ServiceError, l10n, tr, type Locale, type Localized } from '../errors.ts';

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

export function tokenMembershipLost(): ServiceError {
  return new ServiceError('ORGANIZATION_MEMBERSHIP_REQUIRED', {
    resolution: l10n(
      "The token's user is no longer a member of its organization; sign in again and pick an organization you belong to.",
      'O usuário do token não é mais membro da organização dele; entre de novo e escolha uma organização da qual você faz parte.',
    ),
  });
}

export function mcpAccessRevoked(): ServiceError {
  return new ServiceError('MCP_ACCESS_REVOKED', {
    resolution: l10n(
      "The organization's owners revoked access for access tokens; an owner or admin can restore it with mcp_access_set (POST /auth/organization/set-mcp-access) from a signed-in session.",
      'Os proprietários da organização revogaram o acesso por tokens; um proprietário ou administrador pode restaurá-lo com mcp_access_set (POST /auth/organization/set-mcp-access) a partir de uma sessão autenticada.',
    ),
  });
}

export function adminScopeRequired(locale: Locale): ServiceError {
  return new ServiceError('INSUFFICIENT_SCOPE', {
    resolution: tr(
      locale,
      'This operation needs the org:admin scope; request a token that carries it.',
      'Esta operação exige o escopo org:admin; peça um token que o inclua.',
    ),
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

/** The resolution of a 401 for `reason`: what is wrong, then how to get a credential that works. */
export function refusalResolution(reason: string): Localized {
  const pt = REFUSALS[reason] ?? 'o token foi recusado';
  return l10n(
    `${reason}. Obtain a new access token through the authorization server and send it as Authorization: Bearer <token>.`,
    `${pt[0]!.toUpperCase()}${pt.slice(1)}. Obtenha um novo token de acesso pelo servidor de autorização e envie-o como Authorization: Bearer <token>.`,
  );
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
