// What the OAuth server tells the person at the consent form when it refuses the form, in both languages side by
// side (shown on the error page). What it tells client software stays in English: error_description is for
// developers (RFC 6749 section 4.1.2.1), not for the person.
import { l10n } from '../../runtime-api/index.ts';

export const CONSENT_REFUSALS = {
  notThisSite: l10n('The consent form must be sent from this site.', 'O formulário de consentimento precisa ser enviado deste site.'),
  notSignedIn: l10n(
    'You are not signed in (or your session ended); go back to the application and start again.',
    'Você não está conectado (ou sua sessão terminou); volte ao aplicativo e comece de novo.',
  ),
  noTicket: l10n('The consent form is missing its security token.', 'Falta o token de segurança do formulário de consentimento.'),
  badTicket: l10n(
    'The consent form is invalid or expired, or belongs to another session; go back to the application and start again.',
    'O formulário de consentimento é inválido, expirou ou pertence a outra sessão; volte ao aplicativo e comece de novo.',
  ),
  notMember: l10n('Choose an organization you belong to.', 'Escolha uma organização da qual você faz parte.'),
  clientGone: l10n(
    'This application is no longer registered; go back to it and start again.',
    'Este aplicativo não está mais registrado; volte a ele e comece de novo.',
  ),
  badDecision: l10n(
    'The consent form was sent without a decision; go back and choose Allow or Deny.',
    'O formulário de consentimento foi enviado sem uma decisão; volte e escolha Permitir ou Negar.',
  ),
};
