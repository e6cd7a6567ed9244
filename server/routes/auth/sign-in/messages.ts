// What the sign-in endpoints say when they refuse a request, in both languages side by side: too many links asked
// for, a return path on another site, a link that cannot be used, and a landing-page post in another type. They name
// the endpoints and their fields, so they live beside them; identity's own refusals are runtime-api's.
import { ServiceError, tr, type Locale } from '../../../../runtime-api/index.ts';

export function tooManySignInLinks(locale: Locale, seconds: number): ServiceError {
  return new ServiceError('rate_limited', {
    resolution: tr(
      locale,
      `Too many sign-in links requested; wait ${seconds} s and try again.`,
      `Foram pedidos links de acesso demais; espere ${seconds} s e tente de novo.`,
    ),
    headers: { 'Retry-After': String(seconds) },
  });
}

export function callbackNotThisSite(locale: Locale): ServiceError {
  return new ServiceError('invalid_input', {
    resolution: tr(
      locale,
      '`callbackURL`: must be a path on this site (e.g. /app), never another site.',
      '`callbackURL`: precisa ser um caminho deste site (ex.: /app), nunca outro site.',
    ),
  });
}

export function signInLinkUnusable(locale: Locale): ServiceError {
  return new ServiceError('unauthorized', {
    resolution: tr(
      locale,
      'The sign-in link is invalid, expired or already used; request a new one (POST /auth/sign-in/magic-link).',
      'O link de acesso é inválido, expirou ou já foi usado; peça um novo (POST /auth/sign-in/magic-link).',
    ),
  });
}

export function verifyBodyType(locale: Locale): ServiceError {
  return new ServiceError('unsupported_media_type', {
    resolution: tr(
      locale,
      'Send the token as application/x-www-form-urlencoded or application/json.',
      'Envie o token como application/x-www-form-urlencoded ou application/json.',
    ),
  });
}
