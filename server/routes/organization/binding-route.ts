// The adapter every binding-backed /auth/organization/* route is: read the input in the request's locale, find the
// Caller for the target organization, call `invoke`, answer its result. HTTP and scripts so pass the same checks.
import type Koa from 'koa';
import * as v from 'valibot';
import {
  type Binding,
  type Caller,
  type ErrorCode,
  authorize,
  invoke,
  invokeWholeList,
  listItemsSchema,
  requireAdmin,
  IdSchema,
} from '../../../runtime-api/index.ts';
import { invokeDeps, type AppDeps } from '../../deps.ts';
import { defineRoute, type AuthKind, type RouteDef } from '../../http/route.ts';
import { readJson } from '../../http/body.ts';
import { validateIn } from '../../i18n/validation.ts';
import { organizationCaller } from './callers.ts';
import { callerOf } from '../../http/request-state.ts';

export const OrgId = v.optional(IdSchema);
export const ORG_ERRORS: ErrorCode[] = [
  'invalid_input',
  'unauthorized',
  'SESSION_EXPIRED',
  'ORGANIZATION_MEMBERSHIP_REQUIRED',
  'INSUFFICIENT_SCOPE',
  'not_found',
];
export const WRITE_ERRORS: ErrorCode[] = ['invalid_request', 'unsupported_media_type', 'payload_too_large', 'ORIGIN_NOT_ALLOWED'];
export const ADMIN: ErrorCode[] = ['ORGANIZATION_ADMIN_REQUIRED'];

type Input = Record<string, unknown>;

export interface BindingRoute {
  method: 'GET' | 'POST';
  path: string;
  operationId: string;
  summary: string;
  description?: string;
  binding: Binding;
  /** The route's input: the binding's fields plus `organizationId` where it acts on an organization. */
  input: v.GenericSchema;
  status?: 200 | 201;
  auth?: AuthKind;
  errors?: ErrorCode[];
  /** How the Caller is found; default: `organizationId`, else the session's active organization. */
  caller?: (deps: AppDeps, ctx: Koa.Context, input: Input) => Promise<Caller>;
  after?: (deps: AppDeps, ctx: Koa.Context, result: any) => Promise<void>;
  /** The spec fixes a bare array here: answer every page of the list binding's items. */
  wholeList?: boolean;
}

/** A token acts on its own organization with fixed scopes: what it may never do is refused before reading input. */
function refuseTokenEarly(ctx: Koa.Context, binding: Binding): void {
  const caller = callerOf(ctx);
  if (caller.kind === 'token') authorize(binding, caller);
}

async function readInput(deps: AppDeps, ctx: Koa.Context, s: BindingRoute): Promise<Input> {
  const raw = s.method === 'GET' ? ctx.query : await readJson(ctx, deps.config.jsonBodyMaxBytes);
  return validateIn(ctx.state.locale, s.input, raw) as Input;
}

/** The role is the reason a member cannot administer: said before the scope check of `invoke`. */
function requireAdminRole(binding: Binding, caller: Caller): void {
  if (binding.scope === 'org:admin') requireAdmin(caller);
}

async function callBinding(deps: AppDeps, s: BindingRoute, input: Input, caller: Caller): Promise<unknown> {
  const { organizationId: _omit, ...bindingInput } = input;
  return s.wholeList ? invokeWholeList(s.binding, bindingInput, caller, invokeDeps(deps)) : invoke(s.binding, bindingInput, caller, invokeDeps(deps));
}

export function bindingRoute(deps: AppDeps, s: BindingRoute): RouteDef {
  return defineRoute({
    method: s.method,
    path: s.path,
    operationId: s.operationId,
    summary: s.summary,
    description: s.description ?? s.binding.description,
    tags: ['organization'],
    auth: s.auth ?? 'bearer-or-session',
    binding: s.binding,
    ...(s.method === 'GET' ? { query: s.input } : { body: { contentType: 'application/json', schema: s.input } }),
    responses: { [s.status ?? 200]: { description: s.binding.summary, schema: s.wholeList ? listItemsSchema(s.binding) : s.binding.output } },
    errors: [...ORG_ERRORS, ...(s.method === 'POST' ? WRITE_ERRORS : []), ...(s.errors ?? [])],
    async handle(ctx) {
      refuseTokenEarly(ctx, s.binding);
      const input = await readInput(deps, ctx, s);
      const caller = await (s.caller ?? organizationCaller)(deps, ctx, input);
      requireAdminRole(s.binding, caller);
      const result = await callBinding(deps, s, input, caller);
      if (s.after) await s.after(deps, ctx, result);
      ctx.status = s.status ?? 200;
      ctx.body = result;
    },
  });
}
