// executions_list: the organization's execution audit log, newest first (owners and admins), with filters.
import * as v from 'valibot';
import { defineBinding } from '../../define.ts';
import { ServiceError } from '../../errors.ts';
import { badCursor, decodeCursor, encodeCursor, listInputEntries, listOutput } from '../../list-page.ts';
import { isAdminRole } from '../../identity/scopes.ts';
import { API_KEY_CLIENT_ID } from '../../identity/caller.ts';
import { listExecutions, type ExecutionRow } from '../../store/executions.ts';
import { auditLogFor } from '../../services/audit-log.ts';
import { EXCERPT_CHARS, EXCERPT_LINES } from '../../services/script-excerpt.ts';

function afterCursor(raw: string): { createdAt: Date; id: string } {
  const c = decodeCursor(raw);
  const [at, id] = Array.isArray(c) ? c : [];
  const createdAt = new Date(typeof at === 'string' ? at : NaN);
  if (typeof id !== 'string' || Number.isNaN(createdAt.getTime())) throw badCursor('executions_list');
  return { createdAt, id };
}

const Instant = (what: string) =>
  v.pipe(
    v.string(),
    v.regex(/^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/, 'must be a date (YYYY-MM-DD) or an ISO 8601 date-time'),
    v.check((s) => !Number.isNaN(Date.parse(s.length === 10 ? `${s}T00:00:00Z` : s)), 'must be a real date'),
    v.transform((s) => new Date(s.length === 10 ? `${s}T00:00:00Z` : s)),
    v.description(what),
  );

const Id = (what: string) => v.pipe(v.string(), v.minLength(1), v.maxLength(128), v.description(what));

const SourceSchema = v.picklist(['mcp', 'rest', 'cli']);

export const ExecutionSchema = v.object({
  id: v.pipe(v.string(), v.description('Execution id (`exe_…`), the same as `executionId`.')),
  executionId: v.string(),
  caller: v.pipe(
    v.object({ kind: v.picklist(['person', 'key', 'app']), name: v.string() }),
    v.description(
      'Who ran it, by name: `person` (a signed-in session: their e-mail), `key` (an organization API key: its name) or `app` (an OAuth application acting for `userEmail`: its registered name).',
    ),
  ),
  userId: v.pipe(v.string(), v.description('The person the run acted as (for a key: its creator).')),
  userEmail: v.nullable(v.string()),
  clientId: v.pipe(v.nullable(v.string()), v.description('The OAuth client, `api-key` for a key, null for a session.')),
  clientName: v.nullable(v.string()),
  keyId: v.nullable(v.string()),
  keyName: v.nullable(v.string()),
  via: v.pipe(v.picklist(['mcp', 'app']), v.description('The endpoint: the MCP execute tool, or POST /app/v1/execute.')),
  source: v.pipe(
    SourceSchema,
    v.description('Where it came from: `mcp` (an MCP client), `rest` (POST /app/v1/execute) or `cli` (the siglata command line, either endpoint).'),
  ),
  mode: v.picklist(['run', 'plan', 'apply']),
  scriptSha256: v.string(),
  scriptExcerpt: v.pipe(
    v.nullable(v.string()),
    v.description(
      `The script's first ${EXCERPT_LINES} lines (at most ${EXCERPT_CHARS} characters; API keys and access tokens masked); null for runs recorded before excerpts were kept.`,
    ),
  ),
  scriptLines: v.pipe(v.nullable(v.number()), v.description('How many lines the whole script had.')),
  ok: v.boolean(),
  errorType: v.nullable(
    v.pipe(
      v.string(),
      v.description('Why it failed, as in the execute result: e.g. timeout, memory_limit, script_error, or crashed (the sandbox process running it failed).'),
    ),
  ),
  errorCode: v.nullable(v.string()),
  errorMessage: v.pipe(v.nullable(v.string()), v.description("The failure's message (masked like the excerpt, at most 500 characters).")),
  errorLine: v.nullable(v.number()),
  wallMs: v.number(),
  cpuMs: v.number(),
  hostCalls: v.number(),
  createdAt: v.string(),
});

