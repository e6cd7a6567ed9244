// POST /console/actions/<action>: a console form, run as a binding call of the signed-in user; a refusal shows the
// page again with the reason and the form as it was typed (console.js puts the page's own address back in the
// location bar, so a reload asks for the page, not for the form again).
import { defineRoute, type RouteDef } from '../../http/route.ts';
import type { AppDeps } from '../../deps.ts';
import * as v from 'valibot';
import { validateIn } from '../../i18n/validation.ts';
import { toServiceError } from '../../middleware/error-handler.ts';
import { pageLocale } from '../../pages/layout.ts';
import { pageUrl } from '../../pages/console/layout.ts';
import type { ConsoleAction } from '../../console/actions.ts';
import { requireConsolePost } from '../../console/session.ts';
import { showConsolePage } from '../../console/views.ts';
import { sessionOf } from '../../http/request-state.ts';
import { PageQuery, SESSION_ONLY, errorText, forPeople, readForm } from './form.ts';

/** Statuses at which a refused form shows its page again (invalid input, role, unknown, conflict, expired). */
const REFUSALS = [400, 403, 404, 409, 410] as const;

export const consoleAction = (deps: AppDeps, a: ConsoleAction): RouteDef =>
  defineRoute({
    method: 'POST',
    path: `/console/actions/${a.name}`,
    operationId: `console${a.name.replace(/(^|-)(\w)/g, (_m, _d, c: string) => c.toUpperCase())}`,
    summary: `Console form: ${a.summary.toLowerCase()}`,
    description: `${SESSION_ONLY} Needs the page's \`csrf\` field and an allowed Origin (else 403 ORIGIN_NOT_ALLOWED). On success 303 back to the page with a notice; a refused action shows the page again with the reason, the fields as typed and the error's status.`,
    tags: ['console'],
    auth: 'session',
    authCheck: 'handler',
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
      const query = a.pageQuery?.(form) ?? {};
      const page = a.pageFor?.(form) ?? a.page;
      const context = { deps, caller: s.caller, sessionId: sessionOf(ctx).id, form };
      let shown;
      let input: Record<string, string> | undefined;
      try {
        input = validateIn(locale, a.fields, Object.fromEntries(form)) as Record<string, string>;
        shown = await a.run(context, input);
      } catch (err) {
        const error = toServiceError(err);
        if (error.status >= 500) throw err;
        const own = await a.refusal?.({ ...context, csrf: s.csrf }, form, error);
        const choice = input ? a.refused?.(error, input) : undefined;
        const typed = new URLSearchParams([...form].filter(([k]) => k !== 'csrf'));
        await showConsolePage(
          deps,
          ctx,
          page,
          s,
          locale,
          {
            error: own ? forPeople(own.message, locale, a.labels) : errorText(error, locale, a.labels),
            ...(own?.action ? { errorAction: own.action } : {}),
            status: error.status,
            prefill: { action: a.name, values: typed },
            ...(choice ? { choice } : {}),
          },
          query,
        );
        return;
      }
      if (shown) {
        await showConsolePage(deps, ctx, page, s, locale, { notice: a.notice[locale], newKey: shown.newKey }, query);
        return;
      }
      ctx.status = 303;
      ctx.redirect(pageUrl(page, locale, { ...query, done: a.name }));
    },
  });
