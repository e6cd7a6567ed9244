// /openapi.json, generated from the route table and the valibot schemas the handlers validate with (no
// hand-written duplicate schemas). Error responses come from the error table: the status, the shape and the codes.
import { ERROR_TABLE, type ErrorCode, jsonSchemaOf, type JsonSchema, GRANTABLE_SCOPES } from '../../runtime-api/index.ts';
import type { RouteDef } from '../http/route.ts';
import { API_DESCRIPTION } from './description.ts';

const RATE_HEADERS = {
  'RateLimit-Limit': { $ref: '#/components/headers/RateLimit-Limit' },
  'RateLimit-Remaining': { $ref: '#/components/headers/RateLimit-Remaining' },
  'RateLimit-Reset': { $ref: '#/components/headers/RateLimit-Reset' },
  'RateLimit-Policy': { $ref: '#/components/headers/RateLimit-Policy' },
};

const SCOPE_TEXT: Record<string, string> = {
  'files:read': "List, read and download the organization's files",
  'files:write': 'Upload, rename, trash, restore and delete files',
  'org:read': 'Read the organization, its members and invitations',
  'org:admin': 'Invite and remove members, change roles (owner or admin role required too)',
  offline_access: 'Receive a refresh token',
};

function openApiPath(path: string): string {
  return path.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
}

function parameters(route: RouteDef): JsonSchema[] {
  const out: JsonSchema[] = [];
  const pathNames = [...route.path.matchAll(/:([A-Za-z0-9_]+)/g)].map((m) => m[1]);
  const params = route.params ? jsonSchemaOf(route.params, 'input') : { properties: {} };
  for (const name of pathNames) {
    const schema = params.properties?.[name] ?? { type: 'string' };
    out.push({ name, in: 'path', required: true, schema, ...(schema.description ? { description: schema.description } : {}) });
  }
  if (route.query) {
    const query = jsonSchemaOf(route.query, 'input');
    const required = new Set<string>(query.required ?? []);
    for (const [name, schema] of Object.entries<JsonSchema>(query.properties ?? {})) {
      out.push({ name, in: 'query', required: required.has(name), schema, ...(schema.description ? { description: schema.description } : {}) });
    }
  }
  return out;
}

function errorResponse(codes: ErrorCode[]): JsonSchema {
  const typed = codes.filter((c) => ERROR_TABLE[c].shape === 'typed');
  const resolution = codes.filter((c) => ERROR_TABLE[c].shape === 'resolution');
  const typedSchema = { allOf: [{ $ref: '#/components/schemas/TypedError' }, { properties: { code: { enum: typed } } }] };
  const resolutionSchema = {
    allOf: [{ $ref: '#/components/schemas/ResolutionError' }, { properties: { error: { properties: { code: { enum: resolution } } } } }],
  };
  const schema = typed.length && resolution.length ? { oneOf: [typedSchema, resolutionSchema] } : typed.length ? typedSchema : resolutionSchema;
  return {
    description: codes.map((c) => `\`${c}\`: ${ERROR_TABLE[c].message['en-US']}`).join(' '),
    headers: RATE_HEADERS,
    content: { 'application/json': { schema } },
  };
}

/** The credentials a route acts on; `{}` last when anonymous requests are served too (OpenAPI 3.1 4.8.30). */
function security(route: RouteDef): JsonSchema[] {
  const schemes: Record<RouteDef['auth'], JsonSchema[]> = {
    none: [],
    bearer: [{ bearerAuth: [] }, { oauth2: [] }],
    session: [{ sessionCookie: [] }],
    'bearer-or-session': [{ bearerAuth: [] }, { oauth2: [] }, { sessionCookie: [] }],
  };
  const required = schemes[route.auth];
  return route.authCheck === 'optional' && required.length ? [...required, {}] : required;
}

