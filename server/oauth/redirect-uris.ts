// Redirect URIs: what a client may register (RFC 7591 + RFC 8252 + RFC 9700 section 2.1) and how an authorization
// request's redirect_uri is matched: exact string comparison, except that the port of an http loopback URI may vary
// (native apps listen on an ephemeral port, RFC 8252 section 7.3).

export const MAX_REDIRECT_URIS = 10;
export const MAX_REDIRECT_URI_LENGTH = 2000;

const LOOPBACK_HOSTS = ['127.0.0.1', '[::1]', 'localhost'];
/** Schemes that never name an app's redirect endpoint (script execution, local files, other protocols). */
const FORBIDDEN_SCHEMES = new Set([
  'javascript',
  'data',
  'vbscript',
  'file',
  'blob',
  'about',
  'filesystem',
  'ftp',
  'ws',
  'wss',
  'mailto',
  'tel',
  'sms',
  'view-source',
  'chrome',
  'chrome-extension-internal',
  'intent',
]);
const LOOPBACK_PATTERN = /^http:\/\/(127\.0\.0\.1|\[::1\]|localhost)(?::(\d{1,5}))?(\/[^?#]*)?(\?[^#]*)?$/;

/** null when the URI may be registered, else the reason. */
export function redirectUriProblem(uri: unknown): string | null {
  if (typeof uri !== 'string' || uri === '') return 'a redirect URI must be a non-empty string';
  if (uri.length > MAX_REDIRECT_URI_LENGTH) return `a redirect URI is at most ${MAX_REDIRECT_URI_LENGTH} characters`;
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u0020\u007f\\]/.test(uri)) return 'a redirect URI may not contain spaces, control characters or backslashes';
  if (uri.includes('#')) return 'a redirect URI may not contain a fragment';
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return `${uri} is not an absolute URI`;
  }
  const scheme = url.protocol.slice(0, -1).toLowerCase();
  if (url.username || url.password) return 'a redirect URI may not carry credentials';
  if (scheme === 'https') return url.hostname ? null : 'an https redirect URI needs a host';
  if (scheme === 'http') {
    return LOOPBACK_PATTERN.test(uri)
      ? null
      : 'plain http is allowed only for loopback redirect URIs (http://127.0.0.1, http://[::1] or http://localhost, any port)';
  }
  if (FORBIDDEN_SCHEMES.has(scheme)) return `the ${scheme}: scheme is not allowed for redirect URIs`;
  if (!/^[a-z][a-z0-9+.-]*$/.test(scheme)) return 'invalid URI scheme';
  return null; // a private-use scheme of a native app (RFC 8252 section 7.1)
}

/** Does the requested redirect_uri match one the client registered? */
export function matchRedirectUri(registered: readonly string[], requested: string): boolean {
  if (registered.includes(requested)) return true;
  const req = LOOPBACK_PATTERN.exec(requested);
  if (!req) return false;
  return registered.some((uri) => {
    const reg = LOOPBACK_PATTERN.exec(uri);
    return !!reg && reg[1] === req[1] && (reg[3] ?? '') === (req[3] ?? '') && (reg[4] ?? '') === (req[4] ?? '');
  });
}

export function isLoopbackHost(host: string): boolean {
  return LOOPBACK_HOSTS.includes(host);
}

/** Append authorization-response parameters to a redirect URI, keeping its own query as it is. */
export function withResponseParams(redirectUri: string, params: Record<string, string | undefined>): string {
  const query = Object.entries(params)
    .filter((e): e is [string, string] => e[1] !== undefined)
    .map(([k, val]) => `${encodeURIComponent(k)}=${encodeURIComponent(val)}`)
    .join('&');
  return `${redirectUri}${redirectUri.includes('?') ? '&' : '?'}${query}`;
}
