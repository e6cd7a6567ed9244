// A scope refusal over MCP is a step-up challenge: 403 INSUFFICIENT_SCOPE whose WWW-Authenticate names the scopes to
// ask for, the token's own ones plus the one missing (offline_access included, so a step-up keeps the refresh token).
// Unless asking cannot help: the organization's maxScopes excludes the scope (a person must widen it); that refusal
// says so and offers no scope to ask for.
import type Koa from 'koa';
import { credentialOf, type ServiceError } from '../../runtime-api/index.ts';
import type { AppDeps } from '../deps.ts';
import { wwwAuthenticate } from '../auth/token-caller.ts';
import { scopeBeyondCeiling, stepUpRequired } from './messages.ts';

export function insufficientScope(deps: AppDeps, ctx: Koa.Context, needed: string): ServiceError {
  const consoleUrl = `${deps.config.publicBaseUrl}/console/agents`;
  const ceiling = ctx.state.token?.mcp.maxScopes;
  const plain = wwwAuthenticate(deps, `, error="insufficient_scope"`, ctx.path);
  if (ceiling && !ceiling.includes(needed)) return scopeBeyondCeiling(needed, ceiling, consoleUrl, plain);
  const held = (ctx.state.token?.claims.scope ?? '').split(' ').filter(Boolean);
  const scope = [...new Set([...held, needed])].join(' ');
  const caller = ctx.state.caller;
  return stepUpRequired(
    needed,
    scope,
    wwwAuthenticate(deps, `, error="insufficient_scope", scope="${scope}"`, ctx.path),
    caller ? credentialOf(caller) : 'access-token',
  );
}
