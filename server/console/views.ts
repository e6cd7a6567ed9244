// What each console page shows, read through the same bindings every other face uses (invoke with the session
// caller): the console computes nothing of its own. One loader per page; the file browser's and the activity view's
// live in their own modules.
import type Koa from 'koa';
import {
  type Caller,
  type Locale,
  invokeWholeList,
  invoke,
  organizationBindings as org,
  context,
  oauth_grants_list,
  mcp_access_get,
  api_keys_list,
} from '../../runtime-api/index.ts';
import { invokeDeps, type AppDeps } from '../deps.ts';
import { CONSOLE_PATHS, pageUrl, renderConsole, texts, type ConsolePageName } from '../pages/console/layout.ts';
import { FRAME, PAGE_TITLES } from '../pages/console/texts.ts';
import { homeBody } from '../pages/console/home.ts';
import { membersBody } from '../pages/console/members.ts';
import { agentsBody } from '../pages/console/agents.ts';
import type { PageExtras, PageRequest, PageView } from './page-request.ts';
import type { ConsoleSession } from './session.ts';
import { activityPage } from './activity-view.ts';
import { filesPage, filePage, trashPage } from './files-view.ts';

type Loader = (r: PageRequest) => Promise<PageView>;

const NO_ORGANIZATION = (locale: Locale) => {
  const t = texts(locale);
  return `<section><p>${t(FRAME.chooseOrganization)} <a href="${CONSOLE_PATHS.home}?lang=${locale}">${t(FRAME.goHome)}</a></p></section>`;
};

const isAdmin = (c: Caller) => c.membership !== null && c.membership.role !== 'member';

const LOADERS: Record<ConsolePageName, Loader> = {
  async home(r) {
    const [organizations, invitations] = await Promise.all([r.all(org.organizations_list), r.all(org.invitations_received)]);
    const c = r.session.caller;
    return {
      body: homeBody(r.locale, r.session.csrf, {
        email: c.email,
        activeOrganizationId: c.membership?.orgId ?? null,
        organizations,
        invitations,
        prefill: r.extra.prefill,
      }),
    };
  },
  async members(r) {
    const c = r.session.caller;
    const admin = isAdmin(c);
    const [detail, invitations] = await Promise.all([r.call(org.organization_get, {}), admin ? r.all(org.invitations_list) : null]);
    return {
      body: membersBody(r.locale, r.session.csrf, {
        viewerRole: c.membership!.role,
        viewerUserId: c.userId,
        members: detail.members,
        invitations,
        prefill: r.extra.prefill,
      }),
    };
  },
  async agents(r) {
    const admin = isAdmin(r.session.caller);
    if (!admin) return { body: agentsBody(r.locale, r.session.csrf, { admin, mcp: null, grants: [], keys: null }) };
    const [mcp, grants, keys] = await Promise.all([r.call(mcp_access_get, {}), r.all(oauth_grants_list), r.all(api_keys_list)]);
    return {
      body: agentsBody(r.locale, r.session.csrf, {
        admin,
        mcp,
        grants,
        keys,
        prefill: r.extra.prefill,
        ...(r.extra.newKey ? { newKey: r.extra.newKey } : {}),
      }),
    };
  },
  activity: (r) => activityPage(r, isAdmin(r.session.caller)),
  files: filesPage,
  file: filePage,
  trash: trashPage,
};

/** Render a console page for the signed-in session, with an optional notice or error (and its status). */
export async function showConsolePage(
  deps: AppDeps,
  ctx: Koa.Context,
  page: ConsolePageName,
  session: ConsoleSession,
  locale: Locale,
  extra: PageExtras = {},
  query: Record<string, unknown> = ctx.query,
): Promise<void> {
  const d = invokeDeps(deps);
  const r: PageRequest = {
    deps,
    session,
    locale,
    query,
    extra,
    call: (binding, input) => invoke(binding, input, session.caller, d),
    all: (binding, input = {}) => invokeWholeList(binding, input, session.caller, d) as Promise<any[]>,
  };
  const membership = session.caller.membership;
  const view: PageView = page === 'home' || membership ? await LOADERS[page](r) : { body: NO_ORGANIZATION(locale) };
  if (view.redirect) {
    ctx.status = 303;
    ctx.redirect(pageUrl(page, locale, view.redirect.query));
    return;
  }
  const organizationName = membership ? ((await r.call(context, {})).organization.name as string) : null;
  const { newKey: _shownInBody, prefill: _filledIn, choice: _alsoInBody, ...frame } = extra;
  renderConsole(
    ctx,
    {
      locale,
      page,
      title: view.title ?? PAGE_TITLES[page][locale],
      email: session.caller.email,
      csrf: session.csrf,
      organizationName,
      query: view.query,
      ...(view.notice ? { notice: view.notice } : {}),
      ...frame,
      status: extra.status ?? view.status,
    },
    view.body,
  );
}
