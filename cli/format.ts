// Output for people: sizes, durations and aligned tables (plain text, no colours, so it pipes cleanly).

export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  const units = ['KiB', 'MiB', 'GiB', 'TiB'];
  let v = n;
  let i = -1;
  do {
    v /= 1024;
    i++;
  } while (v >= 1024 && i < units.length - 1);
  return `${v >= 100 ? v.toFixed(0) : v.toFixed(1)} ${units[i]}`;
}

export function formatDuration(seconds: number): string {
  if (!Number.isFinite(seconds) || seconds < 0) return '--:--';
  const s = Math.round(seconds);
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const r = String(s % 60).padStart(2, '0');
  return h ? `${h}:${String(m).padStart(2, '0')}:${r}` : `${m}:${r}`;
}

/** Terminal width of a string: counts code points, which is right for the names this prints in practice. */
const width = (s: string) => [...s].length;

/** Columns separated by two spaces; numbers (right: true) aligned right. Control characters are made visible. */
export function table(headers: string[], rows: string[][], right: boolean[] = []): string {
  const clean = (s: string) => s.replace(/[\u0000-\u001f\u007f-\u009f]/g, '?');
  const all = [headers, ...rows.map((r) => r.map(clean))];
  const widths = headers.map((_, i) => Math.max(...all.map((r) => width(r[i] ?? ''))));
  return all
    .map((r) =>
      r
        .map((cell, i) => {
          const pad = ' '.repeat(widths[i] - width(cell ?? ''));
          if (i === r.length - 1 && !right[i]) return cell;
          return right[i] ? pad + cell : cell + pad;
        })
        .join('  '),
    )
    .join('\n');
}

/** A date as `YYYY-MM-DD HH:MM` UTC. */
export function shortDate(iso: string | null | undefined): string {
  if (!iso) return '-';
  return iso.replace('T', ' ').slice(0, 16);
}
