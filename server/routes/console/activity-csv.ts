// GET /console/activity/executions.csv: the activity view's executions, with its filters, as a CSV download.
import { Readable } from 'node:stream';
import { sessionExpired, sessionUnauthorized } from '../../../runtime-api/index.ts';
import { defineRoute, type RouteDef } from '../../http/route.ts';
import { invokeDeps, type AppDeps } from '../../deps.ts';
import { pageLocale } from '../../pages/layout.ts';
import { consoleSession } from '../../console/session.ts';
import { readActivityFilters } from '../../console/activity-filters.ts';
import { executionsCsv } from '../../console/activity-csv.ts';
import { ActivityQuery } from './page-queries.ts';
import { SESSION_ONLY } from './form.ts';

export const consoleActivityCsv = (deps: AppDeps): RouteDef =>
  defineRoute({
    method: 'GET',
    path: '/console/activity/executions.csv',
    operationId: 'consoleActivityCsv',
    summary: "Console: the organization's executions as CSV, with the activity page's filters",
    description: `${SESSION_ONLY.replace(', and a browser without a session is sent to the sign-in page', '')} Owners and admins (else 403). Every matching execution, newest first, one per line (RFC 4180, UTF-8, a header line); cells that would start a spreadsheet formula are prefixed with a quote.`,
    tags: ['console'],
    auth: 'session',
    authCheck: 'handler',
    query: ActivityQuery,
    responses: {
      200: {
        description: 'The CSV.',
        contentType: 'text/csv',
        headers: { 'Content-Disposition': 'attachment; filename="executions-<date>.csv"' },
      },
    },
    errors: ['unauthorized', 'SESSION_EXPIRED', 'ORGANIZATION_ADMIN_REQUIRED', 'ORGANIZATION_MEMBERSHIP_REQUIRED', 'invalid_input'],
    async handle(ctx) {
      const locale = pageLocale(ctx);
      const session = consoleSession(ctx);
      if (!session) throw ctx.state.sessionProblem === 'expired' ? sessionExpired(locale) : sessionUnauthorized(locale);
      const caller = { ...session.caller, locale };
      const { input } = readActivityFilters(ctx.query);
      const lines = executionsCsv(input, caller, invokeDeps(deps));
      // The first page is read before answering, so a refusal (a member, no organization) is an error, not a CSV.
      const first = await lines.next();
      const second = await lines.next();
      ctx.type = 'text/csv; charset=utf-8';
      ctx.set('Content-Disposition', `attachment; filename="executions-${deps.clock.now().toISOString().slice(0, 10)}.csv"`);
      ctx.body = Readable.from(
        (async function* () {
          if (!first.done) yield first.value;
          if (!second.done) yield second.value;
          yield* lines;
        })(),
      );
    },
  });
