// Sending the browser back to the client's redirect URI, which carries a code or an error: never cached, and never
// passed on as a Referer.
import type Koa from 'koa';

export function redirectToClient(ctx: Koa.Context, location: string, status: 302 | 303): void {
  ctx.set('Cache-Control', 'no-store');
  ctx.set('Referrer-Policy', 'no-referrer');
  ctx.redirect(location);
  ctx.status = status;
}
