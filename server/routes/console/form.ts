// What the console's routes share: the form reader, how a refusal reads on the page, and the query every page takes.
import type Koa from 'koa';
import * as v from 'valibot';
import type { Locale, Localized, ServiceError } from '../../../runtime-api/index.ts';
import { isForm, readFormText } from '../../http/body.ts';
import { formTypeRequired } from '../../console/messages.ts';
import { FIELD_LABELS } from '../../pages/console/texts.ts';

const FORM_MAX_BYTES = 16 * 1024;
export const PageQuery = v.object({ lang: v.optional(v.string()), done: v.optional(v.string()) });
export const SESSION_ONLY = 'Session cookie only: a Bearer token is refused with 401, and a browser without a session is sent to the sign-in page.';

export async function readForm(ctx: Koa.Context): Promise<URLSearchParams> {
  if (!isForm(ctx)) throw formTypeRequired(ctx.state.locale);
  return new URLSearchParams(await readFormText(ctx, FORM_MAX_BYTES));
}

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
