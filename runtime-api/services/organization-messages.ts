// What the organization area says, in both languages side by side: the refusals of members, owners, invitations,
// organization creation, MCP access and OAuth grants, the role names, and the invitation e-mail.
import { ServiceError, conflict, l10n, tr, type Locale, type Localized } from '../errors.ts';
import type { Role } from '../identity/scopes.ts';

/** The roles as people read them (e-mails and pages). */
export const ROLE_NAMES: Record<Role, Localized> = {
  member: l10n('member', 'membro'),
  admin: l10n('admin', 'administrador'),
  owner: l10n('owner', 'proprietário'),
};

export function ownerRequired(locale: Locale): ServiceError {
  return new ServiceError('ORGANIZATION_ADMIN_REQUIRED', {
    resolution: tr(
      locale,
      'Only an owner can grant, change or remove the owner role; ask an owner of the organization.',
      'Só um proprietário pode conceder, alterar ou remover o papel de proprietário; peça a um proprietário da organização.',
    ),
  });
}

export function memberNotFound(locale: Locale): ServiceError {
  return new ServiceError('not_found', {
    resolution: tr(
      locale,
      'No member of this organization matches; list them with GET /auth/organization/get.',
      'Nenhum membro desta organização corresponde; liste-os com GET /auth/organization/get.',
    ),
  });
}

export function lastOwner(): ServiceError {
  return conflict(
    l10n(
      "This member is the organization's last owner, and an organization must keep at least one.",
      'Este membro é o último proprietário da organização, e uma organização precisa manter pelo menos um.',
    ),
    l10n('Make another member owner first.', 'Torne outro membro proprietário antes.'),
  );
}

export function invitationNotFound(locale: Locale): ServiceError {
  return new ServiceError('INVITATION_NOT_FOUND', {
    resolution: tr(
      locale,
      'The invitation is unknown, cancelled, expired or already answered; ask for a new one.',
      'O convite é desconhecido, foi cancelado, expirou ou já foi respondido; peça um novo.',
    ),
  });
}

/** The invitation exists but was addressed to another e-mail than the caller's. */
export function notRecipient(locale: Locale): ServiceError {
  return new ServiceError('ORGANIZATION_MEMBERSHIP_REQUIRED', {
    resolution: tr(
      locale,
      'This invitation was sent to another e-mail address; sign in with the invited address.',
      'Este convite foi enviado para outro endereço de e-mail; entre com o endereço convidado.',
    ),
  });
}

export function alreadyMember(): ServiceError {
  return conflict(
    l10n('This address already belongs to a member of the organization.', 'Este endereço já pertence a um membro da organização.'),
    l10n("Change that member's role instead of inviting them.", 'Mude o papel desse membro em vez de convidá-lo.'),
  );
}

export function invitationPending(): ServiceError {
  return conflict(
    l10n('This address already has a pending invitation.', 'Este endereço já tem um convite pendente.'),
    l10n('Cancel it, or send again with "resend": true.', 'Cancele-o ou envie de novo com "resend": true.'),
  );
}

/** The invitation e-mail's texts; `inviter` and `orgName` are shown as given. */
export const INVITATION_MAIL = {
  subject: (orgName: string) => l10n(`You are invited to join ${orgName} on Siglata`, `Você foi convidado para participar de ${orgName} na Siglata`),
  lead: (inviter: string, orgName: string, role: Role) =>
    l10n(
      `${inviter} invited you to join ${orgName} as ${ROLE_NAMES[role]['en-US']}.`,
      `${inviter} convidou você para participar de ${orgName} como ${ROLE_NAMES[role]['pt-BR']}.`,
    ),
  button: l10n('See the invitation', 'Ver o convite'),
  open: l10n('Open this link to accept or decline:', 'Abra este link para aceitar ou recusar:'),
  note: l10n(
    'The invitation expires in 48 hours. If you did not expect it, ignore this e-mail.',
    'O convite expira em 48 horas. Se você não esperava este convite, ignore este e-mail.',
  ),
};

export function organizationLimitReached(perPerson: number, created: number): ServiceError {
  return new ServiceError('organization_limit_reached', {
    resolution: l10n(
      `One person may create at most ${perPerson} organizations, and you have created ${created}. Use one of them, or ask the service's operator to raise the limit.`,
      `Uma pessoa pode criar no máximo ${perPerson} organizações, e você criou ${created}. Use uma delas, ou peça ao operador do serviço que aumente o limite.`,
    ),
    details: { limit: perPerson, created },
  });
}

export function organizationsTooFast(perHour: number, windowSeconds: number, retryAfter: number): ServiceError {
  return new ServiceError('rate_limited', {
    message: l10n('Too many organizations created in the last hour.', 'Organizações demais criadas na última hora.'),
    resolution: l10n(
      `One person may create ${perHour} organizations per hour. Wait ${retryAfter} seconds (Retry-After), then try again.`,
      `Uma pessoa pode criar ${perHour} organizações por hora. Espere ${retryAfter} segundos (Retry-After) e tente de novo.`,
    ),
    details: { limit: perHour, windowSeconds, retryAfterSeconds: retryAfter },
    headers: { 'Retry-After': String(retryAfter) },
  });
}

export function slugTaken(slug: string, cause: unknown): ServiceError {
  return conflict(l10n(`The slug "${slug}" is taken.`, `O slug "${slug}" já está em uso.`), l10n('Choose another slug.', 'Escolha outro slug.'), { cause });
}

/** mcp_access_set with nothing to set. */
export function mcpAccessChangeEmpty(locale: Locale): ServiceError {
  return new ServiceError('invalid_input', {
    resolution: tr(locale, 'Give `state`, `maxScopes` or both.', 'Informe `state`, `maxScopes` ou ambos.'),
  });
}

export function grantNotFound(): ServiceError {
  return new ServiceError('not_found', {
    resolution: l10n('No active grant with this id in the organization.', 'Nenhuma concessão ativa com este id na organização.'),
  });
}
