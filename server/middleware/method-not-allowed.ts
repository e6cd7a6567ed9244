// 405 for a path the route table serves with other methods, with `Allow` (RFC 9110 15.5.6) derived from the table.
// A route that answers its failures in its own shape (e.g. /ask's NLWeb Failure) writes the 405 itself.
import type Koa from 'koa';
import type { RouteDef } from '../http/route.ts';
import { wrongMethod } from '../http/messages.ts';

interface Matched {
  name?: string | null;
  methods: string[];
}

export function methodNotAllowed(routes: readonly RouteDef[]): Koa.Middleware {
  const byName = new Map(routes.map((r) => [r.operationId, r]));
  return async function methodNotAllowedMiddleware(ctx, next) {
    await next();
    const matched = (ctx as unknown as { matched?: Matched[] }).matched;
    if (!matched?.length || ctx.status !== 404 || ctx.body !== undefined) return;
    const defs = matched.map((layer) => byName.get(layer.name ?? '')).filter((d): d is RouteDef => d !== undefined);
    const allowed = new Set<string>();
    for (const def of defs) if (!def.refusal) for (const m of def.method === 'GET' ? ['GET', 'HEAD'] : [def.method]) allowed.add(m);
    if (!allowed.size || allowed.has(ctx.method)) return;
    const allow = [...allowed].join(', ');
    if (ctx.method === 'OPTIONS') {
      // no CORS preflight claimed it: say what the path allows
      ctx.set('Allow', `${allow}, OPTIONS`);
      ctx.status = 204;
      return;
    }
    const error = wrongMethod(allow, ctx.path);
    const own = defs.find((d) => d.writeError);
    if (!own?.writeError) throw error;
    ctx.set('Allow', allow);
    own.writeError(ctx, error);
  };
}
