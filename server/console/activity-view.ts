// The activity page's data: a page of executions_list with the page's filters, the people, keys and apps the filters
// offer, and a page of mcp_access_changes.
import { organizationBindings as org, executions_list, mcp_access_changes, api_keys_list, oauth_grants_list } from '../../runtime-api/index.ts';
import { activityBody } from '../pages/console/activity.ts';
import { readActivityFilters } from './activity-filters.ts';
import type { PageRequest, PageView } from './page-request.ts';

const PAGE_SIZE = 25;
const CHANGES_PAGE_SIZE = 10;

const cursorOf = (value: unknown): string | undefined => (typeof value === 'string' && value && value.length <= 2048 ? value : undefined);

export async function activityPage(r: PageRequest, admin: boolean): Promise<PageView> {
  const { filters, input, badDate } = readActivityFilters(r.query);
  if (!admin) return { body: activityBody(r.locale, emptyData(filters)) };
  const cursor = cursorOf(r.query.cursor);
  const changesCursor = cursorOf(r.query.changes);
  const [runs, detail, keys, grants, changes] = await Promise.all([
    r.call(executions_list, { ...input, limit: PAGE_SIZE, ...(cursor ? { cursor } : {}) }),
    r.call(org.organization_get, {}),
    r.all(api_keys_list),
    r.all(oauth_grants_list),
    r.call(mcp_access_changes, { limit: CHANGES_PAGE_SIZE, ...(changesCursor ? { cursor: changesCursor } : {}) }),
  ]);
  const apps = new Map<string, string>();
  for (const g of grants as { clientId: string; clientName: string | null }[]) apps.set(g.clientId, g.clientName ?? g.clientId);
  return {
    query: { ...filters, cursor, changes: changesCursor },
    body: activityBody(r.locale, {
      admin,
      filters,
      people: (detail.members as { userId: string; email: string }[]).map((m) => ({ userId: m.userId, email: m.email })),
      keys: (keys as { keyId: string; name: string }[]).map((k) => ({ id: k.keyId, name: k.name })),
      apps: [...apps].map(([clientId, name]) => ({ clientId, name })),
      executions: runs.items,
      next: runs.nextCursor,
      paged: Boolean(cursor),
      changes: changes.items,
      changesNext: changes.nextCursor,
      changesPaged: Boolean(changesCursor),
      badDate,
    }),
  };
}

function emptyData(filters: ReturnType<typeof readActivityFilters>['filters']) {
  return {
    admin: false,
    filters,
    people: [],
    keys: [],
    apps: [],
    executions: [],
    next: null,
    paged: false,
    changes: [],
    changesNext: null,
    changesPaged: false,
    badDate: false,
  };
}
