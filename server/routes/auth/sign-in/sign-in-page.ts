// GET /auth/sign-in: the page that asks for a magic link, coming back to a same-site `returnTo` afterwards.
import * as v from 'valibot';
import { sameSitePath } from '../../../../runtime-api/index.ts';
import type { AppDeps } from '../../../deps.ts';
import { defineRoute, type RouteDef } from '../../../http/route.ts';
import { signInPage } from '../../../pages/sign-in.ts';
import { CONSOLE_HOME } from '../../../pages/console/layout.ts';

const SignInPageQuery = v.object({ returnTo: v.optional(v.string()), lang: v.optional(v.string()) });

export function signInPageRoute(deps: AppDeps): RouteDef {
  return defineRoute({
    method: 'GET',
    path: '/auth/sign-in',
    operationId: 'signInPage',
    summary: 'Sign-in page (asks for a magic link)',
    description: '`returnTo` is a same-site path to come back to after signing in (anything else is ignored). Localized by `lang`.',
    tags: ['session'],
    auth: 'none',
    query: SignInPageQuery,
    responses: { 200: { description: 'The sign-in page.', contentType: 'text/html' } },
    errors: [],
    async handle(ctx) {
      const query = v.safeParse(SignInPageQuery, ctx.query);
      const returnTo = query.success && query.output.returnTo ? sameSitePath(query.output.returnTo, deps.config.publicBaseUrl) : null;
      signInPage(ctx, returnTo ?? CONSOLE_HOME);
    },
  });
}
