// The activity view's filters, read from a page's query (lenient: a value that cannot be read is dropped, never an
// error page) and turned into executions_list's input. Dates are days in the viewer's time zone (`tz`, which the
// console's script fills in; UTC without it): `from` is that day's first instant, `to` includes the whole day.
import type { ActivityFilters } from '../pages/console/activity.ts';

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

export function validTimeZone(tz: string | undefined): string | null {
  if (!tz || tz.length > 64) return null;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: tz });
    return tz;
  } catch {
    return null;
  }
}

/** How far `tz` is ahead of UTC at `at`, in milliseconds. */
function offsetAt(at: number, tz: string): number {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-US', {
      timeZone: tz,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    })
      .formatToParts(new Date(at))
      .map((p) => [p.type, p.value]),
  );
  const local = Date.UTC(Number(parts.year), Number(parts.month) - 1, Number(parts.day), Number(parts.hour), Number(parts.minute), Number(parts.second));
  return local - Math.floor(at / 1000) * 1000;
}

/** The first instant of `day` (YYYY-MM-DD) in `tz`, `plusDays` later; null when `day` is not a real date. */
export function startOfDay(day: string, tz: string, plusDays = 0): Date | null {
  const m = DAY.exec(day);
  if (!m) return null;
  const utc = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]) + plusDays);
  const check = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  if (check.getUTCFullYear() !== Number(m[1]) || check.getUTCMonth() !== Number(m[2]) - 1 || check.getUTCDate() !== Number(m[3])) return null;
  // Twice: the offset at the guessed instant may differ from the one at the answer across a daylight-saving change.
  const first = utc - offsetAt(utc, tz);
  return new Date(utc - offsetAt(first, tz));
}

const pick = (value: unknown, allowed?: readonly string[]): string | undefined => {
  if (typeof value !== 'string' || !value || value.length > 128) return undefined;
  return !allowed || allowed.includes(value) ? value : undefined;
};

export interface ReadFilters {
  filters: ActivityFilters;
  /** executions_list's filter arguments. */
  input: Record<string, string>;
  badDate: boolean;
}

export function readActivityFilters(query: Record<string, unknown>): ReadFilters {
  const zone = validTimeZone(pick(query.tz));
  const tz = zone ?? 'UTC';
  const filters: ActivityFilters = {
    person: pick(query.person),
    key: pick(query.key),
    app: pick(query.app),
    outcome: pick(query.outcome, ['succeeded', 'failed']),
    source: pick(query.source, ['mcp', 'rest', 'cli']),
    from: pick(query.from),
    to: pick(query.to),
    tz: zone ?? undefined,
  };
  const input: Record<string, string> = {};
  if (filters.person) input.userId = filters.person;
  if (filters.key) input.keyId = filters.key;
  if (filters.app) input.clientId = filters.app;
  if (filters.outcome) input.outcome = filters.outcome;
  if (filters.source) input.source = filters.source;
  let badDate = false;
  if (filters.from) {
    const from = startOfDay(filters.from, tz);
    if (from) input.from = from.toISOString();
    else [badDate, filters.from] = [true, undefined];
  }
  if (filters.to) {
    const to = startOfDay(filters.to, tz, 1);
    if (to) input.to = to.toISOString();
    else [badDate, filters.to] = [true, undefined];
  }
  return { filters, input, badDate };
}
