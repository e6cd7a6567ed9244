// Activity: the organization's script executions (who by name, from where, when, how long, how it ended, the
// script's first lines) with filters, paging and a CSV export, and the history of its MCP access. Owners and admins.
import type * as v from 'valibot';
import type { Locale, executions_list, mcp_access_changes } from '../../../runtime-api/index.ts';
import { escapeHtml, pageUrl, table, texts, timeTag } from './layout.ts';
import { ACTIVITY, AGENTS } from './texts.ts';

type Execution = v.InferOutput<(typeof executions_list)['output']>['items'][number];
type Change = v.InferOutput<(typeof mcp_access_changes)['output']>['items'][number];

/** The filters as the page's query carries them (all optional; dates are YYYY-MM-DD in the viewer's time zone). */
export interface ActivityFilters {
  person?: string;
  key?: string;
  app?: string;
  outcome?: string;
  source?: string;
  from?: string;
  to?: string;
  tz?: string;
}

export interface ActivityData {
  admin: boolean;
  filters: ActivityFilters;
  people: { userId: string; email: string }[];
  keys: { id: string; name: string }[];
  apps: { clientId: string; name: string }[];
  executions: Execution[];
  /** The cursor of the next (older) page, and whether this is not the first page. */
  next: string | null;
  paged: boolean;
  changes: Change[];
  changesNext: string | null;
  changesPaged: boolean;
  /** A date filter that could not be read (ignored). */
  badDate: boolean;
}

export function formatDuration(locale: Locale, ms: number): string {
  if (ms < 1000) return `${new Intl.NumberFormat(locale).format(ms)} ms`;
  return `${new Intl.NumberFormat(locale, { maximumFractionDigits: 1 }).format(ms / 1000)} s`;
}

function options(selected: string | undefined, all: string, items: readonly { value: string; label: string }[]): string {
  return `<option value="">${all}</option>${items
    .map((i) => `<option value="${escapeHtml(i.value)}"${i.value === selected ? ' selected' : ''}>${escapeHtml(i.label)}</option>`)
    .join('')}`;
}

function filtersForm(locale: Locale, d: ActivityData): string {
  const t = texts(locale);
  const f = d.filters;
  const select = (name: string, label: string, inner: string) => `<label>${label} <select name="${name}" id="filter-${name}">${inner}</select></label>`;
  const named = (table: Record<string, { 'en-US': string; 'pt-BR': string }>) => Object.keys(table).map((k) => ({ value: k, label: table[k][locale] }));
  return `<form method="get" action="/console/activity" class="toolbar" aria-label="${t(ACTIVITY.filters)}">
<input type="hidden" name="lang" value="${locale}"><input type="hidden" name="tz" value="${escapeHtml(f.tz ?? '')}" data-time-zone>
${select(
  'person',
  t(ACTIVITY.person),
  options(
    f.person,
    t(ACTIVITY.anyone),
    d.people.map((p) => ({ value: p.userId, label: p.email })),
  ),
)}
${select(
  'key',
  t(ACTIVITY.key),
  options(
    f.key,
    t(ACTIVITY.anyKey),
    d.keys.map((k) => ({ value: k.id, label: k.name })),
  ),
)}
${select(
  'app',
  t(ACTIVITY.app),
  options(
    f.app,
    t(ACTIVITY.anyApp),
    d.apps.map((a) => ({ value: a.clientId, label: a.name })),
  ),
)}
${select(
  'outcome',
  t(ACTIVITY.outcome),
  options(f.outcome, t(ACTIVITY.anyOutcome), [
    { value: 'succeeded', label: ACTIVITY.succeeded[locale] },
    { value: 'failed', label: ACTIVITY.failed[locale] },
  ]),
)}
${select('source', t(ACTIVITY.source), options(f.source, t(ACTIVITY.anySource), named(ACTIVITY.sources)))}
<label>${t(ACTIVITY.fromDate)} <input type="date" name="from" id="filter-from" value="${escapeHtml(f.from ?? '')}"></label>
<label>${t(ACTIVITY.toDate)} <input type="date" name="to" id="filter-to" value="${escapeHtml(f.to ?? '')}"></label>
<span class="actions"><button type="submit">${t(ACTIVITY.apply)}</button> <a href="${pageUrl('activity', locale)}">${t(ACTIVITY.clear)}</a></span>
</form>
<p class="note">${t(ACTIVITY.timesNote)} ${t(ACTIVITY.excerptNote)}</p>`;
}

function who(locale: Locale, e: Execution): string {
  const t = texts(locale);
  const kind = `<span class="badge">${t(ACTIVITY.callerKinds[e.caller.kind])}</span>`;
  const forWhom = e.caller.kind !== 'person' && e.userEmail ? `<br><span class="note">${t(ACTIVITY.actingFor(e.userEmail))}</span>` : '';
  return `${kind} ${escapeHtml(e.caller.name)}${forWhom}`;
}

function script(locale: Locale, e: Execution): string {
  const t = texts(locale);
  if (e.scriptExcerpt === null) return `<span class="note">${t(ACTIVITY.notRecorded)}</span>`;
  const shown = e.scriptExcerpt.split('\n').length;
  const more = e.scriptLines !== null && e.scriptLines > shown ? `<span class="note">${t(ACTIVITY.moreLines(e.scriptLines - shown))}</span>` : '';
  return `<pre class="excerpt" tabindex="0"><code>${escapeHtml(e.scriptExcerpt)}</code></pre>${more}`;
}

