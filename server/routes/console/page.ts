// GET /console/<page>: a console page for the signed-in browser, or the way to the sign-in page.
import { defineRoute, type RouteDef } from '../../http/route.ts';
import type { AppDeps } from '../../deps.ts';
import { pageLocale } from '../../pages/layout.ts';
import { CONSOLE_PATHS, type ConsolePageName } from '../../pages/console/layout.ts';
import { PAGE_TITLES } from '../../pages/console/texts.ts';
import { CONSOLE_ACTIONS } from '../../console/actions.ts';
import { consoleSession } from '../../console/session.ts';
import { showConsolePage } from '../../console/views.ts';
import { SESSION_ONLY } from './form.ts';
import { PAGE_QUERIES } from './page-queries.ts';

export const consolePage = (deps: AppDeps, name: ConsolePageName): RouteDef =>
  defineRoute({
    method: 'GET',
    path: CONSOLE_PATHS[name],
    operationId: `console${name[0].toUpperCase()}${name.slice(1)}Page`,
    summary: `Console page: ${PAGE_TITLES[name]['en-US'].toLowerCase()}`,
    description: `${SESSION_ONLY} Localized by \`lang\` (else Accept-Language).`,
    tags: ['console'],
    auth: 'session',
    authCheck: 'handler',
    query: PAGE_QUERIES[name],
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
        // Back to this very view after signing in (a link to a file or a folder survives the detour); `lang` aside.
        const query = new URLSearchParams(ctx.querystring);
        query.delete('lang');
        const back = query.size ? `${CONSOLE_PATHS[name]}?${query}` : CONSOLE_PATHS[name];
        ctx.redirect(`/auth/sign-in?lang=${locale}&returnTo=${encodeURIComponent(back)}`);
        return;
      }
      const done = CONSOLE_ACTIONS.find((a) => a.name === ctx.query.done);
      await showConsolePage(deps, ctx, name, { ...session, caller: { ...session.caller, locale } }, locale, done ? { notice: done.notice[locale] } : {});
    },
  });
