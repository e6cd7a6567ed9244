// The file pages' data: the browser (a folder's subfolders and files, or a search), one file's details, the trash.
import { context, files_list } from '../../runtime-api/index.ts';
import { filesBody, trashBody } from '../pages/console/files.ts';
import type { PageRequest, PageView } from './page-request.ts';

const TRASH_PAGE = 50;

export async function filesPage(r: PageRequest): Promise<PageView> {
  const ctxInfo = await r.call(context, {});
  return {
    body: filesBody(r.locale, r.session.csrf, {
      usedBytes: ctxInfo.limits.storageUsedBytes,
      quotaBytes: ctxInfo.limits.storageQuotaBytes,
    }),
  };
}

export async function filePage(r: PageRequest): Promise<PageView> {
  return filesPage(r);
}

export async function trashPage(r: PageRequest): Promise<PageView> {
  const cursor = typeof r.query.cursor === 'string' && r.query.cursor ? r.query.cursor : undefined;
  const [ctxInfo, trash] = await Promise.all([r.call(context, {}), r.call(files_list, { state: 'trashed', limit: TRASH_PAGE, ...(cursor ? { cursor } : {}) })]);
  return {
    query: { cursor },
    body: trashBody(r.locale, r.session.csrf, {
      trashRetentionDays: ctxInfo.limits.trashRetentionDays,
      trash: trash.items,
      next: trash.nextCursor,
      paged: Boolean(cursor),
    }),
  };
}
