// /console: the signed-in web console (server-rendered pages, plain form posts). Thin adapters: pages read through
// the bindings (server/console/views.ts), forms run the actions of server/console/actions.ts. Session cookie only.
import type Koa from 'koa';
import * as v from 'valibot';
import { type ServiceError, type Locale, endSession } from '../../runtime-api/index.ts';
import type { AppDeps } from '../deps.ts';
import { defineRoute, type RouteDef } from '../http/route.ts';
import { isForm, readFormText } from '../http/body.ts';
import { validateIn } from '../i18n/validation.ts';
import { toServiceError } from '../middleware/error-handler.ts';
import { clearSessionCookie } from '../auth/session.ts';
import { pageLocale } from '../pages/layout.ts';
import { CONSOLE_HOME, CONSOLE_PATHS, type ConsolePageName } from '../pages/console/layout.ts';
import { CONSOLE_CSS, CONSOLE_JS } from '../pages/console/assets.ts';
import { CONSOLE_ACTIONS, type ConsoleAction } from '../console/actions.ts';
import { consoleSession, requireConsolePost } from '../console/session.ts';
import { showConsolePage } from '../console/views.ts';
import { formTypeRequired } from '../console/messages.ts';
import { PAGE_TITLES } from '../pages/console/texts.ts';
import { sessionOf } from '../http/request-state.ts';

const FORM_MAX_BYTES = 16 * 1024;
/** Statuses at which a refused form shows its page again (invalid input, role, unknown, conflict, expired). */
const REFUSALS = [400, 403, 404, 409, 410] as const;
const PageQuery = v.object({ lang: v.optional(v.string()), done: v.optional(v.string()) });
const SESSION_ONLY = 'Session cookie only: a Bearer token is refused with 401, and a browser without a session is sent to the sign-in page.';

async function readForm(ctx: Koa.Context): Promise<URLSearchParams> {
  if (!isForm(ctx)) throw formTypeRequired(ctx.state.locale);
  return new URLSearchParams(await readFormText(ctx, FORM_MAX_BYTES));
}

/** A refusal shown on the page: the error's localized message and resolution. */
function errorText(error: ServiceError, locale: Locale): string {
  const body = error.toBody(locale) as { message?: string; error?: { message: string; resolution?: string } };
  // The typed shape carries no resolution on the wire; a person reading the page still deserves the reason.
  return body.error ? `${body.error.message} ${body.error.resolution ?? ''}`.trim() : `${body.message} ${error.resolutionFor(locale) ?? ''}`.trim();
}

