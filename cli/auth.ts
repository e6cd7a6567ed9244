// Signing in as a native app (RFC 8252): discovery, dynamic registration, authorization code + PKCE with a
// loopback redirect, tokens kept in the config directory and refreshed when they are about to expire.
import { createServer, type Server } from 'node:http';
import { createHash, randomBytes } from 'node:crypto';
import { spawn } from 'node:child_process';
import { Api, type TokenSource } from './http.ts';
import { CliError } from './errors.ts';
import { t } from './i18n.ts';
import { loadLogin, removeLogin, saveLogin, withCredentialsLock, type StoredLogin } from './config.ts';

export const DEFAULT_SCOPES = 'files:read files:write org:read org:admin offline_access';
/** Refresh this long before the access token expires, so a long upload does not meet a dead token mid-part. */
const REFRESH_MARGIN_MS = 120_000;

interface ServerMetadata {
  issuer: string;
  authorization_endpoint: string;
  token_endpoint: string;
  registration_endpoint?: string;
  revocation_endpoint?: string;
}

/** The MCP resource's protected-resource metadata names the authorization server; its metadata names endpoints. */
export async function discover(api: Api): Promise<{ resource: string; metadata: ServerMetadata }> {
  let resource = `${api.server}/v1/mcp`;
  let issuer = api.server;
  const prm = await api.json('/.well-known/oauth-protected-resource/v1/mcp', { auth: false, accept: [404] });
  if (prm.status === 200 && prm.body) {
    if (typeof prm.body.resource === 'string') resource = prm.body.resource;
    if (Array.isArray(prm.body.authorization_servers) && typeof prm.body.authorization_servers[0] === 'string') issuer = prm.body.authorization_servers[0];
  }
  const issuerUrl = new URL(issuer);
  const path = issuerUrl.pathname === '/' ? '' : issuerUrl.pathname;
  const meta = await api.json<ServerMetadata>(`${issuerUrl.origin}/.well-known/oauth-authorization-server${path}`, { auth: false });
  if (!meta.body?.authorization_endpoint || !meta.body?.token_endpoint) {
    throw new CliError('http_error', t('badResponse', { status: meta.status }), { resolution: t('badResponseHelp') });
  }
  return { resource, metadata: meta.body };
}

function pkcePair() {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

interface CallbackResult {
  code?: string;
  state?: string;
  iss?: string;
  error?: string;
  errorDescription?: string;
}

/** Listen on 127.0.0.1 for the one redirect that ends the sign-in. */
async function loopbackListener(port: number): Promise<{ server: Server; redirectUri: string; result: Promise<CallbackResult> }> {
  let deliver!: (r: CallbackResult) => void;
  const result = new Promise<CallbackResult>((resolve) => {
    deliver = resolve;
  });
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (url.pathname !== '/callback') {
      res.writeHead(404).end();
      return;
    }
    const p = url.searchParams;
    const got: CallbackResult = {
      code: p.get('code') ?? undefined,
      state: p.get('state') ?? undefined,
      iss: p.get('iss') ?? undefined,
      error: p.get('error') ?? undefined,
      errorDescription: p.get('error_description') ?? undefined,
    };
    const text = got.error ? t('callbackFailed', { error: got.error }) : t('callbackDone');
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
    res.end(`<!doctype html><meta charset="utf-8"><title>Siglata</title><p>${text.replace(/[<&>"]/g, (c) => `&#${c.charCodeAt(0)};`)}</p>`);
    deliver(got);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', resolve);
  });
  const actual = (server.address() as { port: number }).port;
  return { server, redirectUri: `http://127.0.0.1:${actual}/callback`, result };
}

/** Best effort: a desktop session gets its browser opened; anything else just reads the printed address. */
function openBrowser(url: string): void {
  const cmd =
    process.env.BROWSER ||
    (process.platform === 'darwin' ? 'open' : process.platform === 'win32' ? null : process.env.DISPLAY || process.env.WAYLAND_DISPLAY ? 'xdg-open' : null);
  if (!cmd) return;
  try {
    const child = spawn(cmd, [url], { stdio: 'ignore', detached: true });
    child.on('error', () => {});
    child.unref();
  } catch {
    /* the printed address still works */
  }
}

