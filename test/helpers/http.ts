// Small HTTP helpers over undici for tests: JSON in, status + headers + parsed body out.
import { request } from 'undici';

export interface JsonResponse<T = any> {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: T;
  text: string;
}

export async function http<T = any>(
  url: string,
  options: { method?: string; headers?: Record<string, string>; json?: unknown; body?: string | Buffer; token?: string } = {},
): Promise<JsonResponse<T>> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  let body = options.body;
  if (options.json !== undefined) {
    body = JSON.stringify(options.json);
    headers['content-type'] ??= 'application/json';
  }
  const res = await request(url, { method: (options.method ?? (body !== undefined ? 'POST' : 'GET')) as 'GET', headers, body });
  const text = await res.body.text();
  let parsed: unknown = text;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    /* not JSON */
  }
  return { status: res.statusCode, headers: res.headers, body: parsed as T, text };
}
