// /console: the signed-in web console (server-rendered pages, plain form posts). Thin adapters: pages read through
// the bindings (server/console/views.ts), forms run the actions of server/console/actions.ts. Session cookie only.
import type { AppDeps } from '../../deps.ts';
import type { RouteDef } from '../../http/route.ts';
import { CONSOLE_ACTIONS } from '../../console/actions.ts';
import { CONSOLE_ASSETS, type ConsoleAsset } from '../../pages/console/assets.ts';
import { consolePage } from './page.ts';
import { consoleAction } from './action.ts';
import { consoleSignOut } from './sign-out.ts';
import { consoleAsset } from './asset.ts';
import { consoleActivityCsv } from './activity-csv.ts';
import { CONSOLE_API_BINDINGS, consoleApi } from './api.ts';

export function consoleRoutes(deps: AppDeps): RouteDef[] {
  return [
    consolePage(deps, 'home'),
    consolePage(deps, 'files'),
    consolePage(deps, 'file'),
    consolePage(deps, 'trash'),
    consolePage(deps, 'activity'),
    consoleActivityCsv(deps),
    consolePage(deps, 'members'),
    consolePage(deps, 'agents'),
    ...CONSOLE_ACTIONS.map((a) => consoleAction(deps, a)),
    ...CONSOLE_API_BINDINGS.map((name) => consoleApi(deps, name)),
    consoleSignOut(deps),
    ...(Object.keys(CONSOLE_ASSETS) as ConsoleAsset[]).map(consoleAsset),
  ];
}
