// /app/v1: a REST face for people and scripts holding a Bearer token or a session cookie. context, files and the file
// at a path map to their bindings; execute runs a script, plans it (writes recorded, a signed plan token returned) or applies a
// plan in one transaction (409 conflict when the writes no longer match; nothing changed).
import * as v from 'valibot';
import { defineRoute, type RouteDef } from '../http/route.ts';
import { parseJsonBody } from '../http/body.ts';
import { validateIn } from '../i18n/validation.ts';
import { authorize, invoke, findBinding, executeInMode, ExecuteInput, ExecuteOutcomeSchema } from '../../runtime-api/index.ts';
import { executeContext, invokeDeps, type AppDeps } from '../deps.ts';
import { callerOf } from '../http/request-state.ts';
import { isCliRequest } from '../http/client-kind.ts';
import { archiveRoutes } from './app-v1-archives.ts';

const FilesQuery = v.strictObject({
  state: v.optional(v.picklist(['active', 'trashed'])),
  limit: v.optional(v.pipe(v.string(), v.regex(/^\d{1,4}$/, 'must be a whole number'), v.transform(Number))),
  cursor: v.optional(v.string()),
  prefix: v.optional(v.string()),
});

const FileAtPathQuery = v.strictObject({ path: v.pipe(v.string(), v.description('The path of an active file, e.g. `reports/q1.csv`.')) });

export function appV1Routes(deps: AppDeps): RouteDef[] {
  const contextBinding = findBinding('context')!;
  const filesList = findBinding('files_list')!;
  const filesGet = findBinding('files_get')!;
  return [
    defineRoute({
      method: 'GET',
      path: '/app/v1/context',
      operationId: 'appContext',
      tags: ['app'],
      auth: 'bearer-or-session',
      binding: contextBinding,
      summary: 'The current organization, role, effective scopes and usage limits (the `context` binding)',
      responses: { 200: { description: 'The context.', schema: contextBinding.output } },
      errors: ['unauthorized', 'SESSION_EXPIRED', 'ORGANIZATION_MEMBERSHIP_REQUIRED'],
      async handle(ctx) {
        ctx.body = await invoke(contextBinding, {}, callerOf(ctx), invokeDeps(deps));
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/app/v1/files',
      operationId: 'appListFiles',
      tags: ['app'],
      auth: 'bearer-or-session',
      binding: filesList,
      summary: "A page of the organization's files (the `files_list` binding; query parameters map to its input)",
      query: FilesQuery,
      responses: { 200: { description: 'A page of files.', schema: filesList.output } },
      errors: ['unauthorized', 'SESSION_EXPIRED', 'invalid_input', 'INSUFFICIENT_SCOPE', 'ORGANIZATION_MEMBERSHIP_REQUIRED'],
      async handle(ctx) {
        const query = validateIn(ctx.state.locale, FilesQuery, ctx.query);
        ctx.body = await invoke(filesList, query, callerOf(ctx), invokeDeps(deps));
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/app/v1/files/by-path',
      operationId: 'appFileAtPath',
      tags: ['app'],
      auth: 'bearer-or-session',
      binding: filesGet,
      summary: 'The active file at a path (the `files_get` binding with `name`): one path, one file; its `downloadUrl` gives the bytes',
      query: FileAtPathQuery,
      responses: { 200: { description: 'The file.', schema: filesGet.output } },
      errors: ['unauthorized', 'SESSION_EXPIRED', 'invalid_input', 'not_found', 'INSUFFICIENT_SCOPE', 'ORGANIZATION_MEMBERSHIP_REQUIRED'],
      async handle(ctx) {
        // A caller who may not read files learns that first, whatever the query says.
        authorize(filesGet, callerOf(ctx));
        const query = validateIn(ctx.state.locale, FileAtPathQuery, ctx.query);
        ctx.body = await invoke(filesGet, { name: query.path }, callerOf(ctx), invokeDeps(deps));
      },
    }),
    defineRoute({
      method: 'POST',
      path: '/app/v1/execute',
      operationId: 'appExecute',
      tags: ['app'],
      auth: 'bearer-or-session',
      summary: 'Run a script, plan it (writes recorded, signed plan token) or apply a plan atomically',
      description:
        'mode "run" runs the script. mode "plan" runs it with every write binding recorded instead of performed (a write resolves to `{planned: true, index}`) and returns the ordered `operations` and a `planToken` valid 15 minutes. mode "apply" with that token re-runs the same script in one database transaction and commits only if its writes equal the plan; otherwise 409 `conflict` and nothing changes (a write that is not the planned write at its position is refused before it runs, and mail such as an invitation goes out only once the apply commits). A script that fails during apply is rolled back (`applied: false`), as is one that returns while a write it started is still running (error code `write_in_flight`): every write is counted when the script starts it. A plan token applies once: applying it again (or while another apply of it commits) is 409 `plan_already_applied` before the script runs, with `appliedAt` and `writes` (its writes were committed then); a rolled-back apply does not spend the token. A script that ends on an uncaught scope refusal (a binding needing a scope the caller lacks) is 403 `INSUFFICIENT_SCOPE`, as over MCP.',
      body: { contentType: 'application/json', schema: ExecuteInput },
      responses: { 200: { description: 'The execution result.', schema: ExecuteOutcomeSchema } },
      errors: [
        'unauthorized',
        'SESSION_EXPIRED',
        'invalid_input',
        'invalid_request',
        'unsupported_media_type',
        'payload_too_large',
        'conflict',
        'plan_already_applied',
        'INSUFFICIENT_SCOPE',
        'ORGANIZATION_MEMBERSHIP_REQUIRED',
        'ORIGIN_NOT_ALLOWED',
        'engine_busy',
        'engine_quarantined',
      ],
      async handle(ctx) {
        const request = await parseJsonBody(ctx, ExecuteInput, deps.config.jsonBodyMaxBytes);
        ctx.body = await executeInMode(executeContext(deps, 'app', isCliRequest(ctx)), callerOf(ctx), request);
      },
    }),
    ...archiveRoutes(deps),
  ];
}
