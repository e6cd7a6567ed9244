// POST /console/api/<binding>: the few bindings the console's upload script calls (reserve, status, complete,
// abort), as the signed-in user. JSON in (the binding's input) and out (its output or the service's error shapes).
// The session cookie only, from our own Origin, with the page's CSRF token in `X-CSRF-Token`: a cross-site page can
// send none of these. The parts themselves go to the ordinary part route (PUT /v1/mcp/uploads/…/parts/…), which
// takes the session too.
import { type Binding, findBinding, invoke, sessionExpired, sessionUnauthorized } from '../../../runtime-api/index.ts';
import { defineRoute, type RouteDef } from '../../http/route.ts';
import { readJson } from '../../http/body.ts';
import { invokeDeps, type AppDeps } from '../../deps.ts';
import { pageLocale } from '../../pages/layout.ts';
import { checkConsoleRequest, consoleSession } from '../../console/session.ts';

/** What the upload script may call: one binding per upload step, nothing else. */
export const CONSOLE_API_BINDINGS = ['upload_begin', 'upload_status', 'upload_complete', 'upload_abort'] as const;

export const consoleApi = (deps: AppDeps, name: (typeof CONSOLE_API_BINDINGS)[number]): RouteDef => {
  const binding: Binding = findBinding(name)!;
  return defineRoute({
    method: 'POST',
    path: `/console/api/${name}`,
    operationId: `consoleApi${name.replace(/(^|_)(\w)/g, (_m, _d, c: string) => c.toUpperCase())}`,
    summary: `Console upload script: the \`${name}\` binding as the signed-in user`,
    description:
      "Session cookie only (a Bearer token is refused with 401), an allowed Origin and the page's CSRF token in `X-CSRF-Token` (else 403 ORIGIN_NOT_ALLOWED). The body is the binding's input, the answer its output.",
    tags: ['console'],
    auth: 'session',
    authCheck: 'handler',
    body: { contentType: 'application/json', schema: binding.input },
    responses: { 200: { description: `What \`${name}\` answers.`, schema: binding.output } },
    errors: [
      'unauthorized',
      'SESSION_EXPIRED',
      'ORIGIN_NOT_ALLOWED',
      'unsupported_media_type',
      'payload_too_large',
      'invalid_input',
      'invalid_request',
      'INSUFFICIENT_SCOPE',
      'ORGANIZATION_MEMBERSHIP_REQUIRED',
      'not_found',
      'quota_exceeded',
      'upload_expired',
      'upload_incomplete',
      'conflict',
    ],
    async handle(ctx) {
      const locale = pageLocale(ctx);
      const session = consoleSession(ctx);
      if (!session) throw ctx.state.sessionProblem === 'expired' ? sessionExpired(locale) : sessionUnauthorized(locale);
      checkConsoleRequest(deps, ctx, session, ctx.get('x-csrf-token'));
      const input = await readJson(ctx, 64 * 1024);
      ctx.body = await invoke(binding, input, { ...session.caller, locale }, invokeDeps(deps));
    },
  });
};
