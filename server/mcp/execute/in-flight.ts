// Executions one token may have running at once: a per-token tool-call limit besides the global rate limit, so one
// agent firing calls in parallel cannot hold the organization's whole share of the sandbox.
import { tooManyExecutions } from '../messages.ts';

const MAX_CONCURRENT_PER_TOKEN = 16;

export function perTokenLimit() {
  const inFlight = new Map<string, number>();
  return async function within<T>(key: string, run: () => Promise<T>): Promise<T> {
    const running = inFlight.get(key) ?? 0;
    if (running >= MAX_CONCURRENT_PER_TOKEN) throw tooManyExecutions(MAX_CONCURRENT_PER_TOKEN);
    inFlight.set(key, running + 1);
    try {
      return await run();
    } finally {
      const left = (inFlight.get(key) ?? 1) - 1;
      if (left <= 0) inFlight.delete(key);
      else inFlight.set(key, left);
    }
  };
}