function operation(route: RouteDef): JsonSchema {
  const responses: Record<string, JsonSchema> = {};
  for (const [status, doc] of Object.entries(route.responses)) {
    const content: Record<string, JsonSchema> = {};
    if (doc.schema || doc.jsonSchema) {
      content[doc.contentType ?? 'application/json'] = { schema: doc.jsonSchema ?? jsonSchemaOf(doc.schema!, 'output') };
    } else if (doc.contentType) {
      content[doc.contentType] = {};
    }
    const headers: Record<string, JsonSchema> = { ...RATE_HEADERS };
    for (const [name, description] of Object.entries(doc.headers ?? {})) headers[name] = { description, schema: { type: 'string' } };
    responses[status] = { description: doc.description, headers, ...(Object.keys(content).length ? { content } : {}) };
  }
  const byStatus = new Map<number, ErrorCode[]>();
  // Any request may carry a Bearer token (401 when bad, 403 when its organization's MCP access is revoked), and a
  // route validating every Origin may refuse it: the pipeline's answers, documented on every route they reach.
  const pipeline: ErrorCode[] = [
    'rate_limited',
    ...(route.path === '/ask' ? [] : (['unauthorized', 'MCP_ACCESS_REVOKED'] as const)),
    ...(route.origin === 'always' ? (['ORIGIN_NOT_ALLOWED'] as const) : []),
  ];
  for (const code of new Set<ErrorCode>([...route.errors, ...pipeline])) {
    const status = ERROR_TABLE[code].status;
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  for (const [status, codes] of [...byStatus].sort((a, b) => a[0] - b[0])) {
    const error = errorResponse(codes);
    const declared = responses[status];
    if (!declared) responses[status] = error;
    // A page answering at an error's status (e.g. an HTML form page re-shown with the reason) documents both bodies.
    else if (declared.content && !declared.content['application/json']) {
      responses[status] = { ...declared, description: `${declared.description} ${error.description}`, content: { ...declared.content, ...error.content } };
    }
  }
  const op: JsonSchema = {
    operationId: route.operationId,
    summary: route.summary,
    ...(route.description ? { description: route.description } : {}),
    tags: route.tags,
    security: security(route),
    responses,
  };
  const params = parameters(route);
  if (params.length) op.parameters = params;
  if (route.body) {
    op.requestBody = {
      required: true,
      content: {
        [route.body.contentType]:
          route.body.schema || route.body.jsonSchema ? { schema: route.body.jsonSchema ?? jsonSchemaOf(route.body.schema!, 'input') } : {},
      },
    };
  }
  if (route.deprecated) {
    op.deprecated = true;
    op['x-sunset'] = route.deprecated.sunset;
  }
  if (route.extensions) Object.assign(op, route.extensions);
  return op;
}

export function buildOpenApi(routes: readonly RouteDef[], options: { publicBaseUrl: string; version: string }): JsonSchema {
  const paths: Record<string, Record<string, JsonSchema>> = {};
  for (const route of routes) {
    const path = openApiPath(route.path);
    paths[path] ??= {};
    paths[path][route.method.toLowerCase()] = operation(route);
  }
  const base = options.publicBaseUrl;
  return {
    openapi: '3.1.0',
    jsonSchemaDialect: 'https://json-schema.org/draft/2020-12/schema',
    info: {
      title: 'Siglata workspace service',
      version: options.version,
      description: API_DESCRIPTION,
      license: { name: 'Proprietary', identifier: 'LicenseRef-Proprietary' },
    },
    servers: [{ url: base }],
    paths,
    components: {
      schemas: {
        TypedError: {
          type: 'object',
          required: ['code', 'message'],
          description: 'Domain-state error (spec section 7, typed shape).',
          properties: { code: { type: 'string' }, message: { type: 'string', description: 'Localized by x-service-locale.' } },
        },
        ResolutionError: {
          type: 'object',
          required: ['error'],
          description: 'Request or authentication error (spec section 7, resolution shape).',
          properties: {
            error: {
              type: 'object',
              required: ['code', 'message', 'resolution'],
              properties: { code: { type: 'string' }, message: { type: 'string' }, resolution: { type: 'string', description: 'How to fix the request.' } },
            },
          },
        },
      },
      headers: {
        'RateLimit-Limit': { description: 'Requests allowed per window (120).', schema: { type: 'integer' } },
        'RateLimit-Remaining': { description: 'Requests left in the current window.', schema: { type: 'integer' } },
        'RateLimit-Reset': { description: 'Seconds until the window resets (60 at window start).', schema: { type: 'integer' } },
        'RateLimit-Policy': { description: '`120;w=60`.', schema: { type: 'string' } },
      },
      securitySchemes: {
        bearerAuth: {
          type: 'http',
          scheme: 'bearer',
          description:
            'An ES256 access token (RFC 9068) from the authorization server, valid 1 hour; or an organization API key (`slk_…`, created with the `api_keys_create` binding, scoped, expiring, revocable).',
        },
        oauth2: {
          type: 'oauth2',
          description: 'Authorization code with PKCE (S256); public clients register dynamically at /oauth/register.',
          flows: {
            authorizationCode: {
              authorizationUrl: `${base}/oauth/authorize`,
              tokenUrl: `${base}/oauth/token`,
              refreshUrl: `${base}/oauth/token`,
              scopes: Object.fromEntries(GRANTABLE_SCOPES.map((s) => [s, SCOPE_TEXT[s]])),
            },
          },
        },
        sessionCookie: {
          type: 'apiKey',
          in: 'cookie',
          name: 'session',
          description: 'Set by the magic-link sign-in; HTTP-only, SameSite=Lax, 7 days sliding.',
        },
      },
    },
  };
}
