// Creating an organization, listing the caller's, reading one.
import * as v from 'valibot';
import { organizationBindings as b, MetadataSchema, NameSchema, SlugSchema } from '../../../runtime-api/index.ts';
import { OrgId, type BindingRoute } from './binding-route.ts';
import { activate, userCaller } from './callers.ts';

export const createOrganization: BindingRoute = {
  method: 'POST',
  path: '/auth/organization/create',
  operationId: 'createOrganization',
  binding: b.organization_create,
  status: 201,
  caller: userCaller,
  summary: "Create an organization; the caller becomes its owner and it becomes the session's active organization",
  input: v.object({ name: NameSchema, slug: SlugSchema, metadata: v.optional(MetadataSchema) }),
  errors: ['conflict', 'organization_limit_reached', 'rate_limited'],
  after: (deps, ctx, org) => activate(deps, ctx, org.id),
};

export const listOrganizations: BindingRoute = {
  method: 'GET',
  path: '/auth/organization/list',
  operationId: 'listOrganizations',
  binding: b.organizations_list,
  caller: userCaller,
  summary: "The caller's organizations, each with the caller's role (all of them, as an array)",
  input: v.object({}),
  wholeList: true,
};

export const getOrganization: BindingRoute = {
  method: 'GET',
  path: '/auth/organization/get',
  operationId: 'getOrganization',
  binding: b.organization_get,
  summary: "An organization: profile, metadata, the caller's role and the members",
  description: "`organizationId` defaults to the session's active organization.",
  input: v.object({ organizationId: OrgId }),
};
