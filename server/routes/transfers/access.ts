// What both transfer routes do before touching bytes: authorize like the binding they stand for (same scope and
// membership rules and errors, plus the organization's MCP access), and parse their path parameters.
import type Koa from 'koa';
import * as v from 'valibot';
import { type Binding, type Caller, type Scope, ServiceError, authorize, describeIssues, l10n } from '../../../runtime-api/index.ts';

export function transferAccess(ctx: Koa.Context, name: string, scope: Scope): Caller {
  const caller = ctx.state.caller as Caller;
  if (ctx.state.token?.mcp?.state === 'revoked') {
    throw new ServiceError('MCP_ACCESS_REVOKED', {
      resolution: l10n('An owner or admin of the organization must restore its MCP access before files can be transferred.',
        'Um proprietário ou administrador da organização precisa restaurar o acesso MCP antes que arquivos possam ser transferidos.'),
    });
  }
  authorize({ name, scope, needsOrganization: true, sessionOnly: false } as Binding, caller);
  return caller;
}

export function parseParams<S extends v.GenericSchema>(schema: S, value: unknown): v.InferOutput<S> {
  const parsed = v.safeParse(schema, value);
  if (!parsed.success) throw new ServiceError('invalid_input', { resolution: describeIssues(parsed.issues) });
  return parsed.output;
}
