// `npm start`: parse the config, start the dependencies, listen, and shut down gracefully on SIGINT/SIGTERM.
import { createServer } from 'node:http';
import { serveApp } from './http/serve.ts';
import { loadConfig, ConfigError } from './config.ts';
import { bootstrap } from './bootstrap.ts';
import { createApp } from './app.ts';
import { createLogger } from './logger.ts';

let config;
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
const running = await bootstrap(config, { logger });
const app = createApp(running.deps);
const server = createServer();
serveApp(server, app);
server.requestTimeout = 0; // long part uploads and downloads; idle sockets are still closed by headersTimeout/keepAlive
server.on('error', async (err: NodeJS.ErrnoException) => {
  // e.g. EADDRINUSE: say so in one line, and stop the embedded database we started.
  logger.error(`cannot listen on ${config.host}:${config.port}: ${err.code ?? err.message}`);
  await running.close();
  process.exit(1);
});
server.listen(config.port, config.host, () => {
  const addr = server.address();
  const port = typeof addr === 'object' && addr ? addr.port : config.port;
  logger.info('listening', { url: `http://${config.host}:${port}`, publicBaseUrl: config.publicBaseUrl, dataDir: config.dataDir });
});

let stopping = false;
async function shutdown(signal: string) {
  if (stopping) return;
  stopping = true;
  logger.info('shutting down', { signal });
  const force = setTimeout(() => process.exit(1), 20_000);
  force.unref();
  server.close();
  server.closeIdleConnections();
  await running.close();
  logger.info('stopped');
  process.exit(0);
}
process.on('SIGINT', () => void shutdown('SIGINT'));
process.on('SIGTERM', () => void shutdown('SIGTERM'));
