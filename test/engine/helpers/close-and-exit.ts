// Run by exit-after-close.test.ts in a process of its own: the server's engine settings with the in-process pool run
// executions for EXIT_RUN_MS, the engine is closed, and the process exits at once, as the server does on SIGTERM.
import { createEngine } from '../../../engine/index.ts';
import { loadConfig } from '../../../server/config.ts';

const engine = createEngine({ ...loadConfig({}).engine, hosts: 0 });
await engine.ready();
const until = performance.now() + Number(process.env.EXIT_RUN_MS ?? 2000);
const hostCall = async () => ({ ok: true as const, json: 'null' });
await Promise.all(
  Array.from({ length: 2 }, async () => {
    while (performance.now() < until) await engine.execute({ source: 'return 1', bindings: [], hostCall, tenant: 'org' });
  }),
);
await engine.close();
process.exit(0);
