// Running the real `siglata` command (bin/siglata.mjs) as a child process, the way a user's shell would.
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const BIN = fileURLToPath(new URL('../../bin/siglata.mjs', import.meta.url));

export interface CliRun {
  child: ChildProcess;
  /** Resolves when the process has exited. */
  done: Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stdoutBytes: Buffer; stderr: string }>;
  /** Resolves with the first stderr line matching `pattern` (rejects if the process exits first). */
  waitForStderr(pattern: RegExp): Promise<string>;
  stderr(): string;
}

export function startCli(args: string[], options: { env?: Record<string, string | undefined>; input?: string; cwd?: string } = {}): CliRun {
  const env: NodeJS.ProcessEnv = { ...process.env, ...options.env };
  delete env.NODE_OPTIONS; // tap's loader hooks are not for the CLI
  for (const [k, v] of Object.entries(options.env ?? {})) if (v === undefined) delete env[k];
  const child = spawn(process.execPath, [BIN, ...args], { env, cwd: options.cwd, stdio: ['pipe', 'pipe', 'pipe'] });
  const stdout: Buffer[] = [];
  let stderr = '';
  const waiters: { pattern: RegExp; resolve: (line: string) => void; reject: (e: Error) => void }[] = [];
  const check = () => {
    for (const w of [...waiters]) {
      const line = stderr.split('\n').find((l) => w.pattern.test(l));
      if (line !== undefined) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve(line);
      }
    }
  };
  child.stdout!.on('data', (d: Buffer) => {
    stdout.push(d);
  });
  child.stderr!.setEncoding('utf8').on('data', (d: string) => {
    stderr += d;
    check();
  });
  if (options.input !== undefined) child.stdin!.end(options.input);
  else child.stdin!.end();
  const done = new Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stdoutBytes: Buffer; stderr: string }>((resolve) => {
    child.on('close', (code, signal) => {
      for (const w of waiters.splice(0)) w.reject(new Error(`siglata exited (${code ?? signal}) before printing ${w.pattern}; stderr:\n${stderr}`));
      const stdoutBytes = Buffer.concat(stdout);
      resolve({ code, signal, stdout: stdoutBytes.toString('utf8'), stdoutBytes, stderr });
    });
  });
  return {
    child,
    done,
    stderr: () => stderr,
    waitForStderr(pattern) {
      return new Promise((resolve, reject) => {
        waiters.push({ pattern, resolve, reject });
        check();
      });
    },
  };
}

export async function runCli(args: string[], options: { env?: Record<string, string | undefined>; input?: string; cwd?: string } = {}) {
  return startCli(args, options).done;
}
