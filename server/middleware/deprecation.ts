// A deprecated route keeps working and says so: `Deprecation` (RFC 9745, the date it was announced),
// `Sunset` (RFC 8594, when it may go) and a `Link rel="sunset"` to the migration notes (spec section 9).
import type Koa from 'koa';

export interface DeprecationInfo {
  /** ISO date the deprecation was announced. */
  since: string;
  /** ISO date after which the route may be removed (at least 6 months after `since`). */
  sunset: string;
  /** Where the replacement is documented. */
  link?: string;
}

export function deprecation(info: DeprecationInfo): Koa.Middleware {
  const since = `@${Math.floor(Date.parse(info.since) / 1000)}`;
  const sunset = new Date(info.sunset).toUTCString();
  const link = `<${info.link ?? '/openapi.json'}>; rel="sunset"; type="text/html"`;
  return async function deprecationMiddleware(ctx, next) {
    ctx.set('Deprecation', since);
    ctx.set('Sunset', sunset);
    ctx.append('Link', link);
    await next();
  };
}
