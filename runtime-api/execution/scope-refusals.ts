// When a scope refusal is the request's answer rather than the script's outcome: a token with no usable scope may not
// run scripts at all, and a script that ended on an uncaught scope refusal is 403 INSUFFICIENT_SCOPE, whatever the face.
import { isApiKeyCaller, type Caller } from '../identity/caller.ts';
import { ServiceError } from '../errors.ts';
import type { ExecuteContext } from './context.ts';
import type { ExecutionCalls } from './execution-calls.ts';
import type { ExecuteOutcome } from './result.ts';
import { noUsableScope } from './messages.ts';

export function uncaughtScopeError(ctx: ExecuteContext, calls: ExecutionCalls, result: ExecuteOutcome): ServiceError | null {
  if (result.ok || result.error?.type !== 'tool_error' || result.error.code !== 'INSUFFICIENT_SCOPE' || !calls.scopeError) return null;
  return ctx.scopeError ? ctx.scopeError(calls.scopeError) : calls.scopeError;
}

/** A token whose effective scopes are empty (none granted, or a ceiling of none) may not run scripts at all. */
export function requireSomeScope(ctx: ExecuteContext, caller: Caller): void {
  if (!caller.membership) throw new ServiceError('ORGANIZATION_MEMBERSHIP_REQUIRED');
  if (caller.kind !== 'token' || caller.scopes.length > 0) return;
  const refusal = noUsableScope(isApiKeyCaller(caller) ? 'api-key' : 'access-token');
  throw ctx.scopeError ? ctx.scopeError(refusal) : refusal;
}
