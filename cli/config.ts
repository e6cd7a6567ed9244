// Where the CLI keeps what outlives one command: sign-ins per server (tokens, 0600) and the state of interrupted
// uploads. The directory is SIGLATA_CONFIG_DIR, else $XDG_CONFIG_HOME/siglata, else ~/.config/siglata (0700).
import { chmod, mkdir, open, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';

export interface StoredLogin {
  server: string;
  issuer: string;
  tokenEndpoint: string;
  revocationEndpoint: string | null;
  resource: string;
  clientId: string;
  accessToken: string;
  refreshToken: string | null;
  /** Epoch milliseconds. */
  expiresAt: number;
  scope: string;
}

interface CredentialsFile {
  /** The server used when a command names none: the last one signed in to. */
  current: string | null;
  logins: Record<string, StoredLogin>;
}

export function configDir(env: NodeJS.ProcessEnv = process.env): string {
  const base = env.SIGLATA_CONFIG_DIR || join(env.XDG_CONFIG_HOME || join(homedir(), '.config'), 'siglata');
  // A profile (--profile, SIGLATA_PROFILE) keeps its own sign-ins and current server beside the default ones.
  const profile = env.SIGLATA_PROFILE;
  return profile && /^[A-Za-z0-9_-]{1,64}$/.test(profile) ? join(base, 'profiles', profile) : base;
}

const credentialsPath = () => join(configDir(), 'credentials.json');

async function ensureDir(dir: string): Promise<void> {
  await mkdir(dir, { recursive: true, mode: 0o700 });
}

/** Write a file readable by its owner only, atomically (a crash leaves the old or the new content, never half). */
export async function writePrivate(path: string, text: string): Promise<void> {
  const { randomBytes } = await import('node:crypto'); // not at start-up: --help never writes
  const tmp = `${path}.${randomBytes(6).toString('hex')}.tmp`;
  await writeFile(tmp, text, { mode: 0o600 });
  await chmod(tmp, 0o600); // mode is masked by the umask on creation
  await rename(tmp, path);
}

async function readJson<T>(path: string): Promise<T | null> {
  try {
    return JSON.parse(await readFile(path, 'utf8')) as T;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT' || err instanceof SyntaxError) return null;
    throw err;
  }
}

async function readCredentials(): Promise<CredentialsFile> {
  const file = await readJson<CredentialsFile>(credentialsPath());
  return file && typeof file === 'object' && file.logins ? file : { current: null, logins: {} };
}

/** The origin (scheme://host:port) a server URL is stored under. */
export function serverKey(server: string): string {
  return new URL(server).origin;
}

export async function loadLogin(server: string): Promise<StoredLogin | null> {
  return (await readCredentials()).logins[serverKey(server)] ?? null;
}

export async function currentServer(): Promise<string | null> {
  return (await readCredentials()).current;
}

export async function saveLogin(login: StoredLogin): Promise<void> {
  await ensureDir(configDir());
  const file = await readCredentials();
  file.logins[serverKey(login.server)] = login;
  file.current = serverKey(login.server);
  await writePrivate(credentialsPath(), `${JSON.stringify(file, null, 2)}\n`);
}

/** Forget a sign-in's tokens; `keepCurrent`: the server stays the one commands use when they name none. */
export async function removeLogin(server: string, options: { keepCurrent?: boolean } = {}): Promise<void> {
  const file = await readCredentials();
  delete file.logins[serverKey(server)];
  if (file.current === serverKey(server) && !options.keepCurrent) file.current = null;
  await ensureDir(configDir());
  await writePrivate(credentialsPath(), `${JSON.stringify(file, null, 2)}\n`);
}

const LOCK_STALE_MS = 30_000;

/**
 * Run `fn` while holding the credentials lock (an O_EXCL lock file), so that two siglata processes never redeem
 * the same refresh token: the server takes a reused refresh token as theft and revokes the whole grant.
 */
export async function withCredentialsLock<T>(fn: () => Promise<T>): Promise<T> {
  await ensureDir(configDir());
  const lock = join(configDir(), 'credentials.lock');
  const deadline = Date.now() + 20_000;
  for (;;) {
    try {
      const fh = await open(lock, 'wx', 0o600);
      await fh.close();
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const age = Date.now() - ((await stat(lock).catch(() => null))?.mtimeMs ?? Date.now());
      if (age > LOCK_STALE_MS || Date.now() > deadline) {
        await rm(lock, { force: true });
        continue;
      } // its holder died
      await new Promise((r) => setTimeout(r, 50));
    }
  }
  try {
    return await fn();
  } finally {
    await rm(lock, { force: true });
  }
}

/** Small JSON state files under the config directory (interrupted uploads), also private. */
export const stateFiles = {
  async read<T>(kind: string, key: string): Promise<T | null> {
    return readJson<T>(join(configDir(), kind, `${key}.json`));
  },
  async write(kind: string, key: string, value: unknown): Promise<void> {
    await ensureDir(join(configDir(), kind));
    await writePrivate(join(configDir(), kind, `${key}.json`), JSON.stringify(value));
  },
  async remove(kind: string, key: string): Promise<void> {
    await rm(join(configDir(), kind, `${key}.json`), { force: true });
  },
};
