// What the console's routes share: the form reader, how a refusal reads on the page, and the query every page takes.
import type Koa from 'koa';
import * as v from 'valibot';
import { isForm, readFormText } from '../../http/body.ts';
import { formTypeRequired } from '../../console/messages.ts';
export { errorText, forPeople } from '../../console/refusal-text.ts';

const FORM_MAX_BYTES = 16 * 1024;
export const PageQuery = v.object({ lang: v.optional(v.string()), done: v.optional(v.string()) });
export const SESSION_ONLY = 'Session cookie only: a Bearer token is refused with 401, and a browser without a session is sent to the sign-in page.';

export async function readForm(ctx: Koa.Context): Promise<URLSearchParams> {
  if (!isForm(ctx)) throw formTypeRequired(ctx.state.locale);
  return new URLSearchParams(await readFormText(ctx, FORM_MAX_BYTES));
}
