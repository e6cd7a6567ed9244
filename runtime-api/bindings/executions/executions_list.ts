// executions_list: the organization's execution audit log, newest first (owners and admins).
import * as v from 'valibot';
import { defineBinding } from '../../define.ts';
import { ServiceError } from '../../errors.ts';
import { badCursor, decodeCursor, encodeCursor, listInputEntries, listOutput } from '../../list-page.ts';
import { isAdminRole } from '../../identity/scopes.ts';
import { listExecutions } from '../../store/executions.ts';
import { auditLogFor } from '../../services/audit-log.ts';

function afterCursor(raw: string): { createdAt: Date; id: string } {
  const c = decodeCursor(raw);
  const [at, id] = Array.isArray(c) ? c : [];
  const createdAt = new Date(typeof at === 'string' ? at : NaN);
  if (typeof id !== 'string' || Number.isNaN(createdAt.getTime())) throw badCursor('executions_list');
  return { createdAt, id };
}

export const executions_list = defineBinding({
  name: 'executions_list',
  summary: "The organization's script executions, newest first: who ran what, how it ended, time and host calls.",
  pt: {
    summary: 'As execuções de scripts da organização, das mais recentes às mais antigas: quem rodou o quê, como terminou, tempo e chamadas.',
    aliases: ['auditoria', 'registro de auditoria', 'histórico', 'execuções anteriores', 'scripts rodados', 'atividade'],
  },
  description: 'Owners and admins only. Scripts are identified by their SHA-256, never stored.',
  aliases: ['audit', 'audit log', 'history', 'past runs', 'scripts run', 'activity'],
  examples: ['const { items } = await executions_list({ limit: 20 });\nreturn items.filter((e) => !e.ok).map((e) => [e.createdAt, e.errorCode]);'],
  input: v.strictObject({ ...listInputEntries({ default: 50, max: 200 }) }),
  output: listOutput(
    v.object({
      id: v.pipe(v.string(), v.description('Execution id; the same as `executionId`.')),
      executionId: v.string(),
      userId: v.string(),
      clientId: v.nullable(v.string()),
      via: v.picklist(['mcp', 'app']),
      mode: v.picklist(['run', 'plan', 'apply']),
      scriptSha256: v.string(),
      ok: v.boolean(),
      errorType: v.nullable(
        v.pipe(
          v.string(),
          v.description(
            'Why it failed, as in the execute result: e.g. timeout, memory_limit, script_error, or crashed (the sandbox process running it failed).',
          ),
        ),
      ),
      errorCode: v.nullable(v.string()),
      wallMs: v.number(),
      cpuMs: v.number(),
      hostCalls: v.number(),
      createdAt: v.string(),
    }),
    'executions',
  ),
  scope: 'org:admin',
  writes: false,
  async handler(input, { sql, caller }) {
    const membership = caller.membership!;
    if (!isAdminRole(membership.role)) throw new ServiceError('ORGANIZATION_ADMIN_REQUIRED');
    await auditLogFor(sql).flush(); // this instance's queued rows first
    const rows = await listExecutions(sql, membership.orgId, input.limit + 1, input.cursor ? afterCursor(input.cursor) : undefined);
    const page = rows.slice(0, input.limit);
    return {
      items: page.map((r) => ({
        id: r.id,
        executionId: r.id,
        userId: r.userId,
        clientId: r.clientId,
        via: r.via,
        mode: r.mode,
        scriptSha256: r.scriptSha256,
        ok: r.ok,
        errorType: r.errorType,
        errorCode: r.errorCode,
        wallMs: r.wallMs,
        cpuMs: r.cpuMs,
        hostCalls: r.hostCalls,
        createdAt: r.createdAt.toISOString(),
      })),
      nextCursor: rows.length > input.limit ? encodeCursor([page[page.length - 1].createdAt.toISOString(), page[page.length - 1].id]) : null,
    };
  },
});
