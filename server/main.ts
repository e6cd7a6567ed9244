// `npm start`: parse the config, start the dependencies, listen, and shut down gracefully on SIGINT/SIGTERM:
// readiness turns false, work in flight finishes up to DRAIN_TIMEOUT_MS, then everything (engine hosts, the
// embedded PostgreSQL) is closed.
import type { Server } from 'node:http';
import { loadConfig, ConfigError, type Config } from './config.ts';
import { bootstrap, type Running } from './bootstrap.ts';
import { serveApp } from './http/serve.ts';
import { createHttpServer } from './http/http-server.ts';
import { createApp } from './app.ts';
import { createLogger } from './logger.ts';
import { drain } from './ops/drain.ts';
import { startMetricsServer } from './ops/metrics-endpoint.ts';
import { startMemoryReducer } from './ops/memory-reducer.ts';
import { startBanner } from './start-banner.ts';

let config: Config;
try {
  config = loadConfig();
} catch (err) {
  if (err instanceof ConfigError) {
    process.stderr.write(`${err.message}\n`);
    process.exit(2);
  }
  throw err;
}

const logger = createLogger(config.logLevel);
const server = createHttpServer(config.http);

// Signals are handled from the first moment: a SIGTERM while the database starts waits for the start to finish,
// then stops it (embedded PostgreSQL runs detached and would outlive us), instead of dying mid-start.
let running: Running | null = null;
let metricsServer: Server | null | undefined;
let stopping = false;
async function shutdown(signal: string) {
  if (stopping) return;
  stopping = true;
  logger.info('shutting down', { signal });
  const force = setTimeout(() => process.exit(1), config.drainTimeoutMs + 20_000);
  force.unref();
  if (!running) return; // still starting: stopped right after bootstrap (below)
  await drain(server, running.deps.ops!.lifecycle, config.drainTimeoutMs, logger, metricsServer ? [metricsServer] : []);
  await running.close();
  logger.info('stopped');
  process.exit(0);
}
process.on('SIGINT', () => void shutdown('SIGINT'));
process.on('SIGTERM', () => void shutdown('SIGTERM'));

// Plain lines for the person at the terminal go to stderr: stdout stays one JSON log record per line.
const say = (line: string) => process.stderr.write(`${line}\n`);
const started = await bootstrap(config, { logger, say });
if (stopping) {
  await started.close();
  logger.info('stopped');
  process.exit(0);
}
metricsServer = await startMetricsServer(config, started.deps.ops!.metrics).catch(async (err: NodeJS.ErrnoException) => {
  logger.error(`cannot listen for metrics on ${config.metrics.host}:${config.metrics.port}: ${err.code ?? err.message}`);
  await started.close();
  process.exit(1);
});
running = started;
serveApp(server, createApp(started.deps));
// After bursts of host work, the heap's garbage pages go back once the server is idle (server/ops/memory-reducer.ts).
startMemoryReducer();
server.on('error', async (err: NodeJS.ErrnoException) => {
  // e.g. EADDRINUSE: say so in one line, and stop the embedded database we started.
  logger.error(`cannot listen on ${config.host}:${config.port}: ${err.code ?? err.message}`);
  await started.close();
  process.exit(1);
});
server.listen(config.port, config.host, () => {
  const addr = server.address();
  const port = typeof addr === 'object' && addr ? addr.port : config.port;
  logger.info('listening', { url: `http://${config.host}:${port}`, publicBaseUrl: config.publicBaseUrl, dataDir: config.dataDir });
  say(startBanner(config, port));
});
