// executions_list: the organization's execution audit log, newest first (owners and admins).
import * as v from 'valibot';
import { defineBinding } from '../../define.ts';
import { ServiceError, l10n } from '../../errors.ts';
import { isAdminRole } from '../../scopes.ts';
import { listExecutions } from '../../store/executions.ts';
import { auditLogFor } from '../../services/audit-log.ts';

const Cursor = v.pipe(v.string(), v.regex(/^[A-Za-z0-9_-]{1,200}$/), v.description('`nextCursor` of the previous page.'));

function encodeCursor(row: { createdAt: Date; id: string }): string {
  return Buffer.from(JSON.stringify([row.createdAt.toISOString(), row.id])).toString('base64url');
}

function decodeCursor(cursor: string): { createdAt: Date; id: string } {
  try {
    const [at, id] = JSON.parse(Buffer.from(cursor, 'base64url').toString());
    const createdAt = new Date(at);
    if (typeof id !== 'string' || Number.isNaN(createdAt.getTime())) throw new Error('bad cursor');
    return { createdAt, id };
  } catch {
    throw new ServiceError('invalid_input', { resolution: l10n('`cursor`: pass the `nextCursor` of a previous page unchanged.', '`cursor`: passe sem alterações o `nextCursor` de uma página anterior.') });
  }
}

export const executions_list = defineBinding({
  name: 'executions_list',
  summary: 'The organization\'s script executions, newest first: who ran what, how it ended, time and host calls.',
  description: 'Owners and admins only. Scripts are identified by their SHA-256, never stored.',
  examples: ['const { items } = await executions_list({ limit: 20 });\nreturn items.filter((e) => !e.ok).map((e) => [e.createdAt, e.errorCode]);'],
  input: v.strictObject({
    limit: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(200), v.description('Page size, 1 to 200 (default 50).')), 50),
    cursor: v.optional(Cursor),
  }),
  output: v.object({
    items: v.array(v.object({
      executionId: v.string(),
      userId: v.string(),
      clientId: v.nullable(v.string()),
      via: v.picklist(['mcp', 'app']),
      mode: v.picklist(['run', 'plan', 'apply']),
      scriptSha256: v.string(),
      ok: v.boolean(),
      errorType: v.nullable(v.pipe(v.string(), v.description('Why it failed, as in the execute result: e.g. timeout, memory_limit, script_error, or crashed (the sandbox process running it failed).'))),
      errorCode: v.nullable(v.string()),
      wallMs: v.number(),
      cpuMs: v.number(),
      hostCalls: v.number(),
      createdAt: v.string(),
    })),
    nextCursor: v.nullable(v.string()),
  }),
  scope: 'org:admin',
  writes: false,
  async handler(input, { sql, caller }) {
    const membership = caller.membership!;
    if (!isAdminRole(membership.role)) throw new ServiceError('ORGANIZATION_ADMIN_REQUIRED');
    await auditLogFor(sql).flush(); // this instance's queued rows first
    const rows = await listExecutions(sql, membership.orgId, input.limit + 1, input.cursor ? decodeCursor(input.cursor) : undefined);
    const page = rows.slice(0, input.limit);
    return {
      items: page.map((r) => ({
        executionId: r.id, userId: r.userId, clientId: r.clientId, via: r.via, mode: r.mode, scriptSha256: r.scriptSha256, ok: r.ok,
        errorType: r.errorType, errorCode: r.errorCode, wallMs: r.wallMs, cpuMs: r.cpuMs, hostCalls: r.hostCalls, createdAt: r.createdAt.toISOString(),
      })),
      nextCursor: rows.length > input.limit ? encodeCursor(page[page.length - 1]) : null,
    };
  },
});
