// createApp(deps): the Koa application — global middleware, then every route of the route table.
import Koa from 'koa';
import Router from '@koa/router';
import type { AppDeps } from './deps.ts';
import type { RouteDef } from './http/route.ts';
import { requestContext } from './middleware/request-context.ts';
import { errorHandler } from './middleware/error-handler.ts';
import { resolveBearer, requireAuth } from './middleware/auth.ts';
import { apiRoutes } from './routes/api.ts';
import { frontRoutes } from './routes/front.ts';
import { transferRoutes } from './routes/transfers/index.ts';
import { openApiRoutes } from './routes/openapi.ts';
import { rateLimit, memoryRateLimitStore, postgresRateLimitStore } from './middleware/rate-limit.ts';
import { deprecation } from './middleware/deprecation.ts';
import { originGuard } from './middleware/origin.ts';
import { signInRoutes } from './routes/auth/sign-in/index.ts';
import { sessionRoutes } from './routes/auth/session.ts';
import { organizationRoutes } from './routes/organization/index.ts';
import { oauthRoutes } from './routes/oauth/index.ts';
import { wellKnownRoutes } from './routes/well-known.ts';
import { oauthCors } from './oauth/cors.ts';
import { grantCheck } from './oauth/grants.ts';
import { mcpRoutes } from './routes/mcp.ts';
import { askCors, askRoutes, isAskPath } from './routes/ask.ts';
import { appV1Routes } from './routes/app-v1.ts';
import { schemaRoutes } from './routes/schema.ts';
import { healthRoutes } from './ops/health.ts';
import { metricsRoute } from './ops/metrics-endpoint.ts';
import { consoleRoutes } from './routes/console/index.ts';
import { methodNotAllowed } from './middleware/method-not-allowed.ts';

/** Every route the server serves; /openapi.json is generated from the same list. */
export function routeTable(deps: AppDeps): RouteDef[] {
  const table: RouteDef[] = [
    ...openApiRoutes(deps, () => table),
    ...apiRoutes(deps),
    ...frontRoutes(deps),
    ...transferRoutes(deps),
    ...signInRoutes(deps),
    ...sessionRoutes(deps),
    ...organizationRoutes(deps),
    ...wellKnownRoutes(deps),
    ...oauthRoutes(deps),
    ...askRoutes(deps, deps.askIndex ?? null),
    ...mcpRoutes(deps),
    ...appV1Routes(deps),
    ...schemaRoutes(deps),
    ...healthRoutes(deps, deps.ops?.lifecycle),
    ...consoleRoutes(deps),
  ];
  return table;
}

/** New work refused while the instance drains (executions are refused by the engine itself, on every route). */
const REFUSED_WHILE_DRAINING = new Set(['putUploadPart']);

/** Register route declarations on a router: deprecation headers, then the auth guard, then the handlers. */
export function mountRoutes(router: Router, routes: readonly RouteDef[], deps: AppDeps): Router {
  for (const route of routes) {
    const handlers = Array.isArray(route.handle) ? route.handle : [route.handle];
    const guards = [
      ...(route.deprecated ? [deprecation(route.deprecated)] : []),
      requireAuth(deps, route.authCheck ? 'none' : route.auth),
      originGuard(deps.config, route),
      ...(deps.ops && REFUSED_WHILE_DRAINING.has(route.operationId) ? [deps.ops.lifecycle.refuseWhileDraining()] : []),
    ];
    router.register(route.path, [route.method], [...guards, ...handlers], { name: route.operationId });
  }
  return router;
}

/** The router of each app, so that tests can list what is really served. */
export const ROUTERS = new WeakMap<Koa, Router>();

/** `routes` defaults to the route table (tests may pass their own to exercise the same pipeline). */
export function createApp(deps: AppDeps, routes: readonly RouteDef[] = routeTable(deps)): Koa {
  const app = new Koa({ proxy: deps.config.trustProxy });
  app.silent = true;
  const router = mountRoutes(new Router(), routes, deps);
  const { rateLimit: limits } = deps.config;
  const store = limits.store === 'postgres' ? postgresRateLimitStore(deps.sql, deps.clock) : memoryRateLimitStore(deps.clock);
  const routeOf = (ctx: Koa.Context) => router.match(ctx.path, ctx.method).pathAndMethod.at(-1)?.path as string | undefined;
  if (deps.ops) app.use(deps.ops.metrics.http(routeOf)).use(deps.ops.lifecycle.tracker());
  app.use(requestContext(deps.logger));
  app.use(errorHandler(deps.logger));
  // Every response carries the rate-limit headers (spec section 8), CORS preflights, refusals and /metrics included.
  app.use(rateLimit({ store, max: limits.max, windowSeconds: limits.windowSeconds, clock: deps.clock }));
  if (deps.ops) app.use(metricsRoute(deps.config, deps.ops.metrics));
  app.use(askCors());
  app.use(oauthCors(deps));
  app.use(resolveBearer(deps, [grantCheck(deps)], isAskPath));
  app.use(router.routes());
  app.use(methodNotAllowed(routes));
  ROUTERS.set(app, router);
  return app;
}
