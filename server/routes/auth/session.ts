// The current session (GET /auth/get-session) and sign-out (POST /auth/sign-out: idempotent, clears the cookie).
import * as v from 'valibot';
import { endSession, type ResolvedSessionRow } from '../../../runtime-api/index.ts';
import type { AppDeps } from '../../deps.ts';
import { defineRoute, type RouteDef } from '../../http/route.ts';
import { clearSessionCookie, readSessionCookie } from '../../auth/session.ts';
import { UserSchema } from '../api.ts';
import { sessionOf } from '../../http/request-state.ts';

export const SessionSchema = v.object({
  session: v.object({
    id: v.string(),
    userId: v.string(),
    createdAt: v.string(),
    expiresAt: v.string(),
    /** The organization cookie-authenticated calls (e.g. /app/v1) act on; null without any membership. */
    activeOrganizationId: v.nullable(v.string()),
  }),
  user: UserSchema,
});

export function sessionBody(row: ResolvedSessionRow): v.InferOutput<typeof SessionSchema> {
  return {
    session: {
      id: row.id,
      userId: row.userId,
      createdAt: row.createdAt.toISOString(),
      expiresAt: row.expiresAt.toISOString(),
      activeOrganizationId: row.activeOrgId,
    },
    user: { id: row.userId, email: row.email, name: row.name, image: row.image },
  };
}

export function sessionRoutes(deps: AppDeps): RouteDef[] {
  return [
    defineRoute({
      method: 'GET',
      path: '/auth/get-session',
      operationId: 'getSession',
      summary: 'The current session and its user',
      description: 'Sessions last 7 days and slide forward with use. An expired session is 401 `SESSION_EXPIRED`; an unknown or signed-out one plain 401.',
      tags: ['session'],
      auth: 'session',
      responses: { 200: { description: 'The session, its active organization and the user.', schema: SessionSchema } },
      errors: ['unauthorized', 'SESSION_EXPIRED'],
      async handle(ctx) {
        ctx.set('Cache-Control', 'no-store');
        ctx.body = sessionBody(sessionOf(ctx).row);
      },
    }),
    defineRoute({
      method: 'POST',
      path: '/auth/sign-out',
      operationId: 'signOut',
      summary: 'End the session and clear the session cookie',
      description: 'Idempotent: without a session, or with an expired or unknown one, it still answers 200 and clears the cookie.',
      tags: ['session'],
      auth: 'session',
      authCheck: 'optional',
      responses: {
        200: { description: 'Signed out.', schema: v.object({ success: v.literal(true) }), headers: { 'Set-Cookie': 'The expired session cookie.' } },
      },
      errors: ['ORIGIN_NOT_ALLOWED'],
      async handle(ctx) {
        const token = readSessionCookie(ctx, deps.config);
        if (token !== undefined) await endSession(deps.sql, token);
        clearSessionCookie(ctx, deps.config);
        ctx.set('Cache-Control', 'no-store');
        ctx.body = { success: true };
      },
    }),
  ];
}