export interface LoginOptions {
  scope?: string;
  port?: number;
  browser: boolean;
  timeoutMs?: number;
  print: (line: string) => void;
}

export async function login(api: Api, options: LoginOptions): Promise<StoredLogin> {
  const { resource, metadata } = await discover(api);
  const listener = await loopbackListener(options.port ?? 0);
  try {
    const previous = await loadLogin(api.server);
    let clientId = previous?.issuer === metadata.issuer ? previous.clientId : null;
    if (!clientId) {
      if (!metadata.registration_endpoint) throw new CliError('http_error', t('badResponse', { status: 404 }), { resolution: t('badResponseHelp') });
      const reg = await api.json(metadata.registration_endpoint, {
        auth: false,
        // Loopback redirects may use any port later (RFC 8252 7.3), so one registration serves every login.
        json: {
          client_name: 'Siglata CLI',
          redirect_uris: [listener.redirectUri],
          grant_types: ['authorization_code', 'refresh_token'],
          response_types: ['code'],
          token_endpoint_auth_method: 'none',
        },
      });
      clientId = String(reg.body.client_id);
    }
    const pair = pkcePair();
    const state = randomBytes(16).toString('base64url');
    const url = new URL(metadata.authorization_endpoint);
    url.search = new URLSearchParams({
      response_type: 'code',
      client_id: clientId,
      redirect_uri: listener.redirectUri,
      code_challenge: pair.challenge,
      code_challenge_method: 'S256',
      state,
      scope: options.scope ?? DEFAULT_SCOPES,
      resource,
    }).toString();
    options.print(t('openUrl'));
    options.print(url.toString());
    options.print(t('waiting', { redirect: listener.redirectUri }));
    if (options.browser) openBrowser(url.toString());

    const timeoutMs = options.timeoutMs ?? 300_000;
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new CliError('login_timeout', t('loginTimeout', { minutes: Math.round(timeoutMs / 60_000) }), { resolution: t('loginTimeoutHelp') })),
        timeoutMs,
      );
    });
    const answer = await Promise.race([listener.result, timeout]).finally(() => clearTimeout(timer));
    if (answer.state !== state) throw new CliError('invalid_state', t('loginStateMismatch'), { resolution: t('loginTimeoutHelp') });
    if (answer.error || !answer.code) {
      throw new CliError(
        answer.error ?? 'access_denied',
        t('loginDenied', { error: answer.error ?? 'no code' }) + (answer.errorDescription ? `: ${answer.errorDescription}` : ''),
        { resolution: t('loginDeniedHelp') },
      );
    }
    // RFC 9207: the answer must come from the server we asked.
    if (answer.iss && answer.iss !== metadata.issuer) throw new CliError('invalid_issuer', t('loginStateMismatch'), { resolution: t('loginTimeoutHelp') });
    const tokens = await api.json(metadata.token_endpoint, {
      auth: false,
      form: {
        grant_type: 'authorization_code',
        code: answer.code,
        code_verifier: pair.verifier,
        client_id: clientId,
        redirect_uri: listener.redirectUri,
        resource,
      },
    });
    const stored: StoredLogin = {
      server: api.server,
      issuer: metadata.issuer,
      tokenEndpoint: metadata.token_endpoint,
      revocationEndpoint: metadata.revocation_endpoint ?? null,
      resource,
      clientId,
      accessToken: tokens.body.access_token,
      refreshToken: tokens.body.refresh_token ?? null,
      expiresAt: Date.now() + Number(tokens.body.expires_in ?? 3600) * 1000,
      scope: String(tokens.body.scope ?? ''),
    };
    await saveLogin(stored);
    return stored;
  } finally {
    listener.server.close();
    listener.server.closeAllConnections();
  }
}