function callerOf(r: ExecutionRow): { kind: 'person' | 'key' | 'app'; name: string } {
  if (r.clientId === API_KEY_CLIENT_ID) return { kind: 'key', name: r.keyName ?? r.keyId ?? API_KEY_CLIENT_ID };
  if (r.clientId) return { kind: 'app', name: r.clientName ?? r.clientId };
  return { kind: 'person', name: r.userEmail ?? r.userId };
}

export const executions_list = defineBinding({
  name: 'executions_list',
  summary: "The organization's script executions, newest first: who ran them (person, key or app), from where, the script's first lines, how they ended.",
  pt: {
    summary:
      'As execuções de scripts da organização, das mais recentes às mais antigas: quem as rodou (pessoa, chave ou aplicativo), de onde, as primeiras linhas do script, como terminaram.',
    aliases: ['auditoria', 'registro de auditoria', 'histórico', 'execuções anteriores', 'scripts rodados', 'atividade', 'quem rodou'],
  },
  description:
    'Owners and admins only. Filter by `userId` (the person a run acted as), `keyId`, `clientId` (an OAuth app), `outcome`, `source`, and `from` / `to` (`from` inclusive, `to` exclusive; a bare date means 00:00 UTC). Scripts are identified by their SHA-256 and their first lines; the whole script is never stored.',
  aliases: ['audit', 'audit log', 'history', 'past runs', 'scripts run', 'activity'],
  examples: [
    'const { items } = await executions_list({ limit: 20, outcome: "failed" });\nreturn items.map((e) => [e.createdAt, e.caller.name, e.errorCode ?? e.errorType, e.scriptExcerpt]);',
  ],
  input: v.strictObject({
    ...listInputEntries({ default: 50, max: 200 }),
    userId: v.optional(Id('Only runs that acted as this person (a user id, as in members_list).')),
    keyId: v.optional(Id('Only runs made with this API key.')),
    clientId: v.optional(Id('Only runs made by this OAuth app (its client id).')),
    outcome: v.pipe(v.optional(v.picklist(['succeeded', 'failed'])), v.description('Only runs that succeeded, or only those that failed.')),
    source: v.pipe(v.optional(SourceSchema), v.description('Only runs from MCP, REST or the CLI.')),
    from: v.optional(Instant('Only runs at or after this instant.')),
    to: v.optional(Instant('Only runs before this instant.')),
  }),
  output: listOutput(ExecutionSchema, 'executions'),
  scope: 'org:admin',
  writes: false,
  async handler(input, { sql, caller }) {
    const membership = caller.membership!;
    if (!isAdminRole(membership.role)) throw new ServiceError('ORGANIZATION_ADMIN_REQUIRED');
    await auditLogFor(sql).flush(); // this instance's queued rows first
    const rows = await listExecutions(sql, membership.orgId, input.limit + 1, input.cursor ? afterCursor(input.cursor) : undefined, {
      userId: input.userId,
      keyId: input.keyId,
      clientId: input.clientId,
      ok: input.outcome === undefined ? undefined : input.outcome === 'succeeded',
      source: input.source,
      from: input.from,
      to: input.to,
    });
    const page = rows.slice(0, input.limit);
    return {
      items: page.map((r) => ({
        id: r.id,
        executionId: r.id,
        caller: callerOf(r),
        userId: r.userId,
        userEmail: r.userEmail,
        clientId: r.clientId,
        clientName: r.clientName,
        keyId: r.keyId,
        keyName: r.keyName,
        via: r.via,
        source: r.source,
        mode: r.mode,
        scriptSha256: r.scriptSha256,
        scriptExcerpt: r.scriptExcerpt,
        scriptLines: r.scriptLines,
        ok: r.ok,
        errorType: r.errorType,
        errorCode: r.errorCode,
        errorMessage: r.errorMessage,
        errorLine: r.errorLine,
        wallMs: r.wallMs,
        cpuMs: r.cpuMs,
        hostCalls: r.hostCalls,
        createdAt: r.createdAt.toISOString(),
      })),
      nextCursor: rows.length > input.limit ? encodeCursor([page[page.length - 1].createdAt.toISOString(), page[page.length - 1].id]) : null,
    };
  },
});
