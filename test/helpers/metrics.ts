// Reading a Prometheus scrape in tests: one sample's value, a metric's declared type, and the scrape itself.
import type { TestApp } from './app.ts';
import { http } from './http.ts';

/** The value of one sample (labels in any order), 0 when absent. */
export function sample(text: string, name: string, labels: Record<string, string> = {}): number {
  for (const line of text.split('\n')) {
    const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!m || m[1] !== name) continue;
    const got = Object.fromEntries([...(m[2] ?? '').matchAll(/([a-zA-Z_]+)="((?:[^"\\]|\\.)*)"/g)].map((x) => [x[1], x[2]]));
    if (Object.entries(labels).every(([k, v]) => got[k] === v)) return Number(m[3]);
  }
  return 0;
}

export const typeOf = (text: string, name: string) => new RegExp(`^# TYPE ${name} (\\w+)$`, 'm').exec(text)?.[1];

/** GET /metrics on the main port with the app's METRICS_TOKEN. */
export async function scrape(app: TestApp): Promise<string> {
  const res = await http(`${app.url}/metrics`, { headers: { authorization: `Bearer ${app.config.metrics.token}` } });
  if (res.status !== 200) throw new Error(`scrape: ${res.status} ${res.text}`);
  return res.text;
}
