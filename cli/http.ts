// The CLI's HTTP client: one base URL, the locale header, a Bearer token from a TokenSource (refreshed once on a
// 401), 429/503 answers waited out as Retry-After says, and every error body turned into a CliError.
import type { Dispatcher } from 'undici';
import type { Readable } from 'node:stream';
import { CliError, errorFromBody } from './errors.ts';
import { lang, t } from './i18n.ts';

export interface TokenSource {
  /** A token to send now (refreshed first if it is about to expire). */
  get(): Promise<string>;
  /** The server refused `rejected`: get a new one if possible, else null. */
  renew(rejected: string): Promise<string | null>;
}

export interface CallOptions {
  method?: Dispatcher.HttpMethod;
  headers?: Record<string, string>;
  json?: unknown;
  form?: Record<string, string>;
  body?: Buffer | string | Readable | (() => Buffer | string | Readable);
  /** Send the Bearer token (default true when the client has a token source). */
  auth?: boolean;
  /** Statuses handed back to the caller instead of thrown. */
  accept?: number[];
  signal?: AbortSignal;
  /** How many 429/503 answers to wait out before giving up (default 5). */
  retries?: number;
}

export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Dispatcher.ResponseData['body'];
}

// undici is most of the CLI's code by size: loaded on the first request, so `--help` and usage errors never parse it.
let undici: Promise<typeof import('./undici.ts')> | null = null;
const httpRequest: typeof import('undici').request = async (...args) => (await (undici ??= import('./undici.ts'))).request(...args);

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        reject(signal.reason);
      },
      { once: true },
    );
  });

export function header(res: { headers: RawResponse['headers'] }, name: string): string | undefined {
  const v = res.headers[name.toLowerCase()];
  return Array.isArray(v) ? v[0] : v;
}

/** Seconds to wait from a Retry-After header (delta-seconds or an HTTP date), capped at a minute. */
export function retryAfterSeconds(value: string | undefined): number {
  if (!value) return 1;
  const n = Number(value);
  const s = Number.isFinite(n) ? n : (Date.parse(value) - Date.now()) / 1000;
  return Math.min(60, Math.max(1, Math.ceil(Number.isFinite(s) ? s : 1)));
}

function errorFromText(status: number, text: string): CliError {
  let parsed: unknown = null;
  try {
    parsed = JSON.parse(text);
  } catch {
    /* not JSON */
  }
  return errorFromBody(status, parsed);
}

export class Api {
  readonly server: string;
  readonly tokens: TokenSource | null;
  /** Told about waits (rate limits) so the command can show them. */
  onNotice: (text: string) => void = () => {};
  /** HTTP requests sent so far (retries included): what `--verbose` reports against the rate limit. */
  requests = 0;

  constructor(server: string, tokens: TokenSource | null) {
    this.server = server.replace(/\/+$/, '');
    this.tokens = tokens;
  }

  url(path: string): string {
    return /^https?:\/\//.test(path) ? path : `${this.server}${path}`;
  }

  /** A request whose body is read as the caller likes (streams); errors outside `accept` are thrown. */
  async raw(path: string, options: CallOptions = {}): Promise<RawResponse> {
    const useAuth = options.auth ?? this.tokens !== null;
    let token = useAuth && this.tokens ? await this.tokens.get() : null;
    let renewed = false;
    for (let attempt = 0; ; attempt++) {
      const headers: Record<string, string> = { 'x-service-locale': lang(), 'user-agent': 'siglata-cli', ...options.headers };
      if (token) headers.authorization = `Bearer ${token}`;
      let body: Buffer | string | Readable | undefined;
      if (options.json !== undefined) {
        headers['content-type'] = 'application/json';
        body = JSON.stringify(options.json);
      } else if (options.form) {
        headers['content-type'] = 'application/x-www-form-urlencoded';
        body = new URLSearchParams(options.form).toString();
      } else if (options.body !== undefined) {
        body = typeof options.body === 'function' ? options.body() : options.body;
      }
      let res: Dispatcher.ResponseData;
      this.requests++;
      try {
        res = await httpRequest(this.url(path), { method: options.method ?? (body === undefined ? 'GET' : 'POST'), headers, body, signal: options.signal });
      } catch (err) {
        if (options.signal?.aborted) throw err;
        const detail = (err as NodeJS.ErrnoException).code ?? (err as Error).message;
        throw new CliError('network_error', t('network', { server: this.server, detail }), { resolution: t('networkHelp') });
      }
      const out: RawResponse = { status: res.statusCode, headers: res.headers, body: res.body };
      if (options.accept?.includes(res.statusCode) || (res.statusCode >= 200 && res.statusCode < 300)) return out;
      if (res.statusCode === 401 && token && !renewed && this.tokens) {
        const text = await res.body.text().catch(() => '');
        renewed = true;
        const next = await this.tokens.renew(token);
        if (next) {
          token = next;
          continue;
        }
        throw errorFromText(res.statusCode, text);
      }
      // A body that is a stream cannot be sent twice; a function rebuilds it.
      const replayable = options.body === undefined || typeof options.body === 'function' || typeof options.body === 'string' || Buffer.isBuffer(options.body);
      if ((res.statusCode === 429 || res.statusCode === 503) && attempt < (options.retries ?? 5) && replayable) {
        const seconds = retryAfterSeconds(header(out, 'retry-after'));
        await res.body.dump();
        this.onNotice(t('waitingRateLimit', { seconds }));
        await sleep(seconds * 1000, options.signal);
        continue;
      }
      return this.fail(out);
    }
  }

  private async fail(res: RawResponse): Promise<never> {
    throw errorFromText(res.status, await res.body.text().catch(() => ''));
  }

  /** A JSON request and its parsed JSON answer. */
  async json<T = any>(path: string, options: CallOptions = {}): Promise<{ status: number; body: T; headers: RawResponse['headers'] }> {
    const res = await this.raw(path, options);
    const text = await res.body.text();
    let body: unknown = null;
    if (text) {
      try {
        body = JSON.parse(text);
      } catch {
        throw new CliError('http_error', t('badResponse', { status: res.status }), { resolution: t('badResponseHelp'), status: res.status });
      }
    }
    return { status: res.status, body: body as T, headers: res.headers };
  }
}
