// The graceful part of shutdown: stop taking new work at once (readiness 503, new executions and part uploads
// refused with 503 draining), keep serving probes and what is in flight until it ends or the deadline passes, then
// stop listening. The caller closes the dependencies (engine, database) afterwards.
import type { Server } from 'node:http';
import type { Logger } from '../logger.ts';
import type { Lifecycle } from './lifecycle.ts';

export async function drain(server: Server, lifecycle: Lifecycle, timeoutMs: number, logger: Logger, extra: (Server | null)[] = []): Promise<void> {
  lifecycle.beginDrain();
  const started = Date.now();
  logger.info('draining', { inFlight: lifecycle.inFlight, timeoutMs });
  const idle = await lifecycle.idle(timeoutMs);
  if (idle) logger.info('drained', { ms: Date.now() - started });
  else logger.warn('drain deadline passed; closing with requests in flight', { inFlight: lifecycle.inFlight });
  for (const s of [server, ...extra]) {
    if (!s) continue;
    s.close();
    s.closeAllConnections();
  }
}
