// The headers of a download: `attachment` with the exact name in an RFC 6266 `filename*`, and stored bytes that a
// browser never sniffs or runs, whatever they hold.
import type Koa from 'koa';
import { create as contentDisposition } from 'content-disposition';

/** An ASCII stand-in for the RFC 6266 `filename` parameter (the exact name goes in `filename*`). */
function asciiFallback(name: string): string {
  const folded = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^\x20-\x7e]/g, '_')
    .replace(/["\\%]/g, '_');
  return folded || 'download';
}

function attachmentHeader(name: string): string {
  const base = name.slice(name.lastIndexOf('/') + 1);
  const fallback = asciiFallback(base);
  return contentDisposition(base, { fallback: fallback === base ? true : fallback });
}

/** Content-Disposition, nosniff and a sandboxing CSP for stored bytes sent as `name`. */
export function setAttachment(ctx: Koa.Context, name: string): void {
  ctx.set('Content-Disposition', attachmentHeader(name));
  ctx.set('X-Content-Type-Options', 'nosniff');
  ctx.set('Content-Security-Policy', "default-src 'none'; sandbox");
}
