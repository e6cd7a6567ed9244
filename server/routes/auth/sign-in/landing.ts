// GET /auth/magic-link: the page the mailed link opens. It consumes nothing (a mail scanner fetching the link must
// not use it up); its button posts the token to /auth/magic-link/verify.
import * as v from 'valibot';
import { MAGIC_TOKEN_MAX_LENGTH } from '../../../../runtime-api/index.ts';
import { defineRoute, type RouteDef } from '../../../http/route.ts';
import { magicLinkLandingPage } from '../../../pages/magic-link.ts';

const LandingQuery = v.object({ token: v.optional(v.string()), lang: v.optional(v.string()) });

export function landingRoute(): RouteDef {
  return defineRoute({
    method: 'GET',
    path: '/auth/magic-link',
    operationId: 'magicLinkLanding',
    summary: 'Landing page of the mailed sign-in link (consumes nothing)',
    description:
      "Opening the link, or a mail scanner fetching it, does not use the token; the page's button posts it to /auth/magic-link/verify. Localized by `lang`.",
    tags: ['session'],
    auth: 'none',
    query: LandingQuery,
    responses: {
      200: { description: 'The landing page.', contentType: 'text/html' },
      400: { description: 'The link is incomplete.', contentType: 'text/html' },
    },
    errors: [],
    async handle(ctx) {
      const query = v.safeParse(LandingQuery, ctx.query);
      const token = query.success ? (query.output.token ?? '') : '';
      magicLinkLandingPage(ctx, token.length <= MAGIC_TOKEN_MAX_LENGTH ? token : '');
    },
  });
}
