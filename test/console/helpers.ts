// Console requests as a browser on the app's own origin sends them: the session cookie, Origin, and form bodies
// carrying the page's CSRF token.
import type { SessionJar } from '../helpers/session.ts';
import { http, type JsonResponse } from '../helpers/http.ts';

export function csrfOf(html: string): string {
  const m = /name="csrf" value="([^"]+)"/.exec(html);
  if (!m) throw new Error('no csrf field in the page');
  return m[1];
}

export async function consolePage(jar: SessionJar, path = '/console', lang = 'en-US'): Promise<JsonResponse<string>> {
  return jar.get(`${path}${path.includes('?') ? '&' : '?'}lang=${lang}`);
}

/**
 * Post a console form; `fields.csrf` defaults to the token of the console home page. A header given as '' is left
 * out (e.g. `{origin: ''}` for a request without Origin).
 */
export async function consoleForm(
  jar: SessionJar,
  action: string,
  fields: Record<string, string>,
  options: { headers?: Record<string, string>; lang?: string } = {},
): Promise<JsonResponse<string>> {
  const csrf = fields.csrf ?? csrfOf((await consolePage(jar)).text);
  const headers: Record<string, string> = { ...jar.headers(), 'content-type': 'application/x-www-form-urlencoded', ...options.headers };
  for (const [k, value] of Object.entries(headers)) if (value === '') delete headers[k];
  return http(`${jar.headers().origin}/console/actions/${action}?lang=${options.lang ?? 'en-US'}`, {
    method: 'POST',
    body: new URLSearchParams({ ...fields, csrf }).toString(),
    headers,
  });
}

/** A page's HTML without the column names its table cells carry for phones (data-label), to match rows simply. */
export function withoutLabels(html: string): string {
  return html.replace(/ data-label="[^"]*"/g, '').replace(/ class="num"/g, '');
}
