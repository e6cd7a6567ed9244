// POST /console/actions/sign-out: ends the session and goes to the sign-in page.
import * as v from 'valibot';
import { endSession } from '../../../runtime-api/index.ts';
import type { AppDeps } from '../../deps.ts';
import { defineRoute, type RouteDef } from '../../http/route.ts';
import { clearSessionCookie } from '../../auth/session.ts';
import { pageLocale } from '../../pages/layout.ts';
import { CONSOLE_HOME } from '../../pages/console/layout.ts';
import { requireConsolePost } from '../../console/session.ts';
import { PageQuery, SESSION_ONLY, readForm } from './form.ts';

export const consoleSignOut = (deps: AppDeps): RouteDef =>
  defineRoute({
    method: 'POST',
    path: '/console/actions/sign-out',
    operationId: 'consoleSignOut',
    summary: 'Console form: sign out',
    description: `${SESSION_ONLY} Needs the page's \`csrf\` field and an allowed Origin. Ends the session and goes to the sign-in page.`,
    tags: ['console'],
    auth: 'session',
    authCheck: 'handler',
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
  });
