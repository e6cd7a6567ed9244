// GET /: the front page for people (server/pages/front.ts); `q` asks the public documentation, as POST /ask does.
import * as v from 'valibot';
import { defineRoute, type RouteDef } from '../http/route.ts';
import type { AppDeps } from '../deps.ts';
import { pageLocale } from '../pages/layout.ts';
import { renderFrontPage, type FrontAnswer } from '../pages/front.ts';
import { langOf } from '../ask/text.ts';

const FrontQuery = v.object({ lang: v.optional(v.string()), q: v.optional(v.string()) });
const MAX_QUESTION = 1000;
const ANSWERS = 5;

export function frontRoutes(deps: AppDeps): RouteDef[] {
  return [
    defineRoute({
      method: 'GET',
      path: '/',
      operationId: 'frontPage',
      summary: 'The front page for people: what the service is, sign in, the console, the documentation',
      description:
        'HTML, localized by `lang` (else Accept-Language). `q` asks the public documentation (the index POST /ask answers from) and lists the pages that answer.',
      tags: ['core'],
      auth: 'none',
      query: FrontQuery,
      responses: { 200: { description: 'The page.', contentType: 'text/html' } },
      errors: [],
      async handle(ctx) {
        const locale = pageLocale(ctx);
        const question = typeof ctx.query.q === 'string' ? ctx.query.q.trim().slice(0, MAX_QUESTION) : '';
        let answer: FrontAnswer | null = null;
        if (question) {
          const index = deps.askIndex;
          answer = {
            question,
            hits:
              index && index.size > 0
                ? index
                    .search({ text: question, maxResults: ANSWERS, lang: langOf(locale) })
                    .hits.map((h) => ({ name: h.page.name, url: h.page.url, description: h.page.description }))
                : null,
          };
        }
        const caller = ctx.state.caller;
        renderFrontPage(ctx, {
          locale,
          email: caller?.kind === 'session' ? caller.email : null,
          baseUrl: deps.config.publicBaseUrl,
          answer,
        });
      },
    }),
  ];
}
