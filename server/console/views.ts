// What each console page shows, read through the same bindings every other face uses (invoke with the session
// caller): the console computes nothing of its own.
import type Koa from 'koa';
import {
  type Binding,
  type Caller,
  type Locale,
  invokeWholeList,
  invoke,
  organizationBindings as org,
  context,
  executions_list,
  files_list,
  oauth_grants_list,
  mcp_access_get,
  api_keys_list,
} from '../../runtime-api/index.ts';
import { invokeDeps, type AppDeps } from '../deps.ts';
import { CONSOLE_PATHS, renderConsole, texts, type ConsolePageName } from '../pages/console/layout.ts';
import { FRAME, PAGE_TITLES } from '../pages/console/texts.ts';
import { homeBody } from '../pages/console/home.ts';
import { membersBody } from '../pages/console/members.ts';
import { filesBody } from '../pages/console/files.ts';
import { agentsBody } from '../pages/console/agents.ts';
import type { ConsoleSession } from './session.ts';
import type { RefusalChoice } from './actions.ts';

type Call = <B extends Binding>(binding: B, input: unknown) => Promise<any>;

function caller(deps: AppDeps, c: Caller): Call {
  return (binding, input) => invoke(binding, input, c, invokeDeps(deps));
}

const NO_ORGANIZATION = (locale: Locale) => {
  const t = texts(locale);
  return `<section><p>${t(FRAME.chooseOrganization)} <a href="${CONSOLE_PATHS.home}?lang=${locale}">${t(FRAME.goHome)}</a></p></section>`;
};

export interface PageExtras {
  notice?: string;
  error?: string;
  status?: number;
  newKey?: { name: string; key: string };
  /** A refused action that asks the person to choose (shown beside the row it concerns). */
  choice?: RefusalChoice;
}

async function pageBody(deps: AppDeps, page: ConsolePageName, s: ConsoleSession, locale: Locale, extra: PageExtras): Promise<string> {
  const call = caller(deps, s.caller);
  // Pages show whole lists (an organization's keys, grants, invitations): every page of the list binding.
  const all = (binding: Binding) => invokeWholeList(binding, {}, s.caller, invokeDeps(deps)) as Promise<any[]>;
  const membership = s.caller.membership;
  if (page === 'home') {
    const [organizations, invitations] = await Promise.all([all(org.organizations_list), all(org.invitations_received)]);
    return homeBody(locale, s.csrf, { email: s.caller.email, activeOrganizationId: membership?.orgId ?? null, organizations, invitations });
  }
  if (!membership) return NO_ORGANIZATION(locale);
  const admin = membership.role !== 'member';
  if (page === 'members') {
    const [detail, invitations] = await Promise.all([call(org.organization_get, {}), admin ? all(org.invitations_list) : null]);
    return membersBody(locale, s.csrf, { viewerRole: membership.role, viewerUserId: s.caller.userId, members: detail.members, invitations });
  }
  if (page === 'agents') {
    if (!admin) return agentsBody(locale, s.csrf, { admin, mcp: null, grants: [], keys: null });
    const [mcp, grants, keys] = await Promise.all([call(mcp_access_get, {}), all(oauth_grants_list), all(api_keys_list)]);
    return agentsBody(locale, s.csrf, { admin, mcp, grants, keys, ...(extra.newKey ? { newKey: extra.newKey } : {}) });
  }
  const [ctxInfo, detail, runs, trash] = await Promise.all([
    call(context, {}),
    call(org.organization_get, {}),
    admin ? call(executions_list, { limit: 20 }) : null,
    call(files_list, { state: 'trashed', limit: 200 }),
  ]);
  const emails = new Map<string, string>(detail.members.map((m: { userId: string; email: string }) => [m.userId, m.email]));
  return filesBody(locale, s.csrf, {
    usedBytes: ctxInfo.limits.storageUsedBytes,
    quotaBytes: ctxInfo.limits.storageQuotaBytes,
    trashRetentionDays: ctxInfo.limits.trashRetentionDays,
    executions: runs
      ? runs.items.map((e: { createdAt: string; userId: string; via: string; ok: boolean; errorCode: string | null; wallMs: number }) => ({
          when: e.createdAt,
          who: emails.get(e.userId) ?? e.userId,
          via: e.via,
          ok: e.ok,
          errorCode: e.errorCode,
          wallMs: e.wallMs,
        }))
      : null,
    trash: trash.items,
    ...(extra.choice?.restore ? { restoreChoice: extra.choice.restore } : {}),
  });
}

/** Render a console page for the signed-in session, with an optional notice or error (and its status). */
export async function showConsolePage(
  deps: AppDeps,
  ctx: Koa.Context,
  page: ConsolePageName,
  s: ConsoleSession,
  locale: Locale,
  extra: PageExtras = {},
): Promise<void> {
  const body = await pageBody(deps, page, s, locale, extra);
  const organizationName = s.caller.membership ? ((await caller(deps, s.caller)(context, {})).organization.name as string) : null;
  const { newKey: _shownInBody, choice: _alsoInBody, ...frame } = extra;
  renderConsole(ctx, { locale, page, title: PAGE_TITLES[page][locale], email: s.caller.email, csrf: s.csrf, organizationName, ...frame }, body);
}
