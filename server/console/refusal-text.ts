// How a refusal reads on a console page: the error's message, then its resolution unless the message already says
// it, with API field markers (`email`) turned into the labels the form shows.
import type { Locale, Localized, ServiceError } from '../../runtime-api/index.ts';
import { FIELD_LABELS } from '../pages/console/texts.ts';

/** API wording made a person's: a field marker (`email`) becomes the field's label on the page. */
export function forPeople(text: string, locale: Locale, labels: Record<string, Localized> = {}): string {
  return text.replace(/`([A-Za-z][\w.]*)`(?=:)/g, (_m, field: string) => (labels[field] ?? FIELD_LABELS[field])?.[locale] ?? field);
}

/**
 * A refusal shown on the page: the error's localized message, then its resolution unless the message already says it
 * (a 409's message carries its fix too), in a person's words.
 */
export function errorText(error: ServiceError, locale: Locale, labels?: Record<string, Localized>): string {
  const body = error.toBody(locale) as { message?: string; error?: { message: string; resolution?: string } };
  const message = body.error?.message ?? body.message ?? '';
  // The typed shape carries no resolution on the wire; a person reading the page still deserves the reason.
  const resolution = (body.error ? body.error.resolution : error.resolutionFor(locale)) ?? '';
  const text = resolution && !message.includes(resolution) ? `${message} ${resolution}` : message;
  return forPeople(text.trim(), locale, labels);
}

/** A refusal's reason without its fix (a 409's message carries both), for where the page offers the fix itself. */
export function reasonOnly(error: ServiceError, locale: Locale): string {
  const body = error.toBody(locale) as { message?: string; error?: { message: string } };
  const message = body.error?.message ?? body.message ?? '';
  const fix = error.resolutionFor(locale);
  return fix && message.endsWith(fix) ? message.slice(0, -fix.length).trim() : message;
}
