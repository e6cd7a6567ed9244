// The route table entry: one declaration per HTTP route, from which the router is mounted and /openapi.json is
// generated (schemas are the same valibot objects the handlers validate with).
import type Koa from 'koa';
import type { AnySchema, Binding, ErrorCode, ServiceError } from '../../runtime-api/index.ts';

export type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
export type AuthKind = 'none' | 'bearer' | 'session' | 'bearer-or-session';

export interface ResponseDoc {
  description: string;
  /** Defaults to application/json when a schema is given. */
  contentType?: string;
  schema?: AnySchema;
  /** A JSON Schema written out where no valibot schema exists (e.g. a binary stream). */
  jsonSchema?: Record<string, unknown>;
  headers?: Record<string, string>;
}

export interface RouteDef {
  method: Method;
  /** Router path syntax: `/v1/mcp/uploads/:uploadId/parts/:partNumber`. */
  path: string;
  operationId: string;
  summary: string;
  description?: string;
  tags: string[];
  /** The credential the route acts on; /openapi.json's `security` says the same. */
  auth: AuthKind;
  /**
   * Where `auth` is enforced. By default the pipeline refuses a request without the credential (401) before the
   * handler. `handler`: the credential is required, but the handler answers its absence in its own form (the MCP
   * challenge after the Origin check, a redirect to the sign-in page, an HTML refusal). `optional`: anonymous
   * requests are served too, and a credential, when sent, is acted on (OpenAPI lists `{}` beside the schemes).
   */
  authCheck?: 'handler' | 'optional';
  /**
   * `always`: the Origin header is validated on every request, whatever the method or credential (spec 5.8: the
   * MCP endpoint and its transfer routes): only the public base URL's origin and ALLOWED_ORIGINS pass. `web`: the
   * endpoints of public OAuth clients (registration, token, revocation), which no cookie ever authenticates, so a
   * page on any web origin may call them (PKCE is meant for browsers); the Origin is still validated as a web
   * origin (http or https), and an opaque (`null`) or malformed one is refused. Declared here, it holds for every
   * spelling the router matches (any case, a trailing slash), which a check keyed on the request path does not.
   */
  origin?: 'always' | 'web';
  /** The binding this route adapts: its scope and session-only rule apply to the route as they do in scripts. */
  binding?: Binding;
  query?: AnySchema;
  params?: AnySchema;
  body?: { contentType: string; schema?: AnySchema; jsonSchema?: Record<string, unknown> };
  responses: Record<number, ResponseDoc>;
  /** Error codes this route may answer with (their shapes and statuses come from the error table). */
  errors: ErrorCode[];
  /** Sends Deprecation, Sunset and Link rel="sunset" (spec section 9: kept at least 6 months after announcement). */
  deprecated?: { since: string; sunset: string; link?: string };
  /** Extra `x-` members for the OpenAPI operation (e.g. the NLWeb profile of /ask). */
  extensions?: Record<`x-${string}`, unknown>;
  handle: Koa.Middleware | Koa.Middleware[];
  /** The entry only documents a refusal (e.g. GET /v1/mcp → 405): its method is not listed in `Allow`. */
  refusal?: boolean;
  /** Writes a failure found outside the handler (405) in the route's own shape instead of the service's. */
  writeError?: (ctx: Koa.Context, error: ServiceError) => void;
}

export function defineRoute(def: RouteDef): RouteDef {
  return def;
}
