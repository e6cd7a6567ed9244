// What both transfer routes do before touching bytes: authorize like the binding they stand for (same scope and
// membership rules and errors, plus the organization's MCP access), and parse their path parameters.
import type Koa from 'koa';
import * as v from 'valibot';
import { type Binding, type Caller, type Scope, ServiceError, authorize, describeIssues } from '../../../runtime-api/index.ts';
import { transfersRevoked } from './messages.ts';

export function transferAccess(ctx: Koa.Context, name: string, scope: Scope): Caller {
  const caller = ctx.state.caller as Caller;
  if (ctx.state.token?.mcp?.state === 'revoked') throw transfersRevoked();
  authorize({ name, scope, needsOrganization: true, sessionOnly: false } as Binding, caller);
  return caller;
}

export function parseParams<S extends v.GenericSchema>(schema: S, value: unknown): v.InferOutput<S> {
  const parsed = v.safeParse(schema, value);
  if (!parsed.success) throw new ServiceError('invalid_input', { resolution: describeIssues(parsed.issues) });
  return parsed.output;
}
