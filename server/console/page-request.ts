// What a console page's loader is given (the request, the session, the bindings to read through) and what it gives
// back (its body, and the query that reproduces it).
import type { Binding, Locale } from '../../runtime-api/index.ts';
import type { AppDeps } from '../deps.ts';
import type { Prefill } from '../pages/console/layout.ts';
import type { ConsoleSession } from './session.ts';

export interface PageExtras {
  notice?: string;
  error?: string;
  errorAction?: string;
  warning?: string;
  status?: number;
  newKey?: { name: string; key: string };
  /** A refused action that asks the person to choose (shown beside the row it concerns). */
  choice?: { restore: { fileId: string; path: string; existingFileId: string } };
  prefill?: Prefill;
}

export interface PageRequest {
  deps: AppDeps;
  session: ConsoleSession;
  locale: Locale;
  /** The page's query (a failed form passes the fields that name what the page shows, e.g. a file's id). */
  query: Record<string, unknown>;
  extra: PageExtras;
  call<B extends Binding>(binding: B, input: unknown): Promise<any>;
  /** Every page of a list binding. */
  all(binding: Binding, input?: Record<string, unknown>): Promise<any[]>;
}

export interface PageView {
  body: string;
  /** The query that reproduces this view (the language switch and a failed form's address keep it). */
  query?: Record<string, string | undefined>;
  /** A title naming what is shown (a file's name), instead of the page's. */
  title?: string;
  status?: number;
  /** A notice the view itself gives (e.g. uploads done, which no form posted). */
  notice?: string;
  /** Go to this view of the same page instead (303), e.g. the folder a "new folder" form names. */
  redirect?: { query: Record<string, string> };
}
