// npm run migrate: apply pending migrations to DATABASE_URL (or the embedded database) and exit.
import { loadConfig } from '../server/config.ts';
import { bootstrap } from '../server/bootstrap.ts';
import { createLogger } from '../server/logger.ts';

const running = await bootstrap(loadConfig(), { logger: createLogger('info'), engine: false });
await running.close();
