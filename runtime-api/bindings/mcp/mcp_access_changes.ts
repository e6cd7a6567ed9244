// mcp_access_changes: every change of the organization's MCP access state and maxScopes ceiling, newest first, a
// page at a time (mcp_access_get shows only the last few).
import * as v from 'valibot';
import { defineBinding } from '../../define.ts';
import { badCursor, decodeCursor, encodeCursor, listInputEntries, listOutput } from '../../list-page.ts';
import { pageMcpAccessChanges } from '../../store/mcp-access.ts';
import { McpAccessChangeSchema } from './schemas.ts';

function afterCursor(raw: string): { at: Date; id: string } {
  const c = decodeCursor(raw);
  const [at, id] = Array.isArray(c) ? c : [];
  const when = new Date(typeof at === 'string' ? at : NaN);
  if (typeof id !== 'string' || Number.isNaN(when.getTime())) throw badCursor('mcp_access_changes');
  return { at: when, id };
}

export const mcp_access_changes = defineBinding({
  name: 'mcp_access_changes',
  summary: "Every change of the organization's MCP access state and maxScopes: who, when, from what to what. Newest first.",
  description: 'Owners and admins only. The whole history, a page at a time (mcp_access_get lists only the last 20 changes).',
  pt: {
    summary: 'Todas as mudanças do estado de acesso MCP e do maxScopes da organização: quem, quando, de quê para quê. Das mais recentes às mais antigas.',
    aliases: ['histórico do acesso mcp', 'mudanças de acesso', 'quem revogou o mcp'],
  },
  aliases: ['mcp access history', 'access changes', 'who revoked mcp'],
  examples: [
    'const { items } = await mcp_access_changes({ limit: 10 });\nreturn items.map((c) => `${c.at} ${c.userEmail}: ${c.fromState} -> ${c.toState} [${c.toMaxScopes.join(" ")}]`);',
  ],
  input: v.strictObject({ ...listInputEntries({ default: 50, max: 200 }) }),
  output: listOutput(
    v.object({
      id: v.pipe(v.string(), v.description('Change id (`mac_…`), the same as `changeId`.')),
      changeId: v.string(),
      ...McpAccessChangeSchema.entries,
      userEmail: v.pipe(v.nullable(v.string()), v.description('Who changed it (null when that account no longer exists).')),
    }),
    'changes',
  ),
  scope: 'org:admin',
  writes: false,
  async handler(input, { sql, caller }) {
    const rows = await pageMcpAccessChanges(sql, caller.membership!.orgId, input.limit + 1, input.cursor ? afterCursor(input.cursor) : undefined);
    const page = rows.slice(0, input.limit);
    const last = page[page.length - 1];
    return {
      items: page.map((r) => ({
        id: r.id,
        changeId: r.id,
        userId: r.userId,
        userEmail: r.userEmail,
        fromState: r.fromState,
        toState: r.toState,
        fromMaxScopes: r.fromMaxScopes,
        toMaxScopes: r.toMaxScopes,
        at: r.at.toISOString(),
      })),
      nextCursor: rows.length > input.limit && last ? encodeCursor([last.at.toISOString(), last.id]) : null,
    };
  },
});
