// Whether a directory's file system accepts O_DIRECT (tmpfs on older kernels does not): tests of the fs store's
// direct writes expect them exactly where the platform allows them.
import { closeSync, constants, openSync, rmSync } from 'node:fs';
import { join } from 'node:path';

export function directIoWorks(dir: string): boolean {
  const O_DIRECT = (constants as Record<string, number>).O_DIRECT;
  if (!O_DIRECT) return false;
  const probe = join(dir, `direct-check-${process.pid}`);
  try {
    closeSync(openSync(probe, constants.O_WRONLY | constants.O_CREAT | O_DIRECT, 0o600));
    return true;
  } catch {
    return false;
  } finally {
    rmSync(probe, { force: true });
  }
}
