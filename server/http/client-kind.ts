// Which client sent a request, as far as the audit log cares: the siglata command line names itself in User-Agent
// (`siglata-cli` or `siglata-cli/<version>`, as the first product token). A client can claim anything here, so this
// only labels where an execution came from in the activity view; it never grants or refuses anything.
import type Koa from 'koa';

export const CLI_USER_AGENT = 'siglata-cli';

export function isCliRequest(ctx: Koa.Context): boolean {
  return /^siglata-cli(\/\S*)?(\s|$)/i.test(ctx.get('user-agent'));
}
