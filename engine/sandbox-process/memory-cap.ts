// A sandbox host process's memory, as both sides judge it: the resident-memory cap the server's watchdog enforces,
// and the ends after which an isolate may go on running or holding memory until the host says it has stopped.
import type { ResolvedConfig } from '../limits.ts';

/** Ends that leave an isolate over its limits, still growing or being torn down after the execution has ended. */
export const OVER_LIMITS: ReadonlySet<string> = new Set(['timeout', 'memory_limit', 'fatal']);

/** A host's resident-memory cap (the server's watchdog kills it past this). */
export function hostMemoryCapBytes(config: ResolvedConfig, slots: number): number {
  const mb = config.hostMemoryMb || 384 + 6 * config.memoryMb * Math.max(1, slots);
  return mb * 1024 * 1024;
}