function outcome(locale: Locale, e: Execution): string {
  const t = texts(locale);
  if (e.ok) return `<span class="badge ok">${t(ACTIVITY.succeeded)}</span>`;
  const why = [e.errorType, e.errorCode].filter((x): x is string => Boolean(x) && x !== 'tool_error');
  const code = why.length ? ` <code>${escapeHtml([...new Set(why)].join(' · '))}</code>` : '';
  const message = e.errorMessage
    ? `<br><span class="note">${escapeHtml(e.errorMessage)}${e.errorLine ? ` (${t(ACTIVITY.atLine(e.errorLine))})` : ''}</span>`
    : '';
  return `<span class="badge failed">${t(ACTIVITY.failed)}</span>${code}${message}`;
}

function executionsTable(locale: Locale, d: ActivityData): string {
  const t = texts(locale);
  const filtered = Object.entries(d.filters).some(([k, val]) => k !== 'tz' && val);
  if (!d.executions.length) return `<p class="note">${t(filtered || d.paged ? ACTIVITY.noMatch : ACTIVITY.noRuns)}</p>`;
  const rows = d.executions.map((e) => [
    timeTag(e.createdAt),
    who(locale, e),
    `${t(ACTIVITY.sources[e.source])}${e.mode !== 'run' ? ` · ${t(ACTIVITY.modes[e.mode])}` : ''}`,
    script(locale, e),
    formatDuration(locale, e.wallMs),
    outcome(locale, e),
  ]);
  return table(
    [
      { label: t(ACTIVITY.when) },
      { label: t(ACTIVITY.who) },
      { label: t(ACTIVITY.source) },
      { label: t(ACTIVITY.script) },
      { label: t(ACTIVITY.duration), num: true },
      { label: t(ACTIVITY.outcome) },
    ],
    rows,
    { id: 'executions' },
  );
}

function scopesChange(locale: Locale, c: Change): string {
  const t = texts(locale);
  const list = (s: readonly string[]) => (s.length ? s.map((x) => `<code>${escapeHtml(x)}</code>`).join(' ') : `<em>${t(ACTIVITY.none)}</em>`);
  const same = c.fromMaxScopes.length === c.toMaxScopes.length && c.fromMaxScopes.every((s) => c.toMaxScopes.includes(s));
  return same ? `<span class="note">${t(ACTIVITY.unchanged)}</span> (${list(c.toMaxScopes)})` : `${list(c.fromMaxScopes)} → ${list(c.toMaxScopes)}`;
}

function changesTable(locale: Locale, d: ActivityData): string {
  const t = texts(locale);
  if (!d.changes.length) return `<p class="note">${t(ACTIVITY.noChanges)}</p>`;
  const state = (s: string) => (AGENTS.mcpStates[s] ? t(AGENTS.mcpStates[s]) : escapeHtml(s));
  return table(
    [{ label: t(ACTIVITY.when) }, { label: t(ACTIVITY.who) }, { label: t(ACTIVITY.state) }, { label: t(ACTIVITY.maxScopes) }],
    d.changes.map((c) => [
      timeTag(c.at),
      escapeHtml(c.userEmail ?? c.userId),
      c.fromState === c.toState ? `${state(c.toState)} <span class="note">(${t(ACTIVITY.unchanged)})</span>` : `${state(c.fromState)} → ${state(c.toState)}`,
      scopesChange(locale, c),
    ]),
    { id: 'mcp-changes' },
  );
}

export function activityBody(locale: Locale, d: ActivityData): string {
  const t = texts(locale);
  if (!d.admin) return `<section><p>${t(ACTIVITY.adminsOnly)}</p></section>`;
  const query = { ...d.filters } as Record<string, string | undefined>;
  const csvQuery = new URLSearchParams();
  for (const [k, val] of Object.entries(query)) if (val) csvQuery.set(k, val);
  csvQuery.set('lang', locale);
  const csv = `/console/activity/executions.csv?${csvQuery}`;
  const pager = (next: string | null, paged: boolean, cursorName: string, olderText: string, newestText: string, extra: Record<string, string | undefined>) => {
    const older = next ? `<a href="${escapeHtml(pageUrl('activity', locale, { ...extra, [cursorName]: next }))}" rel="next">${olderText}</a>` : '<span></span>';
    const newest = paged ? `<a href="${escapeHtml(pageUrl('activity', locale, extra))}">${newestText}</a>` : '<span></span>';
    return next || paged ? `<nav class="pager" aria-label="${olderText}">${newest}${older}</nav>` : '';
  };
  return `<section aria-labelledby="runs"><h2 id="runs">${t(ACTIVITY.executions)}</h2>
${filtersForm(locale, d)}
${d.badDate ? `<p class="warning" role="status">${t(ACTIVITY.badDate)}</p>` : ''}
<p><a href="${escapeHtml(csv)}" download>${t(ACTIVITY.exportCsv)}</a></p>
${executionsTable(locale, d)}
${pager(d.next, d.paged, 'cursor', t(ACTIVITY.older), t(ACTIVITY.newest), query)}</section>
<section aria-labelledby="mcp-history"><h2 id="mcp-history">${t(ACTIVITY.mcpChanges)}</h2>
${changesTable(locale, d)}
${pager(d.changesNext, d.changesPaged, 'changes', t(ACTIVITY.olderChanges), t(ACTIVITY.newestChanges), query)}</section>`;
}
