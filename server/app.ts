// createApp(deps): the Koa application — global middleware, then every route of the route table.
import Koa from 'koa';
import Router from '@koa/router';
import type { AppDeps } from './deps.ts';
import type { RouteDef } from './http/route.ts';
import { requestContext } from './middleware/request-context.ts';
import { errorHandler } from './middleware/error-handler.ts';
import { resolveBearer, requireAuth } from './middleware/auth.ts';
import { apiRoutes } from './routes/api.ts';

/** Every route the server serves; /openapi.json is generated from the same list. */
export function routeTable(deps: AppDeps): RouteDef[] {
  return [
    ...apiRoutes(deps),
  ];
}

export function createApp(deps: AppDeps): Koa {
  const app = new Koa({ proxy: deps.config.trustProxy });
  app.silent = true;
  const routes = routeTable(deps);
  const router = new Router();
  for (const route of routes) {
    const handlers = Array.isArray(route.handle) ? route.handle : [route.handle];
    router.register(route.path, [route.method], [requireAuth(deps, route.auth), ...handlers], { name: route.operationId });
  }
  app.use(requestContext(deps.logger));
  app.use(errorHandler(deps.logger));
  app.use(resolveBearer(deps));
  app.use(router.routes());
  app.use(router.allowedMethods({ throw: true }));
  return app;
}