export function consoleRoutes(deps: AppDeps): RouteDef[] {
  const page = (name: ConsolePageName): RouteDef =>
    defineRoute({
      method: 'GET',
      path: CONSOLE_PATHS[name],
      operationId: `console${name[0].toUpperCase()}${name.slice(1)}Page`,
      summary: `Console page: ${PAGE_TITLES[name]['en-US'].toLowerCase()}`,
      description: `${SESSION_ONLY} Localized by \`lang\` (else Accept-Language).`,
      tags: ['console'],
      auth: 'none',
      query: PageQuery,
      responses: {
        200: { description: 'The page.', contentType: 'text/html' },
        303: { description: 'Not signed in: to the sign-in page, which brings you back.', headers: { Location: 'The sign-in page.' } },
      },
      errors: ['unauthorized'],
      async handle(ctx) {
        const locale = pageLocale(ctx);
        const session = consoleSession(ctx);
        if (!session) {
          ctx.set('Cache-Control', 'no-store');
          ctx.status = 303;
          ctx.redirect(`/auth/sign-in?lang=${locale}&returnTo=${encodeURIComponent(CONSOLE_PATHS[name])}`);
          return;
        }
        const done = CONSOLE_ACTIONS.find((a) => a.name === ctx.query.done && a.page === name);
        await showConsolePage(deps, ctx, name, { ...session, caller: { ...session.caller, locale } }, locale, done ? { notice: done.notice[locale] } : {});
      },
    });

  const action = (a: ConsoleAction): RouteDef =>
    defineRoute({
      method: 'POST',
      path: `/console/actions/${a.name}`,
      operationId: `console${a.name.replace(/(^|-)(\w)/g, (_m, _d, c: string) => c.toUpperCase())}`,
      summary: `Console form: ${a.summary.toLowerCase()}`,
      description: `${SESSION_ONLY} Needs the page's \`csrf\` field and an allowed Origin (else 403 ORIGIN_NOT_ALLOWED). On success 303 back to the page with a notice; a refused action shows the page again with the reason and the error's status.`,
      tags: ['console'],
      auth: 'none',
      query: PageQuery,
      body: { contentType: 'application/x-www-form-urlencoded', schema: v.object({ csrf: v.string(), ...a.fields.entries }) },
      responses: {
        200: { description: 'Done, with something to show once (a new API key): the page itself.', contentType: 'text/html' },
        303: { description: 'Done; back to the page.', headers: { Location: 'The console page.' } },
        ...Object.fromEntries(
          REFUSALS.map((status) => [
            status,
            { description: 'Refused by the binding: the console page again, with the localized reason.', contentType: 'text/html' },
          ]),
        ),
      },
      errors: ['unauthorized', 'SESSION_EXPIRED', 'ORIGIN_NOT_ALLOWED', 'unsupported_media_type', 'payload_too_large'],
      async handle(ctx) {
        const locale = pageLocale(ctx);
        const form = await readForm(ctx);
        const session = requireConsolePost(deps, ctx, form.get('csrf'));
        const s = { ...session, caller: { ...session.caller, locale } };
        let shown;
        try {
          const input = validateIn(locale, a.fields, Object.fromEntries(form)) as Record<string, string>;
          shown = await a.run({ deps, caller: s.caller, sessionId: sessionOf(ctx).id, form }, input);
        } catch (err) {
          const error = toServiceError(err);
          if (error.status >= 500) throw err;
          await showConsolePage(deps, ctx, a.page, s, locale, { error: errorText(error, locale), status: error.status });
          return;
        }
        if (shown) {
          await showConsolePage(deps, ctx, a.page, s, locale, { notice: a.notice[locale], newKey: shown.newKey });
          return;
        }
        ctx.status = 303;
        ctx.redirect(`${CONSOLE_PATHS[a.page]}?lang=${locale}&done=${a.name}`);
      },
    });

  const asset = (file: string, type: string, text: string): RouteDef =>
    defineRoute({
      method: 'GET',
      path: `/console/assets/${file}`,
      operationId: `consoleAsset${file.endsWith('.css') ? 'Css' : 'Js'}`,
      summary: `The console's ${file.endsWith('.css') ? 'stylesheet' : 'script'}`,
      tags: ['console'],
      auth: 'none',
      responses: { 200: { description: file, contentType: type } },
      errors: [],
      async handle(ctx) {
        ctx.type = `${type}; charset=utf-8`;
        ctx.set('Cache-Control', 'public, max-age=300');
        ctx.set('X-Content-Type-Options', 'nosniff');
        ctx.body = text;
      },
    });

  return [
    page('home'),
    page('members'),
    page('files'),
    page('agents'),
    ...CONSOLE_ACTIONS.map(action),
    defineRoute({
      method: 'POST',
      path: '/console/actions/sign-out',
      operationId: 'consoleSignOut',
      summary: 'Console form: sign out',
      description: `${SESSION_ONLY} Needs the page's \`csrf\` field and an allowed Origin. Ends the session and goes to the sign-in page.`,
      tags: ['console'],
      auth: 'none',
      query: PageQuery,
      body: { contentType: 'application/x-www-form-urlencoded', schema: v.object({ csrf: v.string() }) },
      responses: { 303: { description: 'Signed out.', headers: { Location: 'The sign-in page.', 'Set-Cookie': 'The expired session cookie.' } } },
      errors: ['unauthorized', 'SESSION_EXPIRED', 'ORIGIN_NOT_ALLOWED', 'unsupported_media_type', 'payload_too_large'],
      async handle(ctx) {
        const locale = pageLocale(ctx);
        const session = requireConsolePost(deps, ctx, (await readForm(ctx)).get('csrf'));
        await endSession(deps.sql, session.token);
        clearSessionCookie(ctx, deps.config);
        ctx.status = 303;
        ctx.redirect(`/auth/sign-in?lang=${locale}&returnTo=${encodeURIComponent(CONSOLE_HOME)}`);
      },
    }),
    asset('console.css', 'text/css', CONSOLE_CSS),
    asset('console.js', 'text/javascript', CONSOLE_JS),
  ];
}