/**
 * Why the authorization server refused the refresh: an owner or admin cut this sign-in off (its grant revoked, the
 * person no longer a member, the organization's MCP access revoked), which signing in again may not cure, or the
 * sign-in simply ran out (refresh token expired or unknown).
 */
function endedError(server: string, body: unknown): CliError {
  const b = (body && typeof body === 'object' ? body : {}) as { error?: unknown; error_description?: unknown };
  const why = typeof b.error_description === 'string' ? b.error_description : '';
  if (b.error === 'invalid_grant' && /revoked|no longer a member/i.test(why) && !/already used/i.test(why)) {
    return new CliError('access_revoked', t('accessRevoked', { server, why }), { resolution: t('accessRevokedHelp'), status: 401 });
  }
  return new CliError('SESSION_EXPIRED', t('sessionEnded'), { resolution: t('sessionEndedHelp'), status: 401 });
}

/** Tokens from the stored sign-in, refreshed (and the rotated refresh token saved) when needed. */
export function storedTokens(server: string, initial: StoredLogin): TokenSource {
  let login = initial;
  let refreshing: Promise<string | null> | null = null;
  const plain = new Api(server, null);

  // One refresh at a time: parallel part uploads share it (a rotated refresh token is single-use).
  const refresh = () =>
    (refreshing ??= withCredentialsLock(async () => {
      // Another siglata process may have refreshed meanwhile: its tokens are the live ones.
      const latest = await loadLogin(server);
      if (latest && latest.refreshToken !== login.refreshToken) {
        login = latest;
        if (login.expiresAt - REFRESH_MARGIN_MS > Date.now()) return login.accessToken;
      }
      if (!login.refreshToken) return null;
      const res = await plain.json(login.tokenEndpoint, {
        auth: false,
        accept: [400, 401],
        form: { grant_type: 'refresh_token', refresh_token: login.refreshToken, client_id: login.clientId, resource: login.resource },
      });
      if (res.status !== 200) {
        // The tokens are dead either way, but the server stays the current one, so the `siglata login` the
        // resolution suggests finds it without --server.
        await removeLogin(server, { keepCurrent: true });
        throw endedError(server, res.body);
      }
      login = {
        ...login,
        accessToken: res.body.access_token,
        refreshToken: res.body.refresh_token ?? login.refreshToken,
        expiresAt: Date.now() + Number(res.body.expires_in ?? 3600) * 1000,
        scope: String(res.body.scope ?? login.scope),
      };
      await saveLogin(login);
      return login.accessToken;
    }).finally(() => {
      refreshing = null;
    }));

  return {
    async get() {
      if (login.expiresAt - REFRESH_MARGIN_MS > Date.now() || !login.refreshToken) return login.accessToken;
      return (await refresh()) ?? login.accessToken;
    },
    async renew(rejected) {
      if (rejected !== login.accessToken) return login.accessToken; // another request already refreshed
      return refresh();
    },
  };
}

/** A token given on the command line or in SIGLATA_TOKEN: used as is, never stored or refreshed. */
export function fixedToken(token: string): TokenSource {
  return { get: async () => token, renew: async () => null };
}

/**
 * Revoke the refresh token (its whole grant) and the access token, then forget them. 'unrevoked': forgotten, but
 * the server could not be told (unreachable, or no revocation endpoint), so the tokens live until they expire.
 */
export async function logout(server: string): Promise<'none' | 'revoked' | 'unrevoked'> {
  const login = await loadLogin(server);
  if (!login) return 'none';
  let revoked = login.revocationEndpoint !== null;
  if (login.revocationEndpoint) {
    const api = new Api(server, null);
    for (const [token, hint] of [
      [login.refreshToken, 'refresh_token'],
      [login.accessToken, 'access_token'],
    ] as const) {
      if (!token) continue;
      const res = await api
        .json(login.revocationEndpoint, { auth: false, accept: [400, 401], form: { token, token_type_hint: hint, client_id: login.clientId } })
        .catch(() => null);
      if (res?.status !== 200) revoked = false;
    }
  }
  await removeLogin(server);
  return revoked ? 'revoked' : 'unrevoked';
}
