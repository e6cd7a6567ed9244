// Binary transfers (spec 4.5): PUT an upload part, GET a file's bytes or an export's archive. All need a Bearer token of an active member
// whose organization's MCP access is not revoked.
import type { AppDeps } from '../../deps.ts';
import type { RouteDef } from '../../http/route.ts';
import { downloadRoute } from './download.ts';
import { exportDownloadRoute } from './export-download.ts';
import { uploadPartRoute } from './upload-part.ts';

export function transferRoutes(deps: AppDeps): RouteDef[] {
  return [uploadPartRoute(deps), downloadRoute(deps), exportDownloadRoute(deps)];
}
