// How the server starts a sandbox host process: child/main.ts under `env -i` with an environment built from an
// allow-list (never the server's: no DATABASE_URL, SMTP_URL, keys, tokens), an empty read-only working directory
// instead of the data directory, and, when the server runs as root, the unprivileged `nobody` user.
import { spawn, type ChildProcess } from 'node:child_process';
import { accessSync, constants, mkdtempSync, chmodSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { ResolvedConfig } from '../limits.ts';

/** The script a sandbox host process runs. */
export const CHILD_MAIN = new URL('./child/main.ts', import.meta.url).pathname;
const ENV = '/usr/bin/env';

/** The only variables a host inherits: none carries a secret, and Node needs none of them to run. */
export const HOST_ENV_ALLOW = ['LANG', 'LC_ALL', 'TZ'] as const;
const NOBODY = 65534;

export interface SpawnSettings {
  env: Record<string, string>;
  cwd: string;
  uid?: number;
  gid?: number;
  /** Removes the working directory (at engine close). */
  dispose(): void;
}

function nobody(): { uid: number; gid: number } {
  try {
    const line = readFileSync('/etc/passwd', 'utf8')
      .split('\n')
      .find((l) => l.startsWith('nobody:'));
    const [, , uid, gid] = line!.split(':');
    if (Number.isInteger(Number(uid)) && Number.isInteger(Number(gid))) return { uid: Number(uid), gid: Number(gid) };
  } catch {
    /* no passwd entry: the conventional id */
  }
  return { uid: NOBODY, gid: NOBODY };
}

/** A host running as `nobody` must be able to read the engine's code and Node itself: say so before spawning. */
function assertWorldReadable(files: string[]): void {
  for (const file of files) {
    let at = file;
    for (;;) {
      const mode = statSync(at).mode;
      const isDir = at !== file;
      if ((isDir && !(mode & 0o001)) || (!isDir && !(mode & 0o004))) {
        throw new Error(
          `the script engine runs its sandbox processes as the unprivileged user nobody, who cannot ${isDir ? 'enter' : 'read'} ${at}; make it readable (chmod o+${isDir ? 'x' : 'r'}) or install the project elsewhere`,
        );
      }
      if (at === '/') break;
      at = dirname(at);
    }
  }
}

export function spawnSettings(): SpawnSettings {
  const env: Record<string, string> = {};
  for (const key of HOST_ENV_ALLOW) if (process.env[key] !== undefined) env[key] = process.env[key]!;
  const cwd = mkdtempSync(join(tmpdir(), 'siglata-host-'));
  chmodSync(cwd, 0o555);
  const settings: SpawnSettings = { env, cwd, dispose: () => rmSync(cwd, { recursive: true, force: true }) };
  if (process.getuid?.() === 0) {
    assertWorldReadable([CHILD_MAIN, process.execPath]);
    accessSync(process.execPath, constants.X_OK);
    Object.assign(settings, nobody());
  }
  return settings;
}

/**
 * Starts a host process. `env -i`: its environment is exactly the allow-list, whatever a wrapper of spawn (a test
 * runner's NODE_OPTIONS preload, say) adds to the one we pass.
 */
export function startHostProcess(config: ResolvedConfig, settings: SpawnSettings): ChildProcess {
  const { onCatastrophicError, onHostCrash, ...plain } = config;
  void onCatastrophicError;
  void onHostCrash;
  const vars = Object.entries(settings.env).map(([k, v]) => `${k}=${v}`);
  const child = spawn(ENV, ['-i', ...vars, process.execPath, '--no-node-snapshot', CHILD_MAIN, JSON.stringify(plain)], {
    // Its stderr (V8's fatal-error reports) is kept, not printed: the tail goes with the death report.
    stdio: ['ignore', 'ignore', 'pipe', 'pipe'],
    env: {},
    cwd: settings.cwd,
    uid: settings.uid,
    gid: settings.gid,
  });
  child.on('error', () => {
    /* a failed spawn: 'close' follows */
  });
  return child;
}
